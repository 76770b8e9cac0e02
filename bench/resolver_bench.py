"""Time the exact combat resolver against a naive Monte-Carlo estimate of the same questions.

Run from the repository root: ``.venv/bin/python bench/resolver_bench.py [--runs N] [--mc-runs M]``.
The timed questions import only ``rules`` and the standard library. Every exact run starts with the
package caches cleared, so the figure is a cold computation, not a cache hit.

Then the long differential run (``--differential-trials``, 0 to skip): the suite's seeded comparison of
the exact resolver with the independent dice simulator (``tests/resolver/differential.py``) on more
scenarios and far more plays each; it sets Django up for the weapon adapter and exits non-zero on any
disagreement beyond 5 standard errors.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.combat import clear_caches  # noqa: E402
from rules.combat.api import ShotGroupInput, TargetInput, anti_tank, close_quarters, shooting  # noqa: E402
from rules.combat.weapons import Weapon  # noqa: E402

TRIALS = 100_000
SEED = 20240601

RIFLE = Weapon("Rifle", "rifle", 24)
SMG = Weapon("Submachine gun", "smg", 12, shots="2", assault=True)
LMG = Weapon("Light machine gun", "lmg", 36, shots="4", team=True)
PANZERFAUST = Weapon("Panzerfaust", "panzerfaust", 12, pen=6, shaped_charge=True)
HEAVY_GUN = Weapon("Pen +6 gun", "pen6", 48, pen=6)


def d6(rng: random.Random) -> int:
    return int(rng.random() * 6) + 1


# --- question 1: 40 rifles + 6 SMGs (12 dice, point blank) + 2 LMGs (8 dice) at 20 Regulars in soft cover, 2e


def volley_exact() -> float:
    res = shooting(
        "2e",
        order="fire",
        firer_quality="regular",
        firer_pins=0,
        groups=[ShotGroupInput(RIFLE, 40), ShotGroupInput(SMG, 6, "point_blank"), ShotGroupInput(LMG, 2)],
        target=TargetInput("infantry", "regular", 20, "soft"),
    )
    return float(res.casualties.mean)


def volley_mc(rng: random.Random) -> float:
    # 2e: base 3+, soft cover -1, point blank +1; Regular targets are damaged on 4+; a 1 always fails.
    dice = [4] * 40 + [3] * 12 + [4] * 8
    total = 0
    for _ in range(TRIALS):
        kills = 0
        for need in dice:
            h = d6(rng)
            if h != 1 and h >= need:
                d = d6(rng)
                if d != 1 and d >= 4:
                    kills += 1
        total += min(kills, 20)
    return total / TRIALS


# --- question 2: five Panzerfaust shots (2e, long range, 4+ to hit) at a Regular medium tank (DV 9) front


def panzerfaust_exact() -> float:
    res = anti_tank("2e", weapon=PANZERFAUST, damage_value=9, band="long", shots=5)
    return float(res.p_knocked_out)


def panzerfaust_mc(rng: random.Random) -> float:
    ko_count = 0
    for _ in range(TRIALS):
        pins, immobilised, ko = 0, False, False
        for _shot in range(5):
            if ko or pins >= 9:
                break  # knocked out, or routed by pins reaching its morale: later shots change nothing
            h = d6(rng)
            if h == 1 or h < 4:
                continue
            pins += 1  # the hit pins: a Panzerfaust can damage a medium tank
            pen = d6(rng)
            total = pen + 6
            if pen == 1 or total < 9:
                continue
            if total == 9:
                rolls = [d6(rng) - 3]
            elif total <= 11:
                rolls = [d6(rng)]
            else:
                rolls = [None, None]  # two results, each rolled only if the tank still runs
            for r in rolls:
                if ko:
                    break
                if r is None:
                    r = d6(rng)
                if r <= 0:
                    continue
                if r >= 4:
                    ko = True
                    continue
                pins += 1
                if r == 2:
                    if immobilised:
                        ko = True
                    immobilised = True
                elif r == 3:
                    morale = min(max(9 - pins, 2), 10)
                    if d6(rng) + d6(rng) > morale:
                        ko = True
        ko_count += ko
    return ko_count / TRIALS


# --- question 4: 50 shots of a Pen +6 weapon (3e, 4+ to hit) at a Regular medium tank (DV 9) front


def pen6_volley_exact() -> float:
    res = shooting(
        "3e",
        order="fire",
        firer_quality="regular",
        firer_pins=0,
        groups=[ShotGroupInput(HEAVY_GUN, 50)],
        target=TargetInput("armoured", "regular", 1, damage_value=9),
    )
    return float(res.vehicle.p_knocked_out)


def _on_fire_fails(rng: random.Random, pins: int) -> bool:
    return d6(rng) + d6(rng) > min(max(9 - pins, 2), 11)  # 3e clamp: 2..11


def pen6_volley_mc(rng: random.Random) -> float:
    # 3e tables; the firing unit's first hit pins (one pin per firing unit), each damage result pins;
    # knocked out or routed (pins >= morale 9) ends the sequence.
    ko_count = 0
    for _ in range(TRIALS):
        pins, immobilised, steering, engine, ko, pinned = 0, False, 0, 0, False, False
        for _shot in range(50):
            if ko or pins >= 9:
                break
            h = d6(rng)
            if h == 1 or h < 4:
                continue
            if not pinned:
                pins, pinned = pins + 1, True
            pen = d6(rng)
            total = pen + 6
            if pen == 1 or total < 9:
                continue
            superficial = total == 9
            for _roll in range(2 if total >= 12 else 1):
                if ko:
                    break
                r = d6(rng)
                if not superficial and r >= 4:
                    ko = True
                    continue
                pins += 1
                if superficial:
                    if r == 2:  # steering; a turret jam (3) changes nothing that follows
                        steering += 1
                        ko = steering >= 3
                    elif r == 4 and engine < 2:
                        engine += 1  # Slow, then crippled
                    elif r in (4, 5):
                        ko, immobilised = immobilised, True
                    elif r == 6:
                        ko = _on_fire_fails(rng, pins)
                elif r == 2:
                    ko, immobilised = immobilised, True
                elif r == 3:
                    ko = _on_fire_fails(rng, pins)
        ko_count += ko
    return ko_count / TRIALS


# --- question 3: 20 Regulars assault 20 Regulars in the open, 2e (attacker strikes first)


def cq_exact() -> float:
    res = close_quarters("2e", attacker={"models": 20}, defender={"models": 20})
    return float(res.p_attacker_wins)


def cq_mc(rng: random.Random) -> float:
    wins = 0
    for _ in range(TRIALS):
        a, d = 20, 20
        first = True
        while True:
            if first:
                x = min(sum(1 for _ in range(a) if d6(rng) >= 4), d)
                if x == d:
                    wins += 1
                    break
                y = min(sum(1 for _ in range(d - x) if d6(rng) >= 4), a)
            else:
                x = min(sum(1 for _ in range(a) if d6(rng) >= 4), d)
                y = min(sum(1 for _ in range(d) if d6(rng) >= 4), a)
            first = False
            if x == d and y == a:
                break
            if x == d:
                wins += 1
                break
            if y == a:
                break
            if x != y:
                wins += x > y
                break
            a, d = a - y, d - x
    return wins / TRIALS


def median_ms(fn: Callable[[], float], runs: int, before: Callable[[], None] | None = None) -> tuple[float, float]:
    times = []
    value = 0.0
    for _ in range(runs):
        if before is not None:
            before()
        start = time.perf_counter()
        value = fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15, help="timed runs of each exact answer")
    parser.add_argument("--mc-runs", type=int, default=3, help="timed runs of each Monte-Carlo estimate")
    parser.add_argument("--differential-trials", type=int, default=6000, help="plays per scenario (0: skip)")
    parser.add_argument("--differential-scenarios", type=int, default=462, help="scenarios in the long run")
    args = parser.parse_args()
    questions = [
        (
            "Q1 60-dice volley (2e: 40 rifles, 6 SMGs at point blank, 2 LMGs) at 20 Regulars in soft cover"
            " -> E[casualties]",
            volley_exact,
            volley_mc,
        ),
        (
            "Q2 5 Panzerfaust shots (2e, long range) at a Regular medium tank (DV 9, front) -> P(knocked out)",
            panzerfaust_exact,
            panzerfaust_mc,
        ),
        ("Q3 20 v 20 Regulars, close quarters (2e, attacker first) -> P(attacker wins)", cq_exact, cq_mc),
        (
            "Q4 50 Pen +6 shots (3e, 4+ to hit) at a Regular medium tank (DV 9, front) -> P(knocked out)",
            pen6_volley_exact,
            pen6_volley_mc,
        ),
    ]
    print(f"exact: median of {args.runs} cold runs; Monte Carlo: {TRIALS} trials, median of {args.mc_runs} runs")
    for label, exact, mc in questions:
        exact_ms, exact_value = median_ms(exact, args.runs, before=clear_caches)
        rng = random.Random(SEED)
        mc_ms, mc_value = median_ms(lambda mc=mc, rng=rng: mc(rng), args.mc_runs)
        print(f"{label}")
        print(f"  exact       : {exact_ms:10.2f} ms   value {exact_value:.6f}")
        print(f"  monte carlo : {mc_ms:10.2f} ms   value {mc_value:.6f}")
        print(f"  ratio       : Monte Carlo takes {mc_ms / exact_ms:,.0f}x the exact time")
    if args.differential_trials > 0 and differential(args.differential_scenarios, args.differential_trials):
        sys.exit(1)


def differential(scenarios: int, trials: int) -> int:
    """The long differential run; returns the number of disagreements (each printed)."""
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")
    django.setup()
    from tests.resolver.differential import SIGMAS, compare
    from tests.rules.combat.simulator import random_scenarios

    start = time.perf_counter()
    problems = []
    cases = random_scenarios(scenarios, seed=10)
    for i, s in enumerate(cases):
        problems.extend(compare(i, s, trials))
    seconds = time.perf_counter() - start
    print(
        f"Differential: {len(cases)} scenarios x {trials} plays against the exact resolver in {seconds:.0f} s:"
        f" {len(problems)} statistic(s) beyond {SIGMAS} standard errors"
    )
    for p in problems:
        print(f"  {p}")
    return len(problems)


if __name__ == "__main__":
    main()
