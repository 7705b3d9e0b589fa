"""Table Companion: reads dice and coins, enforces the rulebook, keeps the score."""

__version__ = "0.1.0"
