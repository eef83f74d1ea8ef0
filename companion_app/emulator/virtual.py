"""The virtual dice: an emulated box (the real firmware) in this process, opened through the
same `DiceLink` as a real box; its `press` is the on-screen roll button."""

from __future__ import annotations

from collections.abc import Callable

from companion_app.device.dice import Dice
from companion_app.device.discovery import DiceSource
from companion_app.device.events import LinkEvent
from companion_app.device.link import DiceLink, serial_opener
from companion_app.emulator.box import VirtualDiceBox


def open_virtual_dice(
    on_event: Callable[[LinkEvent], None],
    *,
    seed: int | None = None,
    script: str | None = None,
) -> Dice:
    """Start an emulated box and a link to it. ``seed`` makes its rolls reproducible;
    ``script`` names a file of fixed rolls, ``yellow red event`` a line, as the emulator's
    ``--script``."""
    box = VirtualDiceBox(seed=seed, script=script)
    try:
        link = DiceLink(serial_opener(lambda: box.port), on_event)
        link.start()
    except BaseException:
        box.close()
        raise
    return Dice(DiceSource(None), link, box)
