"""Lockdown simulation speed: games per second (wall and CPU) and where the time goes.

Prints, for each mode, ``companion simulate``'s own games/s (fast check) and a breakdown
of one input's cost: the bot's choice, the prompt, applying it, the invariant check.
Run: ``.venv/bin/python benchmarks/lockdown_speed.py [games]``.
"""

from __future__ import annotations

import random
import sys
import time

from companion.bots import bot_input
from companion.rules.core import Setup
from companion.rules.lockdown import Lockdown
from companion.simulation import simulate


def breakdown(mode: str, games: int) -> dict:
    clock = time.process_time
    spent = {"bot": 0.0, "prompt": 0.0, "apply": 0.0, "invariants": 0.0}
    inputs = 0
    for i in range(games):
        rng = random.Random(i)
        g = Lockdown(Setup.numbered(rng.randint(2, 8), mode=mode))
        while True:
            t0 = clock()
            p = g.prompt()
            t1 = clock()
            if p is None:
                break
            inp = bot_input(g, p, rng)
            t2 = clock()
            g.apply(inp, atomic=False)
            t3 = clock()
            g.check_invariants()
            t4 = clock()
            spent["prompt"] += t1 - t0
            spent["bot"] += t2 - t1
            spent["apply"] += t3 - t2
            spent["invariants"] += t4 - t3
            inputs += 1
    return {"inputs_per_game": round(inputs / games, 1),
            **{f"{k}_us": round(v / inputs * 1e6, 1) for k, v in spent.items()}}


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    # "mixed" is what `companion simulate lockdown` plays: the mode picked at random per game.
    for mode in ("mixed", "full", "table"):
        cpu0 = time.process_time()
        summary = simulate("lockdown", games, 1, options=None if mode == "mixed" else {"mode": mode})
        cpu = time.process_time() - cpu0
        print(f"lockdown mode={mode}: {games} games, {summary['games_per_second']} games/s wall, "
              f"{games / cpu:.0f} games/s CPU, {summary['inputs']} inputs, "
              f"{summary['rejected_inputs']} rejected")
        if mode != "mixed":
            print("  per input (CPU):", breakdown(mode, max(50, games // 10)))


if __name__ == "__main__":
    main()
