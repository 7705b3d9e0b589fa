"""Status LEDs by role: ``leds.set("waiting", "blink")``.

Roles (``[leds.pins]`` in the config): ``waiting`` (for a roll), ``accepted`` (reading
accepted), ``attention`` (attention / error), ``broken`` (a restriction broken), ``death``
(a player died). States: ``"on"``, ``"off"``, ``"blink"``.

Backends: ``GpioLeds`` (companion.devices.gpio), ``PanelLeds`` (companion.devices.panel) and
``MemoryLeds`` here, whose ``states`` the tests and the terminal display read.
"""

from __future__ import annotations

STATES = ("on", "off", "blink")


class Leds:
    """The interface; a backend implements ``_apply(role, state)`` (and ``close``)."""

    def __init__(self, roles: tuple[str, ...]):
        self.roles = tuple(roles)
        self.states = {role: "off" for role in self.roles}

    def set(self, role: str, state: str) -> None:
        """Switch one LED; an unknown role or state raises ValueError and changes nothing."""
        if role not in self.states:
            raise ValueError(f"no LED for role {role!r}: configured roles are {', '.join(self.roles)}")
        if state not in STATES:
            raise ValueError(f"LED state {state!r} is not one of {', '.join(STATES)}")
        if self.states[role] != state:
            self._apply(role, state)
            self.states[role] = state

    def state(self, role: str) -> str:
        return self.states[role]

    def all_off(self) -> None:
        for role in self.roles:
            self.set(role, "off")

    def _apply(self, role: str, state: str) -> None:
        raise NotImplementedError

    def close(self) -> None:
        pass


class MemoryLeds(Leds):
    """LEDs that only remember their state (tests, the terminal display, ``--mock``)."""

    def _apply(self, role: str, state: str) -> None:
        pass
