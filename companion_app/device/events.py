"""What the dice link reports: small frozen values, one per thing that happened on the wire."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion_app.rules.actions import EventDie


@dataclass(frozen=True, slots=True)
class DeviceInfo:
    """Who is on the other end, from its HELLO. A new ``boot_id`` means the box restarted.
    ``dice_mode``: the mode its HELLO named (None: a box without the modes, whose dice are fair);
    not part of who the box is."""

    device_id: str
    boot_id: str
    firmware: str
    protocol: int
    dice_mode: str | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class DeviceRoll:
    """One press of the roll button as the box reported it.

    (``device_id``, ``boot_id``, ``seq``) names it uniquely: ``seq`` starts again at 1 on
    every boot. ``offline``: rolled while no host listened. ``alchemist``: yellow and red are
    the values the host set with an Alchemist, only the event die was rolled.
    """

    device_id: str
    boot_id: str
    seq: int
    yellow: int
    red: int
    event: EventDie
    offline: bool = False
    alchemist: bool = False

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.device_id, self.boot_id, self.seq)

    @property
    def origin(self) -> str:
        """The key as the journal stores it next to the roll it became."""
        return f"dicebox:{self.device_id}:{self.boot_id}:{self.seq}"

    def describe(self) -> str:
        return f"{self.yellow}+{self.red} {self.event.value} (roll {self.seq})"


@dataclass(frozen=True, slots=True)
class Connected:
    info: DeviceInfo


@dataclass(frozen=True, slots=True)
class RollArrived:
    """A roll made while the host listened; acknowledge it once it is committed."""

    roll: DeviceRoll


@dataclass(frozen=True, slots=True)
class OfflineRollsOffered:
    """Rolls made while no host listened; the host decides what to do with them."""

    rolls: tuple[DeviceRoll, ...]


@dataclass(frozen=True, slots=True)
class PressedWhileDisarmed:
    """The button was pressed while the game did not wait for a roll: nothing was rolled."""


@dataclass(frozen=True, slots=True)
class PressedWhileFull:
    """The button was pressed while the box kept 64 rolls this host has not acknowledged:
    nothing was rolled (the box never drops a roll a host was promised)."""


@dataclass(frozen=True, slots=True)
class Disconnected:
    reason: str


@dataclass(frozen=True, slots=True)
class Reconnecting:
    """The next attempt to open the port comes after ``delay_s``."""

    attempt: int
    delay_s: float


LinkEvent = (
    Connected
    | RollArrived
    | OfflineRollsOffered
    | PressedWhileDisarmed
    | PressedWhileFull
    | Disconnected
    | Reconnecting
)
