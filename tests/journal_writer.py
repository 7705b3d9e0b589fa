"""A writer process for the kill -9 tests: plays a game through the Table with bots.

Usage: python journal_writer.py JOURNAL GAME_ID SEED [OPTIONS_JSON]
Resumes the journal's game if there is one. After each input is acknowledged (submit
returned, so it is on disk) prints ``ACK <inputs in force>``; prints ``OVER`` at the end.
Choices come from an RNG keyed by the step, so a resumed run makes the same choices.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from companion.bots import bot_input, step_rng  # noqa: E402
from companion.rules import GAME_MODULES  # noqa: E402
from companion.rules.core import IllegalInput, Setup  # noqa: E402
from companion.table import Table  # noqa: E402

GAME_MODULES.setdefault("race", "race_game")  # the test game, beside this file


def main() -> None:
    path, game_id, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    options = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
    table = Table(path)
    if table.game is None:
        table.new_game(game_id, Setup(("Ann", "Bob", "Cy"), options))
    while (p := table.game.prompt()) is not None:
        step = len(table.active)
        for attempt in range(100):
            try:
                table.submit(bot_input(table.game, p, step_rng(seed, attempt, step)), source="bot")
                break
            except IllegalInput:
                continue
        print(f"ACK {len(table.active)}", flush=True)
    print("OVER", flush=True)


if __name__ == "__main__":
    main()
