"""The dice the app opens, real or virtual, behind the same link.

`Dice` is a started `DiceLink` and, for the virtual dice, the emulated box behind it, whose
`press` is the on-screen roll button. `open_box` opens a real dice box; the virtual dice are
opened by `companion_app.emulator.virtual.open_virtual_dice`, so this package never imports the
emulator. Either way rolls arrive as the same link events.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from companion_app.device.discovery import DiceSource
from companion_app.device.events import LinkEvent
from companion_app.device.link import DiceLink, discovery_opener
from companion_app.device.port import PortOpener


class VirtualBox(Protocol):
    """The virtual dice behind a link (an emulated box in this process)."""

    def press(self) -> None:
        """Its roll button."""

    def leds(self) -> str | None:
        """Its LED strip as text, or None before the first frame."""

    def close(self) -> None: ...


@dataclass
class Dice:
    """The link, and the virtual box behind it when there is no real one."""

    source: DiceSource
    link: DiceLink
    virtual: VirtualBox | None = None

    @property
    def is_virtual(self) -> bool:
        return self.virtual is not None

    def press(self) -> None:
        """The on-screen roll button (virtual dice only; a real box has its own button).

        :raises RuntimeError: for a real dice box.
        """
        if self.virtual is None:
            raise RuntimeError("a real dice box is rolled with its own button")
        self.virtual.press()

    def close(self) -> None:
        self.link.close()
        if self.virtual is not None:
            self.virtual.close()


def open_box(
    source: DiceSource,
    on_event: Callable[[LinkEvent], None],
    *,
    opener: PortOpener | None = None,
) -> Dice:
    """Start the link to the real dice box of ``source`` (see `discovery.choose_dice_source`).

    It is looked for again at every reconnect (``source.port`` if given, else by its USB id);
    ``opener`` replaces that, e.g. for an Android transport.
    """
    link = DiceLink(opener or discovery_opener(source.port), on_event)
    link.start()
    return Dice(source, link)
