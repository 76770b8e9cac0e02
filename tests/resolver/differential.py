"""The exact resolver against the independent dice simulator (``tests/rules/combat/simulator.py``).

Each scenario goes the way the pages and the API go: weapon-chart rows (stand-ins with the chart's
fields and special rules) through ``adapters.to_rules_weapon``, then ``rules.combat.api``. For every
statistic the simulator estimates, the exact answer must lie within ``SIGMAS`` standard errors
(computed from the exact distribution, plus two plays' worth for rare events); a statistic the engine
says is certain must come out exactly.
Used by ``test_differential.py`` (CI size) and ``bench/resolver_bench.py --differential`` (long run).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

from armybuilder.resolver.adapters import to_rules_weapon
from armybuilder.resolver.national_rules import order_test as page_order_test
from rules.combat import api as engine
from rules.combat import national
from rules.combat.tank_assault import tank_assault
from tests.rules.combat.simulator import simulate_any

SIGMAS = 5
SEED = 20261125

# The simulator's weapon keys as the chart's special rules (slugs), so the adapter reads them as the
# pages do; "vehicle" and "at_gun" are left to the adapter, which finds them from the slug.
_RULES = {
    "assault": "assault",
    "team": "team",
    "shaped": "shaped-charge",
    "flamer": "flamethrower",
    "indirect": "indirect-fire",
    "at_gun": "anti-tank-gun",
    "fixed": "fixed",
}


def chart_row(w: dict[str, Any]) -> SimpleNamespace:
    """A stand-in for a ``reference.Weapon`` row with what the adapter reads."""
    rules = [
        SimpleNamespace(slug=slug, name=slug.replace("-", " ").title()) for key, slug in _RULES.items() if w.get(key)
    ]
    name = "Flamethrower (vehicle)" if w.get("vehicle") else w["slug"].replace("-", " ").title()
    return SimpleNamespace(
        slug=w["slug"],
        name=name,
        range_max=w["range"],
        range_min=w.get("range_min"),
        shots=w.get("shots", "1"),
        pen=w.get("pen", 0),
        he_size=w.get("he"),
        special_rules=SimpleNamespace(all=lambda rules=rules: rules),
    )


def _var(pmf: dict[int, Fraction]) -> Fraction:
    mean = sum((k * p for k, p in pmf.items()), Fraction(0))
    return sum((k * k * p for k, p in pmf.items()), Fraction(0)) - mean * mean


def _p(p: Fraction) -> tuple[Fraction, Fraction]:
    return p, p * (1 - p)


def _mean(pmf: dict[int, Fraction]) -> tuple[Fraction, Fraction]:
    return sum((k * p for k, p in pmf.items()), Fraction(0)), _var(pmf)


def _reaction(fire: dict[str, Any] | None) -> dict[str, int] | None:
    if not fire:
        return None
    return {"shots": fire["shots"], "to_hit": fire["to_hit"], "attacker_pins": fire.get("pins", 0)}


def _firer_vehicle(s: dict[str, Any]) -> bool:
    """The firer is a vehicle as the API reads it: said so, or its gun is gyro-stabilised."""
    return bool(s.get("vehicle") or s.get("gyro"))


def exact(s: dict[str, Any]) -> dict[str, tuple[Fraction, Fraction]]:
    """The engine's answer to scenario ``s``: statistic -> (exact mean, exact variance of one play)."""
    if s["calc"] == "order_test":
        # Through the order test page's own function, its boxes ticked as the scenario says: each
        # army's rule has its box, and ``boxes`` names the armies ticked besides the unit's own.
        armies = {s.get("army", ""), *s.get("boxes", ())}
        odds, _ = page_order_test(
            {
                "edition": s["edition"],
                "quality": s["quality"],
                "pins": s["pins"],
                "officer_bonus": s["officer"],
                "modifier": s["modifier"],
                "tiger_fear": bool(s.get("tiger")),
                "avanti": s.get("avanti", "") if "italy" in armies else "",
                "nco": ("lost_german" if "germany" in armies else "lost") if s.get("nco") else "",
                "commissar": bool(s.get("commissar")) and "soviet-union" in armies,
                "banzai": bool(s.get("banzai")) and "imperial-japan" in armies,
                "vengeance": bool(s.get("vengeance")),
            }
        )
        return {"pass": _p(odds.p_pass), "fubar": _p(odds.p_fubar), "man_removed": _p(odds.p_man_removed or 0)}
    if s["calc"] == "close_quarters":
        att, dfd = s["attacker"], s["defender"]
        res = engine.close_quarters(
            s["edition"],
            attacker={
                "models": att["models"],
                "quality": att["quality"],
                "tough_fighters": att["tough"],
                "assault_weapons": att.get("aw", 0),
                "tough_as_boots": att.get("boots", False),
                "blood_curdling_charge": att.get("blood", False),
            },
            defender={
                "models": dfd["models"],
                "quality": dfd["quality"],
                "tough_fighters": dfd["tough"],
                "defensive_position": dfd["defensive"],
                "tough_as_boots": dfd.get("boots", False),
            },
            reaction=_reaction(s.get("reaction")),
        )
        return {"att": _p(res.p_attacker_wins), "dfd": _p(res.p_defender_wins), "both": _p(res.p_both_destroyed)}
    t = s["target"]
    if s["calc"] == "tank_assault":
        # Improvised AT decides the re-roll as the anti-tank page does.
        improvised = national.improvised_at_grenades(s["edition"], s.get("army", ""), s["at"])
        res = tank_assault(
            s["edition"],
            men=s["men"],
            pen=s["pen"],
            damage_value=t["dv"],
            vehicle=t["kind"],
            vehicle_order=t["order"],
            at_weapons=s["at"],
            quality=s["quality"],
            pins=s["pins"],
            officer_bonus=s["officer"],
            vehicle_quality=t["quality"],
            vehicle_pins=t["pins"],
            has_turret=t["turret"],
            slow=t["slow"],
            carries_flamer=t["flamer"],
            reroll_failed_pen=improvised is not None,
        )
        return {
            "goes_in": _p(res.p_assault),
            "ko": _p(res.p_knocked_out),
            "ko_overall": _p(res.p_knocked_out_overall),
            "immobilised": _p(res.p_immobilised),
            "rout": _p(res.p_pin_rout),
            "pins": _mean(res.pins.pmf),
        }
    if s["calc"] == "anti_tank":
        g = s["groups"][0]
        res = engine.anti_tank(
            s["edition"],
            weapon=to_rules_weapon(chart_row(g["weapon"])),
            damage_value=t["dv"],
            shots=s["shots"],
            facing=t["facing"],
            band=g["band"],
            order=s["order"],
            firer_quality=s["firer_quality"],
            firer_pins=s["firer_pins"],
            ammo=g.get("ammo", "auto"),
            vehicle_quality=t["quality"],
            pins=t["pins"],
            cover=t["cover"],
            open_topped=t["open_topped"],
            has_turret=t["turret"],
            slow=t["slow"],
            carries_flamer=t["flamer"],
            vehicle=_firer_vehicle(s),
        )
        n = s["shots"]
        return {
            "ko": _p(res.p_knocked_out),
            "immobilised": _p(res.p_immobilised),
            "rout": _p(res.p_pin_rout),
            "pins": _mean(res.pins.pmf),
            "hits": (n * res.p_hit, n * res.p_hit * (1 - res.p_hit)),
        }
    groups = [
        engine.ShotGroupInput(
            to_rules_weapon(chart_row(g["weapon"])),
            g["models"],
            g["band"],
            models_under_template=g.get("template"),
            ammo=g.get("ammo", "auto"),
            indirect=g.get("indirect"),
            ranging_attempt=g.get("attempt", 1),
        )
        for g in s["groups"]
    ]
    armoured = t["kind"] == "armoured"
    target = engine.TargetInput(
        kind=t["kind"],
        quality=t["quality"],
        models=t.get("models", 1),
        cover=t["cover"],
        down=t.get("down", False),
        damage_value=t.get("dv"),
        facing=t.get("facing", "front"),
        pins=t.get("pins", 0),
        starting_models=t.get("starting"),
        open_topped=t.get("open_topped", False),
        has_turret=t.get("turret", True),
        slow=t.get("slow", False),
        carries_flamer=t.get("flamer", False),
    )
    # National rules adjust the inputs before the engine, as the pages do.
    prepared = national.prepare_shooting(
        s["edition"],
        s.get("army", ""),
        s.get("target_army", ""),
        groups,
        target,
        quality=s["firer_quality"],
        order=s["order"],
        gyro=s.get("gyro", False),
        # The Italian bonus acts per unit: the pages' box and choice (``national.unit_bonus``).
        fire_and_manoeuvre=s.get("firer_bonus") == "combattere",
        target_gain={"cedere": "fanatics", "obbedire": "stubborn"}.get(s.get("target_bonus", ""), ""),
    )
    res = engine.shooting(
        s["edition"],
        order=s["order"],
        firer_quality=s["firer_quality"],
        firer_pins=s["firer_pins"],
        groups=prepared.groups,
        target=prepared.target,
        d2_pins=prepared.d2_pins,
        vehicle=_firer_vehicle(s),
    )
    if armoured:
        return {
            "ko": _p(res.vehicle.p_knocked_out),
            "immobilised": _p(res.vehicle.p_immobilised),
            "rout": _p(res.vehicle.p_pin_rout),
            "pins": _mean(res.pins.pmf),
            "hits": _mean(res.hits.pmf),
        }
    return {
        "casualties": _mean(res.casualties.pmf),
        "any_casualty": _p(1 - res.casualties.pmf.get(0, Fraction(0))),
        "hits": _mean(res.hits.pmf),
        "pins": _mean(res.pins.pmf),
        "pinned": _p(res.p_pin),
        "check": _p(res.morale.p_check),
        "destroyed": _p(res.morale.p_destroyed),
    }


@dataclass(frozen=True)
class Disagreement:
    index: int
    kind: str
    edition: str
    statistic: str
    exact: float
    simulated: float
    sigmas: float

    def __str__(self) -> str:
        return (
            f"scenario {self.index} ({self.kind}, {self.edition}) {self.statistic}: exact {self.exact:.5f}, "
            f"simulated {self.simulated:.5f} ({self.sigmas:.1f} standard errors)"
        )


def compare(index: int, s: dict[str, Any], trials: int) -> list[Disagreement]:
    """Where the simulator, over ``trials`` plays, and the engine disagree by more than ``SIGMAS``."""
    want = exact(s)
    got = simulate_any(s, trials, SEED + index)
    out = []
    for name, (mean, var) in want.items():
        sim = got[name]
        se = math.sqrt(float(var) / trials)
        gap = abs(sim - float(mean))
        # Plus two plays' worth: for a rare event (a few expected occurrences) the normal approximation
        # behind "5 standard errors" is too tight, and a real bug moves a figure far more than that.
        if (se == 0 and gap > 1e-9) or (se > 0 and gap > SIGMAS * se + 2 / trials):
            sigmas = math.inf if se == 0 else gap / se
            out.append(Disagreement(index, s["kind"], s["edition"], name, float(mean), sim, sigmas))
    return out
