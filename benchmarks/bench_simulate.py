"""Simulated games per second for every rulebook, on one core (the issue asks >= 200).

Runs exactly what `companion simulate GAME --games N --seed 1` runs (bots, invariants after
every input, a full replay check at the end of every game) and prints the figures.
Usage: python benchmarks/bench_simulate.py [--games N] [GAME...]
"""

import argparse
import os
import platform

from companion.rules import available_games
from companion.simulation import simulate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("games_ids", nargs="*", metavar="GAME")
    ap.add_argument("--games", type=int, default=1000)
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as the issue says
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"pinned to one core")
    print(f"{'game':<20} {'games':>6} {'seconds':>8} {'games/s':>8} {'inputs/game':>12}")
    for game in args.games_ids or available_games():
        s = simulate(game, args.games, seed=1)
        print(f"{game:<20} {s['games']:>6} {s['seconds']:>8.2f} {s['games_per_second']:>8.1f} "
              f"{s['stats']['inputs']['mean']:>12.1f}")


if __name__ == "__main__":
    main()
