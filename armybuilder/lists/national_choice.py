"""The trait a list's army chooses when one of its national rules asks for one (the British national
characteristic, the Italian bonus): the builder's choice, in the player's language.

The choices themselves are rules data (``rules.combat.national.CHOICES``); the list keeps the chosen
slug in ``ArmyList.national_choice``, which the JSON file and game day carry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy

from rules.combat import national

if TYPE_CHECKING:
    from armybuilder.lists.models import ArmyList

CHOICE_NAMES = {
    "up-and-at-em": gettext_lazy("Up and 'at 'em"),
    "blood-curdling-charge": gettext_lazy("Blood Curdling Charge"),
    "tough-as-boots": gettext_lazy("Tough as Boots"),
    "rapid-fire": gettext_lazy("Rapid Fire"),
    "vengeance": gettext_lazy("Vengeance"),
    "cedere": gettext_lazy("Cedere"),
    "obbedire": gettext_lazy("Obbedire"),
    "combattere": gettext_lazy("Combattere"),
}


def army_rule_slugs(army_list: ArmyList) -> set[str]:
    return {rule.slug for rule in army_list.army.national_rules.all()}


def choice_name(slug: str) -> str:
    return str(CHOICE_NAMES.get(slug, slug))


def choice_context(army_list: ArmyList) -> dict[str, Any] | None:
    """What the builder's national-rules panel offers: the rule that asks, its choices and the current
    one; None when the army's rules ask for nothing."""
    found = national.choosable(army_rule_slugs(army_list))
    if found is None:
        return None
    slug, options = found
    rule = next(r for r in army_list.army.national_rules.all() if r.slug == slug)
    return {
        "rule": rule,
        "choices": [(value, choice_name(value)) for value, _name in options],
        "current": army_list.national_choice,
        "current_name": choice_name(army_list.national_choice) if army_list.national_choice else "",
    }
