"""``companion simulate``, ``companion replay`` and ``companion status``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

def register(sub) -> None:
    from companion.rules import GAME_MODULES

    p = sub.add_parser("simulate", help="play many games with bots, checking every rule",
                       description="Play N complete games with simple bots (chance from a seeded "
                       "generator), check invariants after every input, print a summary.")
    p.add_argument("game", choices=list(GAME_MODULES))
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--players", type=int, help="players per game (default: random within the rules)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="fix an optional rule (default: random per game); VALUE is JSON or a word")
    p.add_argument("--check", choices=("fast", "full"), default="fast",
                   help="fast: the rules' invariants after every input, the snapshot's round "
                   "trip after every game, a whole-game replay every 10th game; full: also the "
                   "snapshot round trip and a replay after every input (slow)")
    p.add_argument("--log", type=Path, help="write every input and resulting public state as JSON lines")
    p.add_argument("--json", action="store_true", help="last line is a JSON summary")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("replay", help="rebuild games from a simulation log and check them",
                       description="Rebuild every game of a --log file input by input and check each "
                       "public state against the log.")
    p.add_argument("log", type=Path)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("status", help="the game in progress and its public state")
    p.add_argument("--state", type=Path, help="the state directory (default: the configuration's "
                   "daemon.state_dir, where `companion run` keeps its journal)")
    p.add_argument("--config", help="a TOML file of settings (as for `companion run`)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_status)


def _parse_options(pairs: list[str]) -> dict:
    out = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise SystemExit(f"--option takes NAME=VALUE, not {pair!r}")
        try:
            out[name] = json.loads(raw)
        except json.JSONDecodeError:
            out[name] = raw
    return out


def cmd_simulate(args: argparse.Namespace) -> int:
    from companion.rules.core import BadSetup
    from companion.simulation import InvariantBroken, simulate

    if args.games < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 2
    log = open(args.log, "w", encoding="utf-8") if args.log else None
    try:
        summary = simulate(args.game, args.games, args.seed, players=args.players,
                           options=_parse_options(args.option), check=args.check, log=log)
    except BadSetup as e:
        print(f"companion simulate: {e}", file=sys.stderr)
        return 2
    except InvariantBroken as e:
        print(f"companion simulate: RULES BUG: {e}", file=sys.stderr)
        return 1
    finally:
        if log:
            log.close()
    print(f"{summary['game']}: {summary['games']} games in {summary['seconds']:.2f} s "
          f"({summary['games_per_second']} games/s), {summary['inputs']} inputs, "
          f"{summary['rejected_inputs']} rejected as illegal; every invariant held.")
    for name, fig in summary["stats"].items():
        print(f"  {name:>16}: mean {fig['mean']:g}, min {fig['min']:g}, max {fig['max']:g}")
    if "wins" in summary:
        print("  wins by seat: " + ", ".join(f"{k} {v}" for k, v in summary["wins"].items()))
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from companion.rules import game_class
    from companion.rules.core import IllegalInput, Input, Setup

    try:
        lines = args.log.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        print(f"companion replay: cannot read {args.log}: {e.strerror}", file=sys.stderr)
        return 2
    results: list[dict] = []
    game, skipping, problems = None, False, 0
    for number, line in enumerate(lines, 1):
        try:
            rec = json.loads(line)
            kind = rec["type"]
            if kind == "setup":
                skipping = False
                results.append({"index": rec.get("index"), "game": rec.get("game"), "inputs": 0, "ok": True})
                game = game_class(rec["game"])(Setup.from_json(rec["setup"]))
            elif skipping:
                continue  # the rest of a game that already differs
            elif game is None:
                raise ValueError("an input before any setup line")
            elif kind == "input":
                game.apply(Input.from_json(rec["input"]))
                results[-1]["inputs"] += 1
                if "public" in rec and json.loads(json.dumps(game.public_view())) != rec["public"]:
                    raise ValueError("the rebuilt public state differs from the logged one")
            elif kind == "end":
                score = game.score()
                results[-1]["score"] = score
                if json.loads(json.dumps(score)) != rec.get("score"):
                    raise ValueError("the rebuilt final score differs from the logged one")
        except (ValueError, KeyError, TypeError, IllegalInput) as e:
            problems += 1
            skipping = True
            if results:
                results[-1]["ok"] = False
            print(f"{args.log}:{number}: {e}", file=sys.stderr)
    for r in results:
        if args.json:
            print(json.dumps(r, sort_keys=True))
        else:
            text = (r.get("score") or {}).get("text", "(unfinished)")
            print(f"game {r['index']}: {r['game']}, {r['inputs']} inputs, "
                  f"{'replayed exactly' if r['ok'] else 'DIFFERS'}: {text}")
    if not results:
        print(f"companion replay: {args.log} holds no game", file=sys.stderr)
        return 1
    return 1 if problems else 0


def cmd_status(args: argparse.Namespace) -> int:
    from companion.config import ConfigError, find_config_path, load_config
    from companion.table import JournalError, Table

    if args.state is None:
        try:
            cfg = load_config(find_config_path(args.config))
        except ConfigError as e:
            print(f"companion status: bad configuration: {e}", file=sys.stderr)
            return 2
        args.state = Path(cfg.expand_path("daemon", "state_dir"))
    path = args.state / "journal.sqlite3"
    if not path.exists():
        status = {"game": None, "inputs": 0, "score": None}
    else:
        try:
            table = Table(path)
        except JournalError as e:
            print(f"companion status: {e}", file=sys.stderr)
            return 1
        status = table.status()
        table.close()
    if args.json:
        print(json.dumps(status, sort_keys=True))
        return 0
    if status["game"] is None:
        print(f"No game in {args.state}.")
        return 0
    prompt = status["prompt"]
    print(f"{status['game']}: {status['inputs']} inputs journalled; "
          f"{'over' if status['over'] else 'waiting for: ' + prompt['text']}")
    print(f"Score: {status['score'].get('text', '')}")
    print(json.dumps(status["public"], indent=2, sort_keys=True))
    return 0
