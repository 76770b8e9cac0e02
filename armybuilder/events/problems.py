"""An event's own problems with a list, in the active language.

The rules write each problem in English (``rules.events.legality``); the list problems they pass
on keep the builder's rule ids and are translated by ``lists.problems``. The event's own ids are
translated here, from the same params, falling back to the English sentence like the builder's.
"""

from __future__ import annotations

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from armybuilder.lists.problems import display_problem
from rules.army.model import Problem

MESSAGES = {
    "event-edition": _("The list is for %(edition)s; the event plays %(event_edition)s."),
    "event-army": _("%(army)s is not one of the event's armies."),
    "event-data-cutoff": _("%(army)s's data changed on %(changed)s, after the event's cut-off (%(cutoff)s)."),
    "event-banned-unit": _("%(name)s is banned at this event."),
}


def display(problem: Problem) -> str:
    message = MESSAGES.get(problem.rule)
    if message is None:
        return display_problem(problem)
    language = get_language() or "en"
    if language == "en" or language.startswith("en-"):
        return problem.message
    try:
        return str(message % dict(problem.params))
    except (KeyError, TypeError, ValueError):
        return problem.message
