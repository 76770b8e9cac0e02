"""``{{ problem|problem_text }}``: an army-list problem in the active language (see ``lists.problems``)."""

from __future__ import annotations

from django import template

from armybuilder.lists.problems import display_problem

register = template.Library()


@register.filter
def problem_text(problem) -> str:
    return display_problem(problem)
