"""``companion run`` (the daemon) and ``companion demo`` (bots play through the real path)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def register(sub) -> None:
    from companion.rules import GAME_MODULES

    p = sub.add_parser("run", help="the companion itself (the systemd service runs this)",
                       description="Run the companion beside the table. Without Pi hardware "
                       "(or with --sim) it runs the simulated table: a rendered dice tray, the "
                       "LCD drawn in the terminal, the keyboard as buttons.")
    p.add_argument("--config", help="a TOML file of settings (default: $COMPANION_CONFIG or "
                   "~/.config/companion/config.toml if present)")
    p.add_argument("--sim", action="store_true", help="the simulated table, whatever is attached")
    p.add_argument("--state", type=Path, help="where the journal lives (default: daemon.state_dir)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("demo", help="watch bots play a whole game through the real path",
                       description="Bots play a complete game: dice and coins are rendered into "
                       "a synthetic tray and read by the real reader, choices are button "
                       "presses, everything is journalled. With --state, an interrupted demo "
                       "resumes where it stopped.")
    p.add_argument("game", choices=list(GAME_MODULES))
    p.add_argument("--players", type=int)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--state", type=Path, help="keep the journal here (resume if it has this game)")
    p.add_argument("--json", action="store_true", help="print the final status as JSON")
    p.set_defaults(func=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    from companion.demo import describe_end, run_demo
    from companion.rules import game_class
    from companion.rules.core import BadSetup
    from companion.table import JournalError

    cls = game_class(args.game)
    if args.players is not None and not cls.min_players <= args.players <= cls.max_players:
        print(f"companion demo: {cls.title or args.game} is for {cls.min_players} to "
              f"{cls.max_players} players, not {args.players}", file=sys.stderr)
        return 2
    try:
        status = run_demo(args.game, args.players, args.seed, args.state)
    except (BadSetup, JournalError) as e:
        print(f"companion demo: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({k: status[k] for k in ("game", "inputs", "score", "rolls", "lcd")},
                         sort_keys=True))
    else:
        print(describe_end(status))
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from companion.runtime import start_daemon

    return start_daemon(args.config, sim=args.sim, state=args.state)
