"""Time a Swiss round of a 200-player event: the pairing an organiser waits for.

Run from the repository root: ``.venv/bin/python bench/events_bench.py [--players N] [--runs R]``.
Four rounds are played first (round 1 at random, then Swiss, random results, seeded), so the
timed fifth round pairs players with real score groups, past opponents to avoid and one bye
taken per round. Only ``rules`` and networkx are imported: the figure is the matching itself.
The target is under one second. Both the wall-clock time and the process's CPU time are
printed; the script exits non-zero when the CPU time is above the target (on a shared machine the
wall clock also counts the time other processes held the CPU).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.events.pairing import SwissPlayer, first_round, opponents_of, swiss  # noqa: E402
from rules.events.standings import Game, standings  # noqa: E402

TARGET_SECONDS = 1.0


def _results(pairings, rng: random.Random) -> list[Game]:
    games = []
    for pairing in pairings:
        if pairing.is_bye:
            games.append(Game(players=pairing.players, outcomes=("win",)))
        else:
            outcome = rng.choice([("win", "loss"), ("loss", "win"), ("draw", "draw")])
            games.append(Game(players=pairing.players, outcomes=outcome, dice=(rng.randint(0, 9), rng.randint(0, 9))))
    return games


def _swiss_players(keys, games, sides) -> list[SwissPlayer]:
    met = opponents_of([game.players for game in games])
    byes = {game.players[0] for game in games if len(game.players) == 1}
    return [
        SwissPlayer(row.key, row.score, sides[row.key], met.get(row.key, frozenset()), row.key in byes)
        for row in standings(keys, games)
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=27)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    keys = list(range(1, args.players + 1))
    sides = {key: rng.choice(["axis", "allies"]) for key in keys}
    games = _results(first_round(keys, args.seed), rng)
    for _ in range(3):
        games += _results(swiss(_swiss_players(keys, games, sides), prefer_sides=True), rng)
    players = _swiss_players(keys, games, sides)
    wall, cpu = [], []
    for _ in range(args.runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        pairings = swiss(players, prefer_sides=True)
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    assert sum(len(p.players) for p in pairings) == args.players
    print(
        f"Swiss round 5 of {args.players} players over {args.runs} runs (target < {TARGET_SECONDS:.1f} s): "
        f"CPU median {statistics.median(cpu):.3f} s, worst {max(cpu):.3f} s; "
        f"wall median {statistics.median(wall):.3f} s, worst {max(wall):.3f} s"
    )
    return 0 if max(cpu) < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
