"""Italy's "Cedere, Obbedire, Combattere": which units gain which rule, and exact vectors by hand."""

from __future__ import annotations

import json
from fractions import Fraction as F
from math import comb
from pathlib import Path

import pytest

from rules.combat import national
from rules.combat.api import ShotGroupInput, TargetInput, shooting
from rules.combat.unit_rules import UnitFacts, gained, gains, is_alpini, is_bersaglieri, is_blackshirt, unit_kind

from .builders import LMG, RIFLE

CATALOGUE = Path(__file__).resolve().parents[3] / "fixtures" / "55_catalogue_v2_barracks.json"


def _binomial(n: int, p: F) -> dict[int, F]:
    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def _italian_units() -> list[dict]:
    rows = json.loads(CATALOGUE.read_text(encoding="utf-8"))
    return [r["fields"] for r in rows if r["model"] == "catalogue.unit" and r["fields"]["army"][1] == "italy"]


def _facts(unit: dict, quality: str, given_name: str = "") -> UnitFacts:
    return UnitFacts(
        names=(unit["name"], unit["name_fr"]),
        kind=unit_kind(unit["unit_type"], unit["slot"]),
        quality=quality,
        given_name=given_name,
    )


def _gainers(choice: str, quality: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for unit in _italian_units():
        for g in gained("v2", "italy", choice, _facts(unit, quality)):
            out.setdefault(g.rule, set()).add(unit["slug"])
    return out


HQ = {
    "second-lieutenant",
    "first-lieutenant",
    "captain",
    "major",
    "artillery-forward-observer",
    "air-force-forward-observer",
    "medic",
    "chaplain",
}


def test_the_2nd_edition_catalogue_units_that_gain_each_rule():
    # Cedere: the Blackshirt squad at any quality, and every Regular HQ unit (not the ambulance, a vehicle).
    assert _gainers("cedere", "regular") == {"fanatics": {"blackshirt-m-battalion-squad", *HQ}}
    assert _gainers("cedere", "veteran") == {"fanatics": {"blackshirt-m-battalion-squad"}}
    # Combattere: the Bersaglieri section; the catalogue's HQ units are not named as Bersaglieri.
    assert _gainers("combattere", "veteran") == {"fire_and_manoeuvre": {"bersaglieri-infantry-section"}}
    assert _gainers("combattere", "inexperienced") == {"fire_and_manoeuvre": {"bersaglieri-infantry-section"}}
    # Obbedire: Barracks holds no Alpini unit, so nothing gains it without a name that says so.
    assert _gainers("obbedire", "veteran") == {}


def test_a_veteran_hq_unit_is_what_the_player_names_it():
    captain = next(u for u in _italian_units() if u["slug"] == "captain")
    bersaglieri = gained("v2", "italy", "combattere", _facts(captain, "veteran", "Capitano dei Bersaglieri"))
    assert [(g.rule, g.because, g.name) for g in bersaglieri] == [
        ("fire_and_manoeuvre", "veteran_hq", "Fire and Manoeuvre (Combattere)")
    ]
    alpini = gained("v2", "italy", "obbedire", _facts(captain, "veteran", "ALPINI captain"))
    assert [(g.rule, g.modelled) for g in alpini] == [("stubborn", True), ("mountaineers", False)]
    assert gains("v2", "italy", "obbedire", _facts(captain, "veteran", "Alpini captain")) == {"stubborn"}
    # A Regular one is not a Veteran HQ unit; the wrong bonus gives nothing.
    assert gained("v2", "italy", "combattere", _facts(captain, "regular", "Bersaglieri captain")) == ()
    assert gained("v2", "italy", "cedere", _facts(captain, "veteran", "Bersaglieri captain")) == ()


def test_a_squad_is_its_unit_not_the_name_it_was_given():
    regular = next(u for u in _italian_units() if u["slug"] == "regular-infantry-section")
    assert gained("v2", "italy", "obbedire", _facts(regular, "regular", "Alpini")) == ()
    # The player's own unit is named by the player: an "Alpini squad" is one.
    own = UnitFacts(names=("Alpini squad",), kind=unit_kind("infantry", "infantry"), quality="regular")
    assert [g.rule for g in gained("v2", "italy", "obbedire", own)] == ["stubborn"]
    team = UnitFacts(names=("Bersaglieri MMG team",), kind=unit_kind("team", "machine_gun"), quality="veteran")
    assert gained("v2", "italy", "combattere", team) == ()


def test_only_italy_in_2nd_edition_with_a_choice():
    own = UnitFacts(names=("Bersaglieri squad",), kind="squad", quality="regular")
    assert gained("v2", "italy", "combattere", own)
    assert gained("v3", "italy", "combattere", own) == ()
    assert gained("v2", "germany", "combattere", own) == ()
    assert gained("v2", "italy", "", own) == ()
    assert gained("v2", "italy", "rapid-fire", own) == ()


@pytest.mark.parametrize(
    ("test", "name"),
    [
        (is_blackshirt, "Blackshirt 'M' Battalion Squad"),
        (is_blackshirt, "Black Shirts"),
        (is_blackshirt, "Camicie Nere"),
        (is_blackshirt, "Battaglione “M”"),
        (is_blackshirt, "“M” battalion squad"),
        (is_blackshirt, "Escouade de Chemises noires (bataillon « M »)"),
        (is_alpini, "Alpini squad"),
        (is_alpini, "Squadra alpina"),
        (is_alpini, "Tenente degli Alpini"),
        (is_alpini, "Chasseurs alpins"),
        (is_bersaglieri, "Bersaglieri Infantry Section"),
        (is_bersaglieri, "bersagliere officer"),
        (is_bersaglieri, "Section d'infanterie Bersaglieri"),
    ],
)
def test_names_match_in_english_italian_and_french(test, name):
    assert test(name)


@pytest.mark.parametrize(
    "name", ["Regular Infantry Section", "Medium battalion", "Fucilieri Squad", "Mountain troops", "Alpinist"]
)
def test_other_names_do_not(name):
    assert not (is_blackshirt(name) or is_alpini(name) or is_bersaglieri(name))


# --- exact vectors ------------------------------------------------------------------------------

TEN_IN_THE_OPEN = TargetInput(kind="infantry", quality="regular", models=10)


def _shoot(groups, target=TEN_IN_THE_OPEN, *, order="advance", fm=False, target_gain=""):
    prepared = national.prepare_shooting(
        "v2",
        "italy",
        "",
        groups,
        target,
        quality="regular",
        order=order,
        fire_and_manoeuvre=fm,
        target_gain=target_gain,
    )
    res = shooting(
        "v2",
        order=order,
        firer_quality="regular",
        firer_pins=0,
        groups=prepared.groups,
        target=prepared.target,
        d2_pins=prepared.d2_pins,
    )
    return prepared, res


def test_combattere_bersaglieri_rifles_advance_without_the_minus_one():
    rifles = [ShotGroupInput(RIFLE, 5, "normal")]
    prepared, res = _shoot(rifles, fm=True)
    assert [(a.change, a.slug, a.name) for a in prepared.per_group[0]] == [
        ("moving", "combattere", "Fire and Manoeuvre (Combattere)")
    ]
    # 2nd edition: 3+ to hit in the open at normal range, then 4+ to kill a Regular: 2/3 x 1/2 a die.
    assert res.need_to_hit[0].need == 3
    assert res.hits.pmf == _binomial(5, F(2, 3))
    assert res.casualties.pmf == _binomial(5, F(1, 3))
    # Without the bonus the Advance costs -1: 4+, then 4+: 1/2 x 1/2.
    _plain, plain = _shoot(rifles)
    assert plain.need_to_hit[0].need == 4 and plain.casualties.pmf == _binomial(5, F(1, 4))
    # Rifles only: the squad's LMG keeps its -1 (4 dice at 4+); on a Fire order nothing is said.
    prepared, res = _shoot([ShotGroupInput(RIFLE, 5, "normal"), ShotGroupInput(LMG, 1, "normal")], fm=True)
    assert prepared.per_group[1] == () and res.need_to_hit[1].need == 4
    assert res.hits.pmf == {
        k: sum((_binomial(5, F(2, 3))[a] * _binomial(4, F(1, 2))[k - a] for a in range(6) if 0 <= k - a <= 4), F(0))
        for k in range(10)
    }
    assert _shoot(rifles, order="fire", fm=True)[0].per_group == ((),)
    # 3rd edition: the Italian bonus is not sourced, so it does not act.
    third = national.prepare_shooting(
        "v3", "italy", "", rifles, TEN_IN_THE_OPEN, quality="regular", order="advance", fire_and_manoeuvre=True
    )
    assert third.per_group == ((),) and not third.groups[0].steady_on_move


# Four men who started six, with two pins: one rifle at 3+ then 4+ kills one man a third of the time,
# and a hit pins (a third pin). One down of four leaves two of six: the morale check at half strength.
FOUR_PINNED = TargetInput(kind="infantry", quality="regular", models=4, starting_models=6, pins=2)
ONE_RIFLE = [ShotGroupInput(RIFLE, 1, "normal")]


def test_cedere_fanatics_ignore_their_pins_and_are_not_routed():
    prepared, res = _shoot(ONE_RIFLE, FOUR_PINNED, order="fire", target_gain="fanatics")
    assert [(a.change, a.slug, a.name) for a in prepared.unit] == [("fanatic", "cedere", "Fanatics (Cedere)")]
    assert prepared.target.fanatic and not prepared.target.stubborn
    # The check at morale 9, pins ignored: 2D6 over 9 fails 6/36. Plain: 9 - 3 pins, over 6 fails 21/36.
    assert res.morale.p_destroyed_by_check == F(1, 3) * F(6, 36)
    _p, plain = _shoot(ONE_RIFLE, FOUR_PINNED, order="fire")
    assert plain.morale.p_destroyed_by_check == F(1, 3) * F(21, 36)
    # Eight pins and a hit reach a Regular's morale 9: routed, unless Fanatic with two men left.
    eight = TargetInput(kind="infantry", quality="regular", models=4, pins=8)
    assert _shoot(ONE_RIFLE, eight, order="fire", target_gain="fanatics")[1].morale.p_pin_rout == 0
    assert _shoot(ONE_RIFLE, eight, order="fire")[1].morale.p_pin_rout == F(2, 3)


def test_obbedire_stubborn_ignore_their_pins_on_the_check_but_can_still_be_routed():
    prepared, res = _shoot(ONE_RIFLE, FOUR_PINNED, order="fire", target_gain="stubborn")
    assert [(a.change, a.slug, a.name) for a in prepared.unit] == [("stubborn", "obbedire", "Stubborn (Obbedire)")]
    assert prepared.target.stubborn and not prepared.target.fanatic
    assert res.morale.p_destroyed_by_check == F(1, 3) * F(6, 36)
    # Stubborn is not Fanatics: pins that reach the morale still rout the unit (rules-notes §7).
    eight = TargetInput(kind="infantry", quality="regular", models=4, pins=8)
    assert _shoot(ONE_RIFLE, eight, order="fire", target_gain="stubborn")[1].morale.p_pin_rout == F(2, 3)


def test_the_target_bonus_acts_on_men_only_and_in_2nd_edition_only():
    tank = TargetInput(kind="armoured", quality="regular", damage_value=9)
    prepared = national.prepare_shooting(
        "v2", "", "", ONE_RIFLE, tank, quality="regular", order="fire", target_gain="fanatics"
    )
    assert prepared.unit == () and not prepared.target.fanatic
    third = national.prepare_shooting(
        "v3", "", "", ONE_RIFLE, FOUR_PINNED, quality="regular", order="fire", target_gain="stubborn"
    )
    assert third.unit == () and not third.target.stubborn
    assert national.unit_bonus("v2", "mountaineers") is None  # named, not modelled
