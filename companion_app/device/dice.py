"""One call for the app: the dice it starts with, real or virtual, behind the same link.

`open_dice(source, on_event)` gives a started `DiceLink` to the dice box on ``source.port``, or,
for the virtual dice, to an emulated box in this process (`emulator.VirtualDiceBox`) whose
`press` is the on-screen roll button. Either way rolls arrive as the same link events.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion_app.device.discovery import DiceSource
from companion_app.device.events import LinkEvent
from companion_app.device.link import DiceLink, PortOpener, discovery_opener, serial_opener

if TYPE_CHECKING:
    from companion_app.emulator.box import VirtualDiceBox


@dataclass
class Dice:
    """The link, and the virtual box behind it when there is no real one."""

    source: DiceSource
    link: DiceLink
    virtual: VirtualDiceBox | None = None

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


def open_dice(
    source: DiceSource,
    on_event: Callable[[LinkEvent], None],
    *,
    seed: int | None = None,
    script: str | None = None,
    opener: PortOpener | None = None,
) -> Dice:
    """Start the link to ``source`` (see `discovery.choose_dice_source`).

    A real box is looked for again at every reconnect (``source.port`` if given, else by its
    USB id); ``opener`` replaces that, e.g. for an Android transport. The virtual dice start an
    emulated box first (``seed`` makes its rolls reproducible; ``script`` names a file of fixed
    rolls, ``yellow red event`` a line, as the emulator's ``--script``).
    """
    virtual = None
    if source.is_virtual:
        from companion_app.emulator.box import VirtualDiceBox

        virtual = VirtualDiceBox(seed=seed, script=script)
        box = virtual
        opener = serial_opener(lambda: box.port)
    elif opener is None:
        opener = discovery_opener(source.port)
    link = DiceLink(opener, on_event)
    link.start()
    return Dice(source, link, virtual)
