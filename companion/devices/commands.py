"""Subcommands of this area (filled in by its issue)."""


def register(sub) -> None:
    """Add this area's subcommands to the ``companion`` parser."""
