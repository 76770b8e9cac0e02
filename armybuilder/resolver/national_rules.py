"""National rules between the database and ``rules.combat.national``: a list's army, a unit's gyro,
what the shooting form offers, the notes saying a rule was applied, and a unit card's adjusted shots.

Kept apart so the calculator, the unit cards and game day each call one function here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.combat import api as engine
from rules.combat import national, unit_rules
from rules.combat.tank_assault import TankAssaultResult, vehicle_assault_check
from rules.combat.tank_assault import tank_assault as tank_assault_odds
from rules.errors import RulesError

if TYPE_CHECKING:
    from armybuilder.catalogue.models import Army
    from armybuilder.lists.models import ArmyList, Entry
    from armybuilder.reference.models import Weapon as WeaponRow
    from rules.combat.results import OrderTestOdds


class CardLine(Protocol):
    """A unit card's weapon line (the playsheets' ``WeaponLine``, a frozen dataclass): the shots and
    rules the national rules rewrite. Named by its shape so the cards depend on these rules, not back."""

    shots: str
    rules: str


NAMES = {
    "hitler-s-buzzsaw": gettext_lazy("Hitler's Buzzsaw"),
    "fire-and-manoeuvre": gettext_lazy("Fire and Manoeuvre"),
    "gyro-stabilisers": gettext_lazy("Gyro-Stabilisers"),
    "the-great-patriotic-war": gettext_lazy("The Great Patriotic War"),
    "banzai-charge": gettext_lazy("Banzai Charge"),
    "large-squads": gettext_lazy("Large Squads"),
    "death-before-dishonour": gettext_lazy("Death Before Dishonour"),
    "improvised-at": gettext_lazy("Improvised AT"),
    "not-one-step-back": gettext_lazy("Not One Step Back!"),
    "tiger-fear": gettext_lazy("Tiger Fear"),
    "avanti-savoia": gettext_lazy("Avanti Savoia!"),
    "communication-breakdown": gettext_lazy("Communication Breakdown"),
    "initiative-training": gettext_lazy("Initiative Training"),
    "blitzkrieg": gettext_lazy("Blitzkrieg"),
    "modern-communications": gettext_lazy("Modern Communications"),
    "rapid-fire": gettext_lazy("Rapid Fire"),
    "up-and-at-em": gettext_lazy("Up and 'at 'em"),
    "air-superiority": gettext_lazy("Air Superiority"),
    "massed-batteries": gettext_lazy("Massed Batteries"),
    "bombardment": gettext_lazy("Bombardment"),
    "tough-as-boots": gettext_lazy("Tough as Boots"),
    "vengeance": gettext_lazy("Vengeance"),
    "cedere-obbedire-combattere": gettext_lazy("Cedere, Obbedire, Combattere"),
    "blood-curdling-charge": gettext_lazy("Blood Curdling Charge"),
    "defensive-strategy": gettext_lazy("Defensive Strategy"),
}
# The Italian bonus as applied (``national.unit_bonus``: its slug is the chosen bonus's): the rule a unit
# gains, with the bonus that gives it.
BONUS_NAMES = {
    "cedere": gettext_lazy("Fanatics (Cedere)"),
    "obbedire": gettext_lazy("Stubborn (Obbedire)"),
    "combattere": gettext_lazy("Fire and Manoeuvre (Combattere)"),
}
GAIN_NAMES = {
    "fanatics": BONUS_NAMES["cedere"],
    "stubborn": BONUS_NAMES["obbedire"],
    "fire_and_manoeuvre": BONUS_NAMES["combattere"],
    "mountaineers": gettext_lazy("Mountaineers (Obbedire)"),
}
ARMY_CHOICES = [
    ("", gettext_lazy("None")),
    ("germany", gettext_lazy("Germany (Hitler's Buzzsaw)")),
    ("great-britain", gettext_lazy("Great Britain (Rapid Fire, when chosen)")),
    ("italy", gettext_lazy("Italy (Large Squads, Improvised AT)")),
    ("us", gettext_lazy("United States (Fire and Manoeuvre, Gyro-Stabilisers)")),
]
# The anti-tank page's infantry assault: the firing armies' rules, and Japan's (Banzai Charge on the Tank
# Fear test, Death Before Dishonour on the morale check when a vehicle assaults the unit).
ASSAULT_ARMY_CHOICES = [
    *ARMY_CHOICES,
    ("imperial-japan", gettext_lazy("Imperial Japan (Banzai Charge, Death Before Dishonour)")),
]
# The rule a target unit gains from its army's Italian bonus (``rules.combat.unit_rules``).
TARGET_UNIT_RULE_CHOICES = [
    ("", gettext_lazy("None")),
    ("fanatics", gettext_lazy("Fanatics (Cedere: Blackshirts, Regular HQ)")),
    ("stubborn", gettext_lazy("Stubborn (Obbedire: Alpini)")),
]
TARGET_ARMY_CHOICES = [
    ("", gettext_lazy("None")),
    ("imperial-japan", gettext_lazy("Imperial Japan (Death Before Dishonour)")),
    ("soviet-union", gettext_lazy("Soviet Union (The Great Patriotic War)")),
]
SHOOTING_ARMIES = frozenset(national.modelled_armies())
MORALE_ARMIES = frozenset(national.modelled_armies(effects=national.TARGET_MORALE))
GYRO = "gyro-stabilisers"


def rule_name(applied: national.Applied) -> str:
    return str(NAMES.get(applied.slug) or BONUS_NAMES.get(applied.slug) or applied.name)


def army_key(army: Army | None, edition: str, chosen: str = "", effects: frozenset[str] | None = None) -> str:
    """The modelled rule set a catalogue army carries (its ``national_rules`` by slug, and the trait
    its list chose, ``chosen``), or ""; with ``effects``, only rules of those effects count."""
    if army is None:
        return ""
    slugs = {rule.slug for rule in army.national_rules.all()} | ({chosen} if chosen else set())
    try:
        return national.army_for_rules(edition, slugs, effects)
    except RulesError:
        return ""


# What a list's army brings to the shooting page, the cards and "odds now": rules on a shot or on the
# target's morale. A British trait that acts elsewhere (Tough as Boots, Blood Curdling Charge ...) does not
# make the list's army "Great Britain (Rapid Fire)".
LIST_ARMY_EFFECTS = national.SHOOTING | national.TARGET_MORALE


def list_army(army_list: ArmyList) -> str:
    return army_key(army_list.army, army_list.edition.slug, army_list.national_choice, LIST_ARMY_EFFECTS)


def entry_has_gyro(entry: Entry) -> bool:
    """The unit carries Gyro-stabilisers (its own rule row, as the Barracks data gives it to Shermans)."""
    return any(rule.slug == GYRO for rule in entry.unit.special_rules.all())


def entry_facts(entry: Entry) -> unit_rules.UnitFacts:
    """What the Italian bonus reads of a list's unit: its unit's names (own units too), its kind from
    the catalogue's unit type and slot, its quality and the name the player gave it."""
    unit = entry.unit
    return unit_rules.UnitFacts(
        names=tuple(n for n in (unit.name, unit.name_fr) if n),
        kind=unit_rules.unit_kind(unit.unit_type, unit.slot),
        quality=entry.quality,
        given_name=entry.name,
    )


def entry_gained(entry: Entry) -> tuple[unit_rules.Gained, ...]:
    """The rules the unit gains from its list's Italian bonus (``ArmyList.national_choice``)."""
    army_list = entry.army_list
    if not army_list.national_choice or army_list.army is None:
        return ()
    # The army must carry the rule that offers the bonus (by its key, so an imported army naming it counts).
    found = national.choosable({rule.slug for rule in army_list.army.national_rules.all()})
    if found is None or found[0] != unit_rules.RULE_SLUG:
        return ()
    try:
        return unit_rules.gained(army_list.edition.slug, unit_rules.ARMY, army_list.national_choice, entry_facts(entry))
    except RulesError:
        return ()


def entry_gains(entry: Entry) -> frozenset[str]:
    """The modelled rules among ``entry_gained`` ("fanatics", "stubborn", "fire_and_manoeuvre")."""
    return frozenset(g.rule for g in entry_gained(entry) if g.modelled)


def _firer_gains(gains: Iterable[str]) -> dict[str, str]:
    return {"fire_and_manoeuvre": "on"} if "fire_and_manoeuvre" in gains else {}


def _target_gain(gains: Iterable[str]) -> str:
    return next((g for g in ("fanatics", "stubborn") if g in gains), "")


# The catalogue's unit types that are vehicles: their Fixed guns fire on an Advance order.
VEHICLE_UNIT_TYPES = frozenset({"vehicle_soft", "vehicle_armoured", "transport"})
VEHICLE_TARGET_KINDS = frozenset({"soft_skin", "armoured"})


def _vehicle_field(vehicle: bool) -> dict[str, str]:
    return {"firer_vehicle": "on"} if vehicle else {}


def entry_prefill(entry: Entry) -> dict[str, str]:
    """The shooting form's firer fields a list's unit fills in: whether it is a vehicle (its unit type),
    its army's rules, its gyro and the rule its Italian bonus gives it."""
    army = list_army(entry.army_list)
    fields = {**_vehicle_field(entry.unit.unit_type in VEHICLE_UNIT_TYPES), **_firer_gains(entry_gains(entry))}
    if army not in SHOOTING_ARMIES:
        return fields
    return {"army": army, **({"gyro": "on"} if entry_has_gyro(entry) else {}), **fields}


def target_prefill(entry: Entry) -> dict[str, str]:
    """The shooting form's national fields for a target unit from a list (its morale rules, and the
    Fanatics or Stubborn its Italian bonus gives it)."""
    army = list_army(entry.army_list)
    return {
        "target_army": army if army in MORALE_ARMIES else "",
        "target_unit_rule": _target_gain(entry_gains(entry)),
    }


def odds_setup(entry: Entry, army: str) -> dict[str, Any]:
    """What game day freezes per unit for "odds now" (``army``: ``list_army`` of the unit's list):
    the army, the gyro, and the rules the Italian bonus gives the unit (``unit_rules``)."""
    gains = sorted(entry_gains(entry))
    frozen: dict[str, Any] = {"army": army, "gyro": entry_has_gyro(entry)} if army else {}
    return {**frozen, "unit_rules": gains} if gains else frozen


def _frozen_gains(frozen: dict[str, Any]) -> list[str]:
    gains = frozen.get("unit_rules")
    return [g for g in gains if isinstance(g, str)] if isinstance(gains, list) else []


def odds_query(frozen: dict[str, Any]) -> dict[str, str]:
    """The shooting page's query for a firing unit game day froze with ``odds_setup`` (a vehicle by the
    target kind frozen beside it, so games started before the vehicle box know it too)."""
    army = str(frozen.get("army") or "")
    vehicle = frozen.get("kind") in VEHICLE_TARGET_KINDS
    fields = {**_vehicle_field(vehicle), **_firer_gains(_frozen_gains(frozen))}
    if army not in SHOOTING_ARMIES:
        return fields
    return {"army": army, **({"gyro": "on"} if frozen.get("gyro") else {}), **fields}


def target_odds_query(frozen: dict[str, Any]) -> dict[str, str]:
    """The shooting page's query for a target unit game day froze with ``odds_setup``."""
    army = str(frozen.get("army") or "")
    gain = _target_gain(_frozen_gains(frozen))
    return {**({"target_army": army} if army in MORALE_ARMIES else {}), **({"target_unit_rule": gain} if gain else {})}


def morale_note(applied: national.Applied) -> str:
    return _("Re-takes a failed morale check that would destroy it: %(rule)s") % {"rule": rule_name(applied)}


def fanatic_note(applied: national.Applied) -> str:
    if applied.slug == "cedere":  # the rule's name says Fanatics already: "Fanatics (Cedere)"
        return _("Pins neither rout it nor count on its morale checks: %(rule)s") % {"rule": rule_name(applied)}
    return _("Fanatics: pins neither rout it nor count on its morale checks: %(rule)s") % {"rule": rule_name(applied)}


def stubborn_note(applied: national.Applied) -> str:
    return _("Pins do not count on its morale checks: %(rule)s") % {"rule": rule_name(applied)}


def pins_note(applied: national.Applied) -> str:
    return _("D2 pins: %(rule)s (14 or more men firing)") % {"rule": rule_name(applied)}


def commissar_note(applied: national.Applied) -> str:
    return _("A failed test is taken again, a man removed for it: %(rule)s") % {"rule": rule_name(applied)}


def tiger_note(applied: national.Applied) -> str:
    return _("Tested as if with one more pin: %(rule)s") % {"rule": rule_name(applied)}


def avanti_note(applied: national.Applied, modifier: int) -> str:
    return _("Morale %(modifier)+d: %(rule)s") % {"modifier": modifier, "rule": rule_name(applied)}


def nco_note(applied: national.Applied, edition: str) -> str:
    if national.nco_lost(edition, "germany")[0]:
        return _("Another man takes over on a 2+, so the −1 for the lost NCO counts 1 time in 6: %(rule)s") % {
            "rule": rule_name(applied)
        }
    return _("No −1 for the lost NCO: %(rule)s") % {"rule": rule_name(applied)}


RESERVE_CHOICES = [
    ("", gettext_lazy("On the table")),
    ("reserve", gettext_lazy("Coming on from reserve (−1)")),
    ("reserve_us", gettext_lazy("Coming on from reserve, a US unit (Modern Communications)")),
]
NCO_CHOICES = [
    ("", gettext_lazy("Has its NCO")),
    ("lost", gettext_lazy("Lost its NCO (−1)")),
    ("lost_german", gettext_lazy("Lost its NCO, a German squad (Initiative Training)")),
]


def order_test(cd: dict[str, Any]) -> tuple[OrderTestOdds, list[str]]:
    """The order test page's odds with the national rules ticked on its form, and the notes saying so.

    Tiger Fear adds a pin, Avanti Savoia! moves morale by 2, a lost NCO is -1 (Initiative Training:
    sometimes or never), Not One Step Back! re-takes a failed test and the Banzai Charge passes it."""
    edition = cd["edition"]
    notes: list[str] = []
    tiger = national.tiger_fear(edition, "germany", bool(cd.get("tiger_fear")))
    avanti = cd.get("avanti") or ""
    lost = {"behind": (national.AVANTI_GAP, 0), "ahead": (0, national.AVANTI_GAP)}.get(avanti, (0, 0))
    avanti_mod, savoia = national.avanti_savoia(edition, "italy", *lost)
    nco = cd.get("nco") or ""
    p_penalty, initiative = national.nco_lost(edition, "germany" if nco == "lost_german" else "", cd["quality"])
    commissar = national.not_one_step_back(edition, "soviet-union", bool(cd.get("commissar")))
    banzai = national.banzai(edition, "imperial-japan", bool(cd.get("banzai"))) or national.up_and_at_em(
        edition, "great-britain", bool(cd.get("up_and_at_em")), cd["quality"]
    )
    reserve = cd.get("reserve") or ""
    reserve_mod, radio = national.from_reserve(edition, "us" if reserve == "reserve_us" else "")
    reserve_mod = reserve_mod if reserve else 0

    vengeance = national.vengeance(edition, bool(cd.get("vengeance")), cd["quality"], cd["pins"])

    def odds(penalty: int, shed: int = 0) -> OrderTestOdds:
        raw = engine.order_test(
            edition,
            quality=cd["quality"],
            pins=cd["pins"] - shed + (1 if tiger else 0),
            officer_bonus=cd["officer_bonus"],
            modifier=cd["modifier"] + avanti_mod + reserve_mod + penalty,
        )
        return national.commissar_reroll(raw) if commissar else raw

    def with_nco(shed: int) -> OrderTestOdds:
        # A lost NCO: the -1 with chance p_penalty (each side of the mixture re-rolled on its own).
        p_nco = p_penalty if nco else national.ZERO
        return national.mix_order_odds(odds(0, shed), odds(national.NCO_LOST, shed), p_nco)

    raw = with_nco(0)
    if vengeance:
        # Half the time a pin is shed first; the test is taken all the same (test_needed stays true).
        raw = national.mix_order_odds(raw, with_nco(1), national.VENGEANCE_SHEDS)
    if banzai:
        raw = national.auto_pass(raw)
        notes.append(order_note(banzai))
    elif cd.get("banzai"):
        notes.append(_("Banzai Charge is not modelled for this edition: the test is rolled."))
    elif cd.get("up_and_at_em"):
        notes.append(
            _("Up and 'at 'em does not act here (an Inexperienced unit, or this edition): the test is rolled.")
        )
    if commissar and not banzai:
        notes.append(commissar_note(commissar))
    elif cd.get("commissar") and not commissar:
        notes.append(_("Not One Step Back! is not modelled for this edition: no re-roll."))
    if tiger:
        notes.append(tiger_note(tiger))
    elif cd.get("tiger_fear"):
        notes.append(_("Tiger Fear is not part of this edition: no extra pin."))
    if savoia:
        notes.append(avanti_note(savoia, avanti_mod))
    elif avanti:
        notes.append(_("Avanti Savoia! is not modelled for this edition: no morale change."))
    if initiative:
        notes.append(nco_note(initiative, edition))
    if vengeance:
        notes.append(_("Half the time (4–6) a pin is lost before the test: %(rule)s") % {"rule": rule_name(vengeance)})
    elif cd.get("vengeance"):
        notes.append(_("Vengeance does not act here (no pin, an Inexperienced unit, or this edition)."))
    if reserve and radio:
        notes.append(_("No −1 for coming on from reserve: %(rule)s") % {"rule": rule_name(radio)})
    elif reserve == "reserve_us":
        notes.append(_("Modern Communications is not modelled for this edition: the −1 stands."))
    return raw, notes


def tank_assault(cd: dict[str, Any]) -> tuple[TankAssaultResult, list[str]]:
    """The odds of the anti-tank page's infantry assault, with Improvised AT and the Banzai Charge when they
    act, and the notes saying so."""
    edition = cd["edition"]
    army = cd.get("army") or ""
    improvised = national.improvised_at_grenades(edition, army, bool(cd.get("at_weapons")))
    banzai = national.banzai(edition, army, bool(cd.get("banzai")))
    raw = tank_assault_odds(
        edition,
        men=cd["men"],
        pen=cd["pen"],
        damage_value=cd["damage_value"],
        vehicle=cd["vehicle"],
        vehicle_order=cd["vehicle_order"],
        at_weapons=bool(cd.get("at_weapons")),
        quality=cd["quality"],
        pins=cd["pins"],
        officer_bonus=cd["officer_bonus"],
        vehicle_quality=cd["target_quality"],
        vehicle_pins=cd["target_pins"],
        has_turret=not cd.get("no_turret"),
        slow=bool(cd.get("slow")),
        carries_flamer=bool(cd.get("carries_flamer")),
        reroll_failed_pen=improvised is not None,
        tank_fear_passed=banzai is not None,
    )
    notes: list[str] = []
    if raw.tank_fear_passed and banzai is not None:
        notes.append(_("Order test passed: %(rule)s") % {"rule": rule_name(banzai)})
    elif banzai is not None:
        notes.append(_("No Tank Fear test to pass here (anti-tank weapons, or not an enclosed vehicle)."))
    elif cd.get("banzai") and army != "imperial-japan":
        notes.append(_("Banzai Charge acts for Japanese infantry: choose Imperial Japan's national rules."))
    elif cd.get("banzai"):
        notes.append(_("Banzai Charge is not modelled for this edition: the test is rolled."))
    if improvised is not None:
        notes.append(
            _("Re-roll: %(rule)s (a failed penetration roll with AT grenades is rolled again)")
            % {"rule": rule_name(improvised)}
        )
    elif army == "italy" and not cd.get("at_weapons"):
        notes.append(_("Improvised AT acts with AT grenades: tick the anti-tank weapons box for the re-roll."))
    elif army == "italy":
        notes.append(_("Improvised AT is not modelled for this edition: no re-roll."))
    return raw, notes


def vehicle_assault(cd: dict[str, Any]) -> tuple[int, Fraction, national.Applied | None]:
    """The assault page's other way round: a vehicle assaults the infantry unit on the form. Its morale
    check (the morale, the chance to pass), passed by Death Before Dishonour for a Japanese unit."""
    rule = national.passes_vehicle_assault(cd["edition"], cd.get("army") or "", "infantry")
    morale, p = vehicle_assault_check(
        cd["edition"], quality=cd["quality"], pins=cd["pins"], officer_bonus=cd["officer_bonus"], auto_pass=bool(rule)
    )
    return morale, p, rule


def order_note(applied: national.Applied) -> str:
    return _("Passes without a roll: %(rule)s") % {"rule": rule_name(applied)}


def applied_notes(pairs: Iterable[tuple[str, Sequence[national.Applied]]]) -> list[str]:
    """One line per rule applied to a weapon: "+1 shot: Hitler's Buzzsaw (Medium machine gun)"."""
    notes = []
    for weapon_name, applied in pairs:
        for a in applied:
            if a.change == "shot":
                notes.append(_("+1 shot: %(rule)s (%(weapon)s)") % {"rule": rule_name(a), "weapon": weapon_name})
            elif a.change == "dice":
                notes.append(
                    _("One bonus die per three riflemen: %(rule)s (%(weapon)s)")
                    % {"rule": rule_name(a), "weapon": weapon_name}
                )
            elif a.change == "pen":
                notes.append(
                    _("Re-rolls a failed penetration roll: %(rule)s (%(weapon)s)")
                    % {"rule": rule_name(a), "weapon": weapon_name}
                )
            else:
                notes.append(
                    _("No −1 for moving: %(rule)s (%(weapon)s)") % {"rule": rule_name(a), "weapon": weapon_name}
                )
    return notes


def shooting_notes(prepared: national.PreparedShooting, weapon_names: Sequence[str]) -> list[str]:
    """The lines that say which national rules the shooting page applied, weapon by weapon, then the
    unit's and the target's."""
    notes = applied_notes(zip(weapon_names, prepared.per_group, strict=True))
    notes_for = {"pins": pins_note, "fanatic": fanatic_note, "stubborn": stubborn_note}
    for a in prepared.unit:
        notes.append(notes_for.get(a.change, morale_note)(a))
    return notes


def card_line[L: CardLine](army_list: ArmyList, weapon: WeaponRow, line: L) -> L:
    """A unit card's weapon line with the shots the army's rules give, and the rule named in its rules."""
    army = list_army(army_list)
    if not army:
        return line
    shots, applied = national.card_shots(army_list.edition.slug, army, weapon.slug, weapon.shots or "")
    if not applied:
        return line
    names = ", ".join(_("+1 shot: %(rule)s") % {"rule": rule_name(a)} for a in applied)
    return replace(line, shots=shots, rules=f"{names}, {line.rules}" if line.rules else names)


def card_rules(entry: Entry) -> list[str]:
    """The rules a unit's card names for its list's Italian bonus: "Fire and Manoeuvre (Combattere)"."""
    return [str(GAIN_NAMES[g.rule]) for g in entry_gained(entry)]


def card_entry_line[L: CardLine](entry: Entry, weapon: WeaponRow, line: L) -> L:
    """``card_line`` for one unit: also a rifle of a unit with the Italian bonus's Fire and Manoeuvre
    names the rule in its rules ("No −1 for Advancing: Fire and Manoeuvre (Combattere)")."""
    line = card_line(entry.army_list, weapon, line)
    if weapon.slug in unit_rules.RIFLES and "fire_and_manoeuvre" in entry_gains(entry):
        note = _("No −1 for Advancing: %(rule)s") % {"rule": GAIN_NAMES["fire_and_manoeuvre"]}
        line = replace(line, rules=f"{note}, {line.rules}" if line.rules else note)
    return line
