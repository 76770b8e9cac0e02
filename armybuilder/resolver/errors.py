"""Combat-engine errors in the active language, for the calculator pages.

``rules.combat`` raises ``RulesError`` with an English message that starts with the field it is about
("groups[0].order: Medium AT gun is a fixed weapon ..."), a ``code`` naming the kind of error and the
``params`` the message interpolates. The JSON API keeps the English message. The pages show it without
the field name in English, and rebuild it from ``code`` and ``params`` in any other language, falling
back to the English message for an unknown code or a param the sentence needs and does not get, so a
page never fails on an error it means to show.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from rules.errors import RulesError

MESSAGES = {
    "fixed-on-advance": _("%(weapon)s is a fixed weapon and cannot fire on an Advance order."),
    "no-he": _("%(weapon)s has no HE shell."),
    "he-only": _("%(weapon)s only fires HE."),
    "indirect-not-he": _("Only HE weapons fire indirectly, and %(weapon)s fires no HE."),
    "too-many-models": _("At most %(maximum)s models can fire together."),
    "no-groups": _("Choose a weapon for at least one group."),
    "empty-bag": _("The bag is empty: put some dice in it."),
    "armour-required": _("Choose the armoured vehicle's damage value (7+ to 11+)."),
    "endless-draw": _("Neither side can cause a casualty: the fight would never end."),
    "too-small": _("Must be at least %(minimum)s, not %(value)s."),
    "too-large": _("Must be at most %(maximum)s, not %(value)s."),
    "die": _("A die shows 1 to 6."),  # rules.combat.support: a typed die of an air strike or barrage
    "support": _("At least one die is rolled."),
    "bombard-keep": _("Keep one of the unit's dice."),  # rules.combat.support.check_kept
    "negative": _("Must not be negative, not %(value)s."),
    "not-int": _("Expected a whole number, not %(value)s."),
    "not-bool": _("Expected true or false, not %(value)s."),
    "required": _("Required."),
    "unknown-field": _("Unknown field %(field)s."),
    "unknown-value": _("Unknown value %(value)s; expected one of %(choices)s."),
    "unknown-edition": _("Unknown edition %(edition)s."),
    "unknown-rank": _("Unknown officer rank %(rank)s; this edition's ranks are %(ranks)s."),
    "wrong-type": _("Expected a %(expected)s."),
    "dice-unreadable": _("Cannot read the dice %(value)s (expected e.g. 1, 4, D3, D6+1, 2D6)."),
    "dice-unsupported": _("Unsupported dice %(value)s."),
    "he-size": _("An HE template must be 1 to 6 inches, not %(value)s."),
    "range-min": _("The minimum range must lie between 0 and the maximum range, not %(value)s."),
    "shots-range": _("The number of shots is out of range: %(value)s."),
    "band-out-of-reach": _("%(weapon)s cannot fire at this range."),
    "run-cannot-assault": _("A vehicle with a Run order cannot be assaulted."),
}


def english_message(exc: RulesError) -> str:
    """The engine's English message without the field name it starts with (``exc.field``)."""
    text = str(exc)
    if exc.field and text.startswith(f"{exc.field}: "):
        return text[len(exc.field) + 2 :]
    return text


def _params(exc: RulesError, weapon_names: Mapping[str, str]) -> dict[str, object]:
    """The error's params, with a weapon named in the active language when the page knows its slug."""
    params = dict(exc.params)
    slug = params.get("weapon_slug")
    if isinstance(slug, str) and slug in weapon_names:
        params["weapon"] = weapon_names[slug]
    return params


def display_error(exc: RulesError, weapon_names: Mapping[str, str] | None = None) -> str:
    """The error's sentence in the active language; ``weapon_names`` maps weapon slugs to display names."""
    language = get_language() or "en"
    if language == "en" or language.startswith("en-"):  # the engine already wrote it in English
        return english_message(exc)
    message = MESSAGES.get(exc.code)
    if message is None:
        return english_message(exc)
    try:
        return str(message) % _params(exc, weapon_names or {})
    except (KeyError, TypeError, ValueError):  # a param the sentence needs is missing or unusable
        return english_message(exc)
