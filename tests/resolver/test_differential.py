"""The seeded Monte-Carlo differential test: the exact resolver against an independent dice simulator
on 231 fixed random scenarios over the three editions and every calculator (see ``differential.py``).

Sized for CI (a few seconds); ``make bench`` runs the same comparison with far more plays. Each of the
four rules bugs put back makes it fail (checked when it was written).
"""

from __future__ import annotations

from collections import Counter

from tests.resolver.differential import compare
from tests.rules.combat.simulator import (
    italian_bonus_scenarios,
    national_scenarios,
    order_test_box_scenarios,
    random_scenarios,
    reaction_scenarios,
    tank_assault_scenarios,
    tough_as_boots_scenarios,
    vehicle_gun_scenarios,
    vengeance_scenarios,
)

SCENARIOS = 231  # 7 of each of the 11 slots (armour has two) in each edition: 77 per edition
TRIALS = 400


def test_the_resolver_agrees_with_an_independent_simulator():
    scenarios = random_scenarios(SCENARIOS, seed=10)
    kinds = Counter((s["kind"], s["edition"]) for s in scenarios)
    assert len(kinds) == 30 and min(kinds.values()) >= 7  # all ten kinds of scenario in every edition
    problems = [d for i, s in enumerate(scenarios) for d in compare(i, s, TRIALS)]
    assert not problems, "\n".join(str(p) for p in problems[:20])


def test_the_national_rules_agree_with_the_simulator():
    """Hitler's Buzzsaw, Fire and Manoeuvre, Gyro-stabilisers, the Great Patriotic War, Death Before
    Dishonour, the Banzai Charge, Not One Step Back!, Tiger Fear, Avanti Savoia!, Large Squads and
    Improvised AT: the simulator applies them in its own words (``simulator.extra_shots``,
    ``steady_on_move``, ``great_patriotic_war``, ``death_before_dishonour``, ``order_test``,
    ``large_squads``, ``improvised_at``, ``rifle_bonus``); Rapid Fire and 3rd-edition Fire and Manoeuvre too."""
    scenarios = national_scenarios(80, seed=25)
    kinds = {f"national_{army}" for army in ("germany", "us", "soviet-union", "imperial-japan", "italy")}
    assert {s["kind"] for s in scenarios} == kinds
    problems = [d for i, s in enumerate(scenarios) for d in compare(i, s, TRIALS)]
    assert not problems, "\n".join(str(p) for p in problems[:20])


def test_tough_as_boots_agrees_with_the_simulator():
    """Tough as Boots (the British characteristic) in close quarters: the simulator adds a third of the men
    fighting as extra attackers each round, in its own words (``simulator._strikes``); 3rd edition and
    Inexperienced men get none. Checked to fail with the rule dropped from the engine's inputs."""
    scenarios = tough_as_boots_scenarios(24, seed=25)
    assert {s["edition"] for s in scenarios} == {"2e", "3e"}
    problems = [d for i, s in enumerate(scenarios) for d in compare(i, s, 1000)]
    assert not problems, "\n".join(str(p) for p in problems[:20])


def test_vengeance_agrees_with_the_simulator():
    """Vengeance (the British characteristic): the simulator rolls the die for the pin before the test in
    its own words (``simulator.order_test``); 3rd edition, Inexperienced and unpinned units get none.
    Checked to fail with the rule dropped from the engine's inputs."""
    scenarios = vengeance_scenarios(30, seed=25)
    problems = [d for i, s in enumerate(scenarios) for d in compare(i, s, 2000)]
    assert not problems, "\n".join(str(p) for p in problems[:20])


def test_the_italian_bonus_agrees_with_the_simulator():
    """Cedere, Obbedire, Combattere per unit: Bersaglieri rifles advancing without the -1, Fanatic and
    Stubborn targets, in the simulator's own words (``simulator.bersaglieri_rifle``,
    ``italian_target_bonus``); 3rd edition gets none. Checked to fail with each of the three dropped
    from the engine's inputs."""
    scenarios = italian_bonus_scenarios(36, seed=25)
    assert {s.get("target_bonus") for s in scenarios} == {None, "cedere", "obbedire"}
    problems = [d for i, s in enumerate(scenarios) for d in compare(i, s, 2000)]
    assert not problems, "\n".join(str(p) for p in problems[:20])


def test_reaction_fire_and_blood_curdling_charge_agree_with_the_simulator():
    """The defenders' reaction fire before an assault (the attackers' losses, pin and morale check) and
    Blood Curdling Charge switching it off (2nd edition, not for green attackers): the simulator rolls
    them in its own words (``simulator.reaction_fire``). Checked to fail with the reaction dropped from
    the engine, with Blood Curdling Charge dropped from it, and with its morale check or pin rout dropped."""
    scenarios = reaction_scenarios(36, seed=25)
    assert {s["edition"] for s in scenarios} == {"1e", "2e", "3e"}
    assert any(s["attacker"]["blood"] and s["edition"] == "2e" for s in scenarios)
    problems = [d for i, s in enumerate(scenarios) for d in compare(i, s, 1000)]
    assert not problems, "\n".join(str(p) for p in problems[:20])


def test_infantry_assaults_on_vehicles_agree_with_the_simulator():
    """Infantry assaulting a vehicle (the anti-tank page's second mode): to hit on a 6 or 4+, destroyed if
    damaged, superficial damage only without AT weapons, the Tank Fear test, and Italy's Improvised AT
    re-rolling the grenades' failed pen die, each in the simulator's own words (``simulator.tank_assault``,
    ``improvised_at_grenades``). Checked to fail with the re-roll dropped from the engine's inputs."""
    scenarios = tank_assault_scenarios(48, seed=25)
    assert {s["kind"] for s in scenarios} == {f"tank_assault_{k}" for k in ("soft_skin", "open_topped", "enclosed")}
    assert any(s["army"] == "italy" and s["at"] and s["edition"] == "2e" for s in scenarios)
    problems = [d for i, s in enumerate(scenarios) for d in compare(i, s, 2000)]
    assert not problems, "\n".join(str(p) for p in problems[:20])


def test_not_one_step_back_with_the_other_boxes_agrees_with_the_simulator():
    """Not One Step Back! ticked with Vengeance, a lost NCO (Initiative Training or not), the Banzai
    Charge, Tiger Fear or Avanti Savoia! on the order test page: the simulator rolls Vengeance's and
    Initiative Training's dice first and re-takes a failed test at the same morale, in its own words
    (``simulator.order_test``). Fails with the chance a man is removed taken from one case only (as the
    page showed it before), or with the Banzai Charge leaving it in place."""
    scenarios = order_test_box_scenarios(40, seed=35)
    assert any(s["vengeance"] and s["edition"] == "2e" for s in scenarios)
    assert any("germany" in s["boxes"] and s["edition"] == "2e" for s in scenarios)
    assert any(s["banzai"] and s["edition"] == "2e" for s in scenarios)
    problems = [d for i, s in enumerate(scenarios) for d in compare(i, s, 3000)]
    assert not problems, "\n".join(str(p) for p in problems[:20])


def test_vehicle_guns_on_the_move_agree_with_the_simulator():
    """Guns the charts mark Fixed fired on an Advance order: a vehicle's (every edition, often a US
    Veteran gyro-stabilised one) at the -1 for moving or without it, and a towed one in 3rd edition; the
    simulator refuses a towed gun on the move before 3rd edition and otherwise takes the -1 in its own
    words (``simulator.to_hit_need``). Fails with the engine refusing every Fixed gun on the move."""
    scenarios = vehicle_gun_scenarios(40, seed=35)
    assert {s["edition"] for s in scenarios} == {"1e", "2e", "3e"}
    assert any(s.get("gyro") and s["edition"] == "2e" for s in scenarios)
    assert any(not s["vehicle"] for s in scenarios)
    problems = [d for i, s in enumerate(scenarios) for d in compare(i, s, 1000)]
    assert not problems, "\n".join(str(p) for p in problems[:20])
