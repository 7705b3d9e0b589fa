"""The ``companion`` command. Each area registers its own subcommands.

Heavy imports (OpenCV, numpy, device libraries) happen inside the subcommands, so that
``companion --help`` and start-up stay fast on a Pi.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# Modules that expose ``register(subparsers)``; each adds its subcommands and sets
# ``func`` (taking the parsed args, returning an exit status) on its parsers.
COMMAND_MODULES = (
    "companion.game_commands",     # simulate, replay, status
    "companion.vision.commands",   # dice, coins, calibrate
    "companion.devices.commands",  # devices
    "companion.daemon_commands",   # run, demo
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table Companion: reads the dice, enforces the rulebook, keeps the score.")
    from companion import __version__
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `companion simulate ... | head` is fine; do not print a traceback.
        sys.stderr.close()
        return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
