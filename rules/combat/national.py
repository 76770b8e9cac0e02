"""National (army special) rules as data, and the small pure functions that apply them to a shot group.

Each army's rules are rows of ``RULES``: the rule's slug (the catalogue's ``SpecialRule`` slug, so a
list's army names the rules it carries), its edition, what it changes (``effect``; "" when Muster only
shows it in words), and where the rule comes from with how sure we are. ``adjust_group`` is applied to a
shot group *before* the exact engine, so the engine stays exact: an extra shot is a different weapon
profile, ignoring the -1 for moving is a flag on the group. Nothing here imports Django.

Sources: [BR2] Barracks 2nd-edition data (fjlaubscher/barracks, armies.json) names each 2nd-edition
rule; the mechanics are the 2nd-edition army books' as summarised in fixtures/src/barracks_notes.py.
[WGG3] Warlord Games, "Armies of Germany: Third Edition army special rules" preview
(warlord-community.warlordgames.com/armies-of-germany-third-edition-army-special-rules): Hitler's
Buzz-Saw and Blitzkrieg "return fundamentally unchanged"; Tiger Fear is gone; Initiative Training now
ignores the morale penalty for a lost NCO. [CD3] chicagodice.org, "Bolt Action: Third Edition changes"
(compiled from previews and demo games, "subject to change"): US Fire & Manoeuvre gives one extra die
per three rifle/carbine shooters; Gyro-stabilisers as in 2nd edition; Air Superiority two air strikes;
Modern Communications no -1 from reserve. [FLG3] frontlinegaming.org, "Unbreakable Honour: how Imperial
Japan plays in Bolt Action Third Edition" (2025-11-19, a preview of the book's national rules): Death
Before Dishonour still makes infantry and artillery Fanatics; Banzai is now an officer's ability.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Literal

from rules.combat import unit_rules
from rules.combat.config import config_for
from rules.combat.dice import ONE, ZERO
from rules.combat.results import OrderTestOdds
from rules.combat.weapons import Weapon

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rules.combat.context import TargetCtx
    from rules.combat.groups import ShotGroupInput
    from rules.combat.volley import VolleyResult

Effect = Literal[
    "",
    "buzzsaw",
    "fire_and_manoeuvre",
    "gyro",
    "morale_reroll",
    "banzai",
    "d2_pins",
    "fanatic",
    "reroll_pen",
    "commissar",
    "tiger_fear",
    "avanti",
    "send_back",
    "blitzkrieg",
    "reserves",
    "nco",
    "extra_dice",
    "assault_pass",
    "air_strikes",
    "barrage_radius",
    "bombard",
    "cq_bonus",
    "shed_pin",
    "unit_bonus",
    "no_reaction",
    "defensive",
]
Confidence = Literal["book", "preview", "secondary"]

# Weapons-chart slugs each modelled rule reads (the same slugs in the 2nd- and 3rd-edition charts).
MACHINE_GUNS = frozenset({"lmg", "mmg"})  # Hitler's Buzzsaw: light and medium machine guns
US_RIFLES = frozenset({"rifle", "automatic-rifle"})  # Garands and carbines are rifles; the BAR an automatic rifle
_MG_SLUGS = frozenset({"lmg", "mmg", "hmg"})


@dataclass(frozen=True)
class NationalRule:
    slug: str
    edition: str  # "2e" or "3e"
    army: str  # the built-in army's slug ("germany", "us", ...)
    name: str
    effect: Effect  # "" when the rule is shown in words only
    source: str
    confidence: Confidence
    verified: bool = True


def _v2(slug: str, army: str, name: str, effect: Effect = "") -> NationalRule:
    return NationalRule(slug, "2e", army, name, effect, "BR2", "book")


RULES: tuple[NationalRule, ...] = (
    _v2("communication-breakdown", "france", "Communication Breakdown", "send_back"),
    _v2("forward-artillery-doctrine", "france", "Forward Artillery Doctrine"),
    _v2("hurriedly-conscripted-reserves", "france", "Hurriedly Conscripted Reserves"),
    _v2("blitzkrieg", "germany", "Blitzkrieg", "blitzkrieg"),
    _v2("initiative-training", "germany", "Initiative Training", "nco"),
    _v2("hitler-s-buzzsaw", "germany", "Hitler's Buzzsaw", "buzzsaw"),
    _v2("tiger-fear", "germany", "Tiger Fear", "tiger_fear"),
    _v2("artillery-support", "great-britain", "Artillery Support"),
    # Game day: two dice per enemy unit on the preparatory bombardment chart, the better kept.
    _v2("bombardment", "great-britain", "Bombardment", "bombard"),
    _v2("a-national-characteristic", "great-britain", "A National Characteristic"),
    # The characteristic a British list chose (``ArmyList.national_choice``): Rapid Fire changes shooting.
    _v2("rapid-fire", "great-britain", "Rapid Fire", "extra_dice"),
    _v2("up-and-at-em", "great-britain", "Up and 'at 'em", "assault_pass"),
    _v2("tough-as-boots", "great-britain", "Tough as Boots", "cq_bonus"),
    _v2("vengeance", "great-britain", "Vengeance", "shed_pin"),
    _v2("blood-curdling-charge", "great-britain", "Blood Curdling Charge", "no_reaction"),
    _v2("death-before-dishonour", "imperial-japan", "Death Before Dishonour", "fanatic"),
    _v2("banzai-charge", "imperial-japan", "Banzai Charge", "banzai"),
    _v2("avanti-savoia", "italy", "Avanti Savoia!", "avanti"),
    # Game day: the "who defends?" re-roll, D3 emplacements, no enemy Run orders on turn 1 as defender.
    _v2("defensive-strategy", "italy", "Defensive Strategy", "defensive"),
    _v2("improvised-at", "italy", "Improvised AT", "reroll_pen"),
    _v2("large-squads", "italy", "Large Squads", "d2_pins"),
    # The bonus the list chose gives some units a rule (``rules.combat.unit_rules``).
    _v2("cedere-obbedire-combattere", "italy", "Cedere, Obbedire, Combattere", "unit_bonus"),
    _v2("the-great-patriotic-war", "soviet-union", "The Great Patriotic War", "morale_reroll"),
    _v2("massed-batteries", "soviet-union", "Massed Batteries", "barrage_radius"),
    _v2("not-one-step-back", "soviet-union", "Not One Step Back!", "commissar"),
    _v2("quantity-has-a-quality-all-of-it-s-own", "soviet-union", "Quantity Has a Quality All of Its Own"),
    _v2("air-superiority", "us", "Air Superiority", "air_strikes"),
    _v2("fire-and-manoeuvre", "us", "Fire and Manoeuvre", "fire_and_manoeuvre"),
    _v2("gyro-stabilisers", "us", "Gyro-Stabilisers", "gyro"),
    _v2("modern-communications", "us", "Modern Communications", "reserves"),
    # 3rd edition: only what a public source states; see the module docstring and docs/national-rules.md.
    NationalRule("hitler-s-buzzsaw", "3e", "germany", "Hitler's Buzzsaw", "buzzsaw", "WGG3", "preview"),
    NationalRule("blitzkrieg", "3e", "germany", "Blitzkrieg", "blitzkrieg", "WGG3", "preview"),
    NationalRule("initiative-training", "3e", "germany", "Initiative Training", "nco", "WGG3", "preview"),
    NationalRule("gyro-stabilisers", "3e", "us", "Gyro-Stabilisers", "gyro", "CD3", "secondary", verified=False),
    # One extra die per three rifle/carbine shooters, from a compiled list "subject to change": modelled,
    # marked unverified.
    NationalRule(
        "fire-and-manoeuvre", "3e", "us", "Fire and Manoeuvre", "extra_dice", "CD3", "secondary", verified=False
    ),
    # Two air strikes a game [CD3]; the air strike chart is S000's, a 3rd-edition sheet.
    NationalRule("air-superiority", "3e", "us", "Air Superiority", "air_strikes", "CD3", "secondary", verified=False),
    # CD3 gives it the 2nd-edition effect: no -1 for an order test to come on from reserve.
    NationalRule(
        "modern-communications", "3e", "us", "Modern Communications", "reserves", "CD3", "secondary", verified=False
    ),
    # FLG3: every Japanese infantry and artillery unit is still Fanatic; the Banzai Charge became an
    # officer's ability that sends the units within 6" into an assault (not the 2nd-edition order rule).
    NationalRule(
        "death-before-dishonour",
        "3e",
        "imperial-japan",
        "Death Before Dishonour",
        "fanatic",
        "FLG3",
        "secondary",
        verified=False,
    ),
    NationalRule("banzai-charge", "3e", "imperial-japan", "Banzai Charge", "", "FLG3", "secondary", verified=False),
    # CD3 names it among the 3rd-edition Soviet rules; the text read stops before its effect.
    NationalRule(
        "the-great-patriotic-war",
        "3e",
        "soviet-union",
        "The Great Patriotic War",
        "",
        "CD3",
        "secondary",
        verified=False,
    ),
)


# Rules that make the player choose one of several traits for the whole army, kept with the list
# (``ArmyList.national_choice``): the rule's slug -> (choice slug, English name) in book order [BR2].
CHOICES: dict[str, tuple[tuple[str, str], ...]] = {
    "a-national-characteristic": (
        ("up-and-at-em", "Up and 'at 'em"),
        ("blood-curdling-charge", "Blood Curdling Charge"),
        ("tough-as-boots", "Tough as Boots"),
        ("rapid-fire", "Rapid Fire"),
        ("vengeance", "Vengeance"),
    ),
    "cedere-obbedire-combattere": (
        ("cedere", "Cedere"),
        ("obbedire", "Obbedire"),
        ("combattere", "Combattere"),
    ),
}


def choosable(slugs: frozenset[str] | set[str] | tuple[str, ...]) -> tuple[str, tuple[tuple[str, str], ...]] | None:
    """The rule among ``slugs`` (an army's national rules) that asks for a choice, with its choices."""
    keys = _keys(slugs)
    return next(((slug, options) for slug, options in CHOICES.items() if rule_key(slug) in keys), None)


def check_choice(slugs: frozenset[str] | set[str] | tuple[str, ...], choice: str) -> bool:
    """Whether ``choice`` ("" for none) is one the army's rules offer."""
    if not choice:
        return True
    found = choosable(slugs)
    return found is not None and choice in {value for value, _name in found[1]}


# National rules that grant a free unit (the catalogue's ``Option.free_unit``), with the unit types each
# covers (None: any) [BR2]: the builder names the rule that makes the unit free.
FREE_UNIT_RULES: tuple[tuple[str, frozenset[str] | None], ...] = (
    ("forward-artillery-doctrine", frozenset({"artillery"})),
    ("hurriedly-conscripted-reserves", frozenset({"infantry"})),
    ("artillery-support", None),
    ("quantity-has-a-quality-all-of-it-s-own", frozenset({"infantry"})),
)


def free_unit_rule(slugs: frozenset[str] | set[str] | tuple[str, ...], unit_type: str) -> str | None:
    """The slug of the army's national rule that makes a unit of ``unit_type`` free, or None."""
    keys = _keys(slugs)
    for slug, types in FREE_UNIT_RULES:
        if rule_key(slug) in keys and (types is None or unit_type in types):
            return slug
    return None


# Imported armies name their rules in their source's words ("Hitler's Buzz-Saw", "Fire & Maneuver",
# "Gyro-Stabilizers"): a rule is recognised by its key, the slug's letters and digits without "and" or
# "the", in British spelling, so each names the same rule as Barracks' slug.
_SPELLING = (("maneuver", "manoeuvre"), ("stabiliz", "stabilis"))
_ALIASES = {"gyokusai": "deathbeforedishonour"}  # the 3rd-edition book's other name for the rule


def rule_key(slug: str) -> str:
    """The key two spellings of one rule's slug or name share ("hitlers-buzz-saw" ~ "hitler-s-buzzsaw")."""
    tokens = [t for t in re.split(r"[^a-z0-9]+", slug.lower()) if t and t not in ("and", "the")]
    key = "".join(tokens)
    for before, after in _SPELLING:
        key = key.replace(before, after)
    return _ALIASES.get(key, key)


def _keys(slugs: frozenset[str] | set[str] | tuple[str, ...]) -> set[str]:
    return {rule_key(slug) for slug in slugs}


def _edition(edition: str) -> str:
    return config_for(edition).edition  # "v2" -> "2e"; RulesError for an unknown edition


def rules_of(edition: str, army: str) -> tuple[NationalRule, ...]:
    """The army's national rules in ``edition`` (modelled or not), in book order."""
    ed = _edition(edition)
    return tuple(r for r in RULES if r.edition == ed and r.army == army)


SHOOTING = frozenset(
    {"buzzsaw", "fire_and_manoeuvre", "gyro", "d2_pins", "reroll_pen", "extra_dice"}
)  # effects on the firer's shots


def modelled_armies(edition: str | None = None, effects: frozenset[str] = SHOOTING) -> tuple[str, ...]:
    """Armies with at least one rule of ``effects`` (in ``edition``, or in any edition)."""
    ed = _edition(edition) if edition else None
    seen: dict[str, None] = {}
    for r in RULES:
        if r.effect in effects and (ed is None or r.edition == ed):
            seen.setdefault(r.army)
    return tuple(seen)


def army_for_rules(edition: str, slugs: frozenset[str] | set[str], effects: frozenset[str] | None = None) -> str:
    """The army whose modelled rules a list's army carries (by rule slug), or "" if none; with ``effects``,
    only rules of those effects count (a British list that chose Tough as Boots carries no shooting rule,
    so it must not bring Rapid Fire to the shooting page)."""
    ed = _edition(edition)
    keys = _keys(slugs)
    for r in RULES:
        if r.effect and (effects is None or r.effect in effects) and r.edition == ed and rule_key(r.slug) in keys:
            return r.army
    return ""


def extra_shot(shots: str) -> str:
    """A shots expression with one more shot: "4" -> "5", "D6" -> "D6+1", "D6+1" -> "D6+2"."""
    if "D" not in shots:
        return str(int(shots) + 1)
    base, _, plus = shots.partition("+")
    return f"{base}+{int(plus or 0) + 1}"


@dataclass(frozen=True)
class Applied:
    """One rule applied to one group: what it changed ("shot" or "moving") and the rule's slug and name."""

    change: Literal["shot", "moving", "morale", "order", "pins", "fanatic", "stubborn", "pen", "dice", "reaction"]
    slug: str
    name: str


@dataclass(frozen=True)
class Adjusted:
    weapon: Weapon
    steady_on_move: bool
    applied: tuple[Applied, ...]
    reroll_failed_pen: bool = False


def adjust_group(
    edition: str,
    army: str,
    weapon: Weapon,
    *,
    quality: str = "regular",
    order: str = "fire",
    gyro: bool = False,
    at_vehicle: bool = False,
) -> Adjusted:
    """``weapon`` as the army's national rules make it fire, whether it ignores the -1 for moving and
    whether it re-rolls a failed penetration roll (``at_vehicle``: the target is an armoured vehicle).

    - Hitler's Buzzsaw: a light or medium machine gun, carried or on a vehicle, fires one more shot.
    - Fire and Manoeuvre (2nd edition): rifles, carbines and BARs fire on an Advance without the -1.
    - Gyro-stabilisers: a Veteran crew's gyro-stabilised gun (``gyro``: the vehicle carries the rule)
      fires on the move without the -1. Machine guns (the co-axial one) never count: Muster applies it
      to the vehicle's gun, the weapon with Pen or HE.
    - Improvised AT (2nd edition): a weapon with a Pen below +3 (+1 or +2) re-rolls a failed penetration
      roll at an armoured vehicle. Anti-tank grenades are the rule's other half: they act when infantry
      assault a vehicle (``improvised_at_grenades``).
    The moving rules are only listed as applied on an Advance, where they change the roll.
    """
    out = weapon
    steady = reroll = False
    applied: list[Applied] = []
    for r in rules_of(edition, army):
        if r.effect == "buzzsaw" and weapon.slug in MACHINE_GUNS:
            out = replace(out, shots=extra_shot(out.shots))
            applied.append(Applied("shot", r.slug, r.name))
        elif r.effect == "reroll_pen" and at_vehicle and 0 < weapon.pen < IMPROVISED_AT_PEN:
            reroll = True
            applied.append(Applied("pen", r.slug, r.name))
        elif order == "advance" and _steadies(r.effect, weapon, quality, gyro):
            steady = True
            applied.append(Applied("moving", r.slug, r.name))
    return Adjusted(out, steady, tuple(applied), reroll)


IMPROVISED_AT_PEN = 3  # Improvised AT: weapons with a Pen below +3


def improvised_at_grenades(edition: str, army: str, at_grenades: bool) -> Applied | None:
    """Improvised AT's other half (2nd edition): Italian infantry assaulting a vehicle with anti-tank
    grenades re-roll a failed penetration roll, the same re-roll as a weapon's with a Pen below +3
    (``rules.combat.tank_assault``, ``reroll_failed_pen``)."""
    r = _rule(edition, army, "reroll_pen")
    return Applied("pen", r.slug, r.name) if r is not None and at_grenades else None


def _steadies(effect: Effect, weapon: Weapon, quality: str, gyro: bool) -> bool:
    """Whether a moving-penalty rule covers this weapon (see ``adjust_group``)."""
    if effect == "fire_and_manoeuvre":
        return weapon.slug in US_RIFLES
    if effect == "gyro":
        is_gun = (weapon.pen > 0 or weapon.he_size is not None) and not weapon.flamethrower
        return gyro and quality == "veteran" and is_gun and weapon.slug not in _MG_SLUGS
    return False


def card_shots(edition: str, army: str, weapon_slug: str, shots: str) -> tuple[str, tuple[Applied, ...]]:
    """A unit card's shots figure under the army's rules (only Hitler's Buzzsaw changes a printed figure)."""
    applied: list[Applied] = []
    for r in rules_of(edition, army):
        if r.effect == "buzzsaw" and weapon_slug in MACHINE_GUNS and re.fullmatch(r"\d+|\d*D\d(\+\d+)?", shots):
            shots = extra_shot(shots)
            applied.append(Applied("shot", r.slug, r.name))
    return shots, tuple(applied)


def _rule(edition: str, army: str, effect: Effect) -> NationalRule | None:
    return next((r for r in rules_of(edition, army) if r.effect == effect), None)


def rerolls_failed_morale(edition: str, army: str, kind: str) -> Applied | None:
    """The Great Patriotic War: Soviet infantry and artillery re-take a failed morale check that would
    destroy them; the engine takes the check twice (``TargetCtx.reroll_failed_morale``)."""
    r = _rule(edition, army, "morale_reroll")
    if r is None or kind not in ("infantry", "artillery"):
        return None
    return Applied("morale", r.slug, r.name)


TARGET_MORALE = frozenset({"morale_reroll", "fanatic"})  # effects on the target's morale


def fanatic_target(edition: str, army: str, kind: str) -> Applied | None:
    """Death Before Dishonour: every Japanese unit is Fanatic; for infantry and artillery shot at, pins
    neither rout it nor count on its morale checks while two or more men are left
    (``TargetCtx.fanatic``). Its tank-assault part is ``passes_vehicle_assault``."""
    r = _rule(edition, army, "fanatic")
    if r is None or kind not in ("infantry", "artillery"):
        return None
    return Applied("fanatic", r.slug, r.name)


def passes_vehicle_assault(edition: str, army: str, kind: str) -> Applied | None:
    """Death Before Dishonour (2nd edition): Japanese infantry and artillery pass, without a roll, the morale
    check for being assaulted by enemy tanks [BR2] (``tank_assault.vehicle_assault_check``). The
    3rd-edition preview [FLG3] says nothing of tanks, so it does not act there."""
    r = _rule(edition, army, "fanatic")
    if r is None or r.edition != "2e" or kind not in ("infantry", "artillery"):
        return None
    return Applied("morale", r.slug, r.name)


def banzai(edition: str, army: str, charging: bool) -> Applied | None:
    """Banzai Charge: Japanese infantry ordered to Run at, or assault, the closest visible enemy passes
    its order test without rolling (so no FUBAR either)."""
    r = _rule(edition, army, "banzai")
    return Applied("order", r.slug, r.name) if r is not None and charging else None


def up_and_at_em(edition: str, army: str, assaulting: bool, quality: str) -> Applied | None:
    """Up and 'at 'em (a British list's chosen characteristic): an order to assault is passed without a
    roll, except by Inexperienced units."""
    r = _rule(edition, army, "assault_pass")
    if r is None or not assaulting or quality == "inexperienced":
        return None
    return Applied("order", r.slug, r.name)


CQ_BONUS_QUALITIES = frozenset({"regular", "veteran"})  # Tough as Boots: not for Inexperienced infantry [BR2]


def tough_as_boots(edition: str, chosen: bool, quality: str) -> Applied | None:
    """Tough as Boots (a British list's chosen characteristic): Regular and Veteran infantry roll one more
    close-quarters attack die for every three men fighting."""
    r = rule_in(edition, {"tough-as-boots"}, "cq_bonus")
    if r is None or not chosen or quality not in CQ_BONUS_QUALITIES:
        return None
    return Applied("dice", r.slug, r.name)


def blood_curdling_charge(edition: str, chosen: bool, quality: str) -> Applied | None:
    """Blood Curdling Charge (a British list's chosen characteristic): the enemy cannot react to the
    assault by shooting at the assaulting unit, unless the attackers are Inexperienced [BR2]."""
    r = rule_in(edition, {"blood-curdling-charge"}, "no_reaction")
    if r is None or not chosen or quality == "inexperienced":
        return None
    return Applied("reaction", r.slug, r.name)


VENGEANCE_SHEDS = Fraction(1, 2)  # Vengeance: a die, 4-6 loses one pin [BR2]


def vengeance(edition: str, chosen: bool, quality: str, pins: int) -> Applied | None:
    """Vengeance (a British list's chosen characteristic): a Regular or Veteran unit with a pin and an enemy
    within 12" rolls a die before its order: 4-6 loses a pin. The order test follows either way (with no
    pin penalty if that was its last pin), so the test is a half-and-half mixture of pins and pins - 1."""
    r = rule_in(edition, {"vengeance"}, "shed_pin")
    if r is None or not chosen or pins < 1 or quality not in CQ_BONUS_QUALITIES:
        return None
    return Applied("order", r.slug, r.name)


def auto_pass(odds: OrderTestOdds) -> OrderTestOdds:
    """An order test the rules pass without a roll: certain to pass, no FUBAR, no double one, and no man
    removed to re-take it (Not One Step Back! never comes into play)."""
    return replace(
        odds,
        p_man_removed=None if odds.p_man_removed is None else ZERO,
        p_pass=ONE,
        p_fail=ZERO,
        p_fubar=ZERO,
        p_fail_not_fubar=ZERO,
        p_fubar_friendly_fire=ZERO,
        p_fubar_panic=ZERO,
        p_double_one=None,
        unverified=(),
        unverified_detail=(),  # no roll, so no unverified switch can change it
    )


def rule_in(edition: str, slugs: frozenset[str] | set[str] | tuple[str, ...], effect: Effect) -> NationalRule | None:
    """The modelled rule with ``effect`` among the rule slugs a side or list carries, in ``edition``."""
    ed = _edition(edition)
    keys = _keys(slugs)
    return next((r for r in RULES if r.edition == ed and r.effect == effect and rule_key(r.slug) in keys), None)


COMMISSAR_MIN_MEN = 3  # Not One Step Back! is not for units of one or two men


def not_one_step_back(edition: str, army: str, near_commissar: bool, men: int | None = None) -> Applied | None:
    """Not One Step Back!: a Soviet unit that fails an order test within 6" of a commissar may lose a man
    to take the test again (not a unit of one or two men; ``men`` None: its size is not known)."""
    r = _rule(edition, army, "commissar")
    if r is None or not near_commissar or (men is not None and men < COMMISSAR_MIN_MEN):
        return None
    return Applied("order", r.slug, r.name)


def tiger_fear(edition: str, army: str, near_tiger: bool) -> Applied | None:
    """Tiger Fear (2nd edition): a unit within 18" of the ``army``'s Tiger that sees it, and is not
    ordered to fire at it, takes its order test as if it had one more pin (so an unpinned unit tests)."""
    r = _rule(edition, army, "tiger_fear")
    return Applied("order", r.slug, r.name) if r is not None and near_tiger else None


AVANTI_GAP = 3  # units lost, one side more than the other
AVANTI_MORALE = 2


def avanti_savoia(edition: str, army: str, lost: int, enemy_lost: int) -> tuple[int, Applied | None]:
    """Avanti Savoia! (2nd edition): the Italian morale modifier when one side has lost 3 or more units
    more than the other: -2 when the Italians are behind, +2 when they are ahead, else 0."""
    r = _rule(edition, army, "avanti")
    if r is None or abs(lost - enemy_lost) < AVANTI_GAP:
        return 0, None
    return (-AVANTI_MORALE if lost > enemy_lost else AVANTI_MORALE), Applied("order", r.slug, r.name)


RESERVE = -1  # an order test to come on from reserve (rules-notes §12: 2nd [BS2], 3rd [CD3])


def from_reserve(edition: str, army: str) -> tuple[int, Applied | None]:
    """The modifier to an order test to come on from reserve: -1, or none with Modern Communications
    (2nd edition: US units test on their basic morale)."""
    r = _rule(edition, army, "reserves")
    return (0, Applied("order", r.slug, r.name)) if r is not None else (RESERVE, None)


NCO_LOST = -1  # morale for an infantry unit that has lost its NCO (rules-notes §12: 2nd [R], 3rd [S000])
NCO_TAKES_OVER = Fraction(5, 6)  # Initiative Training, 2nd edition: another man takes over on a 2+


def nco_lost(edition: str, army: str, quality: str = "regular") -> tuple[Fraction, Applied | None]:
    """The chance the -1 for a lost NCO applies: 1, or with Initiative Training 1/6 in 2nd edition
    (another man takes over on 2+) and 0 in 3rd, for a Regular or Veteran squad (the penalty is ignored)."""
    r = _rule(edition, army, "nco")
    if r is None or (r.edition == "3e" and quality == "inexperienced"):
        return ONE, None
    return (ONE - NCO_TAKES_OVER if r.edition == "2e" else ZERO), Applied("order", r.slug, r.name)


def mix_order_odds(odds: OrderTestOdds, other: OrderTestOdds, p_other: Fraction) -> OrderTestOdds:
    """``odds`` with chance 1 - ``p_other``, ``other`` with chance ``p_other``: exact, field by field
    (the chance a man is removed too, so each side must already carry its own re-take: the re-take is
    rolled in the same case as the first test). The morale shown stays ``odds``'s (the likelier one when
    ``p_other`` is small)."""
    if p_other == 0:
        return odds
    if p_other == 1:
        return other
    q = ONE - p_other

    def mix(a: Fraction | None, b: Fraction | None) -> Fraction | None:
        return None if a is None or b is None else q * a + p_other * b

    return replace(
        odds,
        test_needed=odds.test_needed or other.test_needed,
        p_pass=q * odds.p_pass + p_other * other.p_pass,
        p_fail=q * odds.p_fail + p_other * other.p_fail,
        p_fubar=q * odds.p_fubar + p_other * other.p_fubar,
        p_fail_not_fubar=q * odds.p_fail_not_fubar + p_other * other.p_fail_not_fubar,
        p_fubar_friendly_fire=q * odds.p_fubar_friendly_fire + p_other * other.p_fubar_friendly_fire,
        p_fubar_panic=q * odds.p_fubar_panic + p_other * other.p_fubar_panic,
        p_double_one=mix(odds.p_double_one, other.p_double_one),
        p_man_removed=mix(odds.p_man_removed, other.p_man_removed),
    )


def commissar_reroll(odds: OrderTestOdds) -> OrderTestOdds:
    """An order test taken again once if it fails (a FUBAR is a failure too), a man lost for it: the
    second test has the same odds, so every failing outcome is the first failure times the second's
    own chance, and the man is lost with the first failure (``p_man_removed``). Exact."""
    f = odds.p_fail
    return replace(
        odds,
        p_pass=odds.p_pass + f * odds.p_pass,
        p_fail=f * f,
        p_fubar=f * odds.p_fubar,
        p_fail_not_fubar=f * odds.p_fail_not_fubar,
        p_fubar_friendly_fire=f * odds.p_fubar_friendly_fire,
        p_fubar_panic=f * odds.p_fubar_panic,
        p_double_one=None if odds.p_double_one is None else odds.p_double_one * (1 + f),
        p_man_removed=f,
    )


RIFLES_PER_DIE = 3  # one bonus die for every three men shooting rifles


def bonus_dice(edition: str, army: str, groups: Sequence[ShotGroupInput], quality: str) -> tuple[int, Applied | None]:
    """Rapid Fire (a British list's chosen characteristic, 2nd edition: Regular and Veteran infantry)
    and Fire and Manoeuvre (US, 3rd edition): one bonus die for every three men shooting rifles (the
    chart's ``rifle``: carbines too). The dice are rifle shots; Muster adds them to the first rifle group."""
    r = _rule(edition, army, "extra_dice")
    if r is None or (r.edition == "2e" and quality == "inexperienced"):
        return 0, None
    rifles = sum(g.models for g in groups if g.weapon.slug == "rifle")
    dice = rifles // RIFLES_PER_DIE
    return (dice, Applied("dice", r.slug, r.name)) if dice else (0, None)


LARGE_SQUAD = 14  # men firing, at least


def large_squad(edition: str, army: str, models: int) -> Applied | None:
    """Large Squads: an Italian infantry unit of 14 or more men pins D2 with its small-arms fire."""
    r = _rule(edition, army, "d2_pins")
    return Applied("pins", r.slug, r.name) if r is not None and models >= LARGE_SQUAD else None


def d2_pins(volley: VolleyResult) -> VolleyResult:
    """``volley`` (small-arms fire: one pin when anything hits) with D2 pins instead: each outcome that
    pinned once pins once or twice, evenly. Exact: the pins are a distribution, not a roll."""
    half = Fraction(1, 2)
    pins: dict[int, Fraction] = {}
    for n, p in volley.pins_pmf.items():
        for k, q in ((n, half), (n + 1, half)) if n == 1 else ((n, ONE),):
            pins[k] = pins.get(k, ZERO) + p * q
    outcome: dict[tuple[int, int, bool], Fraction] = {}
    for (c, n, forced), p in volley.outcome.items():
        for k, q in ((n, half), (n + 1, half)) if n == 1 else ((n, ONE),):
            outcome[(c, k, forced)] = outcome.get((c, k, forced), ZERO) + p * q
    return replace(volley, pins_pmf=pins, outcome=outcome)


# What each rule the Italian bonus gives changes (``Applied.change``).
_GAIN_CHANGES: dict[str, Literal["fanatic", "stubborn", "moving"]] = {
    "fanatics": "fanatic",
    "stubborn": "stubborn",
    "fire_and_manoeuvre": "moving",
}


def unit_bonus(edition: str, gain: str) -> Applied | None:
    """The rule ``gain`` ("fanatics", "stubborn", "fire_and_manoeuvre") an Italian unit gains from its
    army's chosen bonus (``rules.combat.unit_rules``), as applied: named with the bonus ("Fanatics
    (Cedere)"), its slug the bonus's. None where the bonus is not modelled (another edition)."""
    change = _GAIN_CHANGES.get(gain)
    if change is None or not unit_rules.offered(edition, unit_rules.ARMY):
        return None
    return Applied(change, unit_rules.CHOICE_OF[gain], unit_rules.gain_name(gain))


@dataclass(frozen=True)
class PreparedShooting:
    """A shooting scenario with the national rules applied: what to hand ``rules.combat.api.shooting``
    (``groups``, ``target``, ``d2_pins``) and what was applied (per group, and to the unit or target)."""

    groups: tuple[ShotGroupInput, ...]
    target: TargetCtx
    d2_pins: bool
    per_group: tuple[tuple[Applied, ...], ...]
    unit: tuple[Applied, ...]


def prepare_shooting(
    edition: str,
    army: str,
    target_army: str,
    groups: Sequence[ShotGroupInput],
    target: TargetCtx,
    *,
    quality: str,
    order: str,
    gyro: bool = False,
    fire_and_manoeuvre: bool = False,
    target_gain: str = "",
) -> PreparedShooting:
    """Every national rule of the firer's ``army`` and the target's ``target_army`` that acts on one
    unit's shooting, applied to the engine's inputs: the groups' weapons, moving penalty and pen re-roll, the unit's
    pins (Large Squads) and the target's morale re-roll (the Great Patriotic War).

    The Italian bonus acts per unit: ``fire_and_manoeuvre`` (a Bersaglieri unit of a Combattere list:
    its rifles fire on an Advance without the -1) and ``target_gain`` ("fanatics": Cedere, "stubborn":
    Obbedire) come from the unit, not the army (``rules.combat.unit_rules.gained``)."""
    at_vehicle = target.kind == "armoured"
    adjusted = [
        adjust_group(edition, army, g.weapon, quality=quality, order=order, gyro=gyro, at_vehicle=at_vehicle)
        for g in groups
    ]
    bonus = unit_bonus(edition, "fire_and_manoeuvre") if fire_and_manoeuvre and order == "advance" else None
    if bonus is not None:
        adjusted = [
            replace(a, steady_on_move=True, applied=(*a.applied, bonus))
            if g.weapon.slug in unit_rules.RIFLES and not a.steady_on_move
            else a
            for g, a in zip(groups, adjusted, strict=True)
        ]
    gained = unit_bonus(edition, target_gain) if target.kind in ("infantry", "artillery") else None
    large = large_squad(edition, army, sum(g.models for g in groups))
    extra, rifles = bonus_dice(edition, army, groups, quality)
    first_rifle = next((i for i, g in enumerate(groups) if g.weapon.slug == "rifle"), None) if extra else None
    gpw = rerolls_failed_morale(edition, target_army, target.kind)
    fanatic = fanatic_target(edition, target_army, target.kind)
    return PreparedShooting(
        groups=tuple(
            replace(
                g,
                weapon=a.weapon,
                steady_on_move=a.steady_on_move,
                reroll_failed_pen=a.reroll_failed_pen,
                extra_dice=extra if i == first_rifle else 0,
            )
            for i, (g, a) in enumerate(zip(groups, adjusted, strict=True))
        ),
        target=replace(
            target,
            reroll_failed_morale=gpw is not None,
            fanatic=fanatic is not None or (gained is not None and gained.change == "fanatic"),
            stubborn=target.stubborn or (gained is not None and gained.change == "stubborn"),
        ),
        d2_pins=large is not None,
        per_group=tuple(
            (*a.applied, *((rifles,) if i == first_rifle and rifles else ())) for i, a in enumerate(adjusted)
        ),
        unit=tuple(a for a in (large, gpw, fanatic, gained) if a is not None),
    )
