"""The app's one door to the dice: a dice box, or the virtual dice, behind the same calls.

Screens never talk to the serial link. They call :meth:`DiceController.press_virtual` for the
on-screen roll button, :meth:`DiceController.sync` after every change of the game (so the box's
barbarian LEDs and its armed state follow), and read :attr:`DiceController.status` for the top
bar. Rolls arrive through the controller, which applies them to the journal session (committed
before they are acknowledged or shown) and then calls ``on_change`` on the main thread.

Two backends share the interface: :class:`LinkBackend` drives the device link of
``companion_app.device`` (a real dice box, or the emulated one running the real firmware), and
:class:`LocalDice` rolls in-process. The local dice are used only when the device link is not
installed in this checkout.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from companion_app.device.discovery import DiceSource
from companion_app.journal import GameSession
from companion_app.rules.actions import EVENT_DIE_FACES, Roll

PRESS_WAIT_S = 2.0
"""How long an on-screen roll waits for the emulated box to be armed."""

Schedule = Callable[[Callable[[], None]], None]
"""Runs a callable on the app's main thread (Kivy: ``Clock.schedule_once``)."""


@dataclass(frozen=True, slots=True)
class DiceStatus:
    """What the top bar shows about the dice."""

    kind: str
    """"box" (a dice box is connected), "virtual", "reconnecting" or "offline"."""
    text: str


class Backend(Protocol):
    def start(self) -> None: ...
    def attach(self, session: GameSession | None) -> None: ...
    def press(self) -> None: ...
    def sync(self) -> None: ...
    def close(self) -> None: ...


class DiceController:
    """Owns the dice backend; everything it reports reaches the app on the main thread."""

    def __init__(
        self,
        source: DiceSource,
        *,
        schedule: Schedule,
        on_change: Callable[[], None],
        seed: int | None = None,
        backend: str = "auto",
        script: str | None = None,
    ) -> None:
        """``backend``: "auto" (the device link if installed), "link" or "local".

        ``script``: a dice script file (``yellow red event`` a line) the virtual dice roll in
        turn instead of random dice, as the emulator's ``--script`` (tests replay a game).
        """
        self.source = source
        self._schedule = schedule
        self._on_change = on_change
        self.session: GameSession | None = None
        self.last_error = ""
        self.status = DiceStatus(
            "offline",
            "Virtual dice: starting…"
            if source.is_virtual
            else f"Dice box on {source.port}: connecting…",
        )
        use_link = backend == "link" or (backend == "auto" and link_available())
        self._backend: Backend = (
            LinkBackend(self, source, seed=seed, script=script)
            if use_link
            else LocalDice(self, seed=seed)
        )

    @property
    def is_virtual(self) -> bool:
        return self.source.is_virtual

    @property
    def backend_name(self) -> str:
        return type(self._backend).__name__

    @property
    def link(self) -> Any:
        """The device link (``DiceLink``) when the link backend runs, else None."""
        return getattr(self._backend, "link", None)

    @property
    def virtual_box(self) -> Any:
        """The emulated box behind the virtual dice, if the device link runs one (for tests)."""
        return getattr(self._backend, "box", None)

    def start(self) -> None:
        self._backend.start()

    def attach(self, session: GameSession | None) -> None:
        """Rolls from now on go to ``session`` (None: no game on screen, rolls are refused)."""
        self.session = session
        self._backend.attach(session)
        self.sync()

    def press_virtual(self) -> None:
        """The on-screen roll button: a press of the virtual dice box."""
        self._backend.press()

    def sync(self) -> None:
        """Tell the box the game's state: the barbarian track, armed only while a roll is due."""
        self._backend.sync()

    def close(self) -> None:
        self._backend.close()

    # ---- called by the backends (any thread) ------------------------------------------------

    def set_status(self, kind: str, text: str) -> None:
        def update() -> None:
            self.status = DiceStatus(kind, text)
            self._on_change()

        self._schedule(update)

    def changed(self) -> None:
        self._schedule(self._on_change)


def link_available() -> bool:
    """True once the device link (``companion_app.device.link``) is part of the checkout."""
    try:
        importlib.import_module("companion_app.device.link")
        importlib.import_module("companion_app.device.table")
    except ImportError:
        return False
    return True


class LocalDice:
    """In-process virtual dice: a press rolls two fair dice and the event die at once.

    Used only where the device link is missing; the rolls go through the same session and
    the same ``on_change`` as the link's.
    """

    def __init__(self, owner: DiceController, *, seed: int | None) -> None:
        self._owner = owner
        self._rng = random.Random(seed)
        self._session: GameSession | None = None

    def start(self) -> None:
        kind = "virtual" if self._owner.is_virtual else "offline"
        text = "Virtual dice" if self._owner.is_virtual else "Dice box link not available"
        self._owner.set_status(kind, text)

    def attach(self, session: GameSession | None) -> None:
        self._session = session

    def press(self) -> None:
        session = self._session
        if session is None or not session.game.awaiting_roll:
            return
        game = session.game
        yellow, red = game.alchemist_dice or (self._rng.randint(1, 6), self._rng.randint(1, 6))
        event = self._rng.choice(EVENT_DIE_FACES)
        session.apply(Roll(game.prompt.player, yellow, red, event))
        self._owner.changed()

    def sync(self) -> None:
        pass

    def close(self) -> None:
        pass


class LinkBackend:
    """The device link: a dice box on a serial port, or the emulated box for virtual dice.

    Events come on the link's reader thread and are handed to the main thread before they
    touch the session (the journal's connection belongs to the main thread).
    """

    def __init__(
        self,
        owner: DiceController,
        source: DiceSource,
        *,
        seed: int | None,
        script: str | None = None,
    ) -> None:
        self._owner = owner
        self._source = source
        self._seed = seed
        self._script = script
        self._link: Any = None
        self._table: Any = None
        self.box: Any = None
        """The emulated dice box behind the virtual dice (None for a real box)."""
        self._session: GameSession | None = None
        self._press_deadline: float | None = None

    @property
    def link(self) -> Any:
        return self._link

    def start(self) -> None:
        link_mod = importlib.import_module("companion_app.device.link")
        if self._source.is_virtual:
            emulator = importlib.import_module("companion_app.emulator")
            self.box = box = emulator.VirtualDiceBox(seed=self._seed, script=self._script)
            # The emulated port's path may change after an unplug: ask for it at every open.
            opener = link_mod.serial_opener(lambda: box.port)
        else:
            opener = link_mod.discovery_opener(self._source.port)
        self._link = link_mod.DiceLink(opener, self._on_event)
        self._link.start()

    def attach(self, session: GameSession | None) -> None:
        self._session = session
        if session is None or self._link is None:
            self._table = None
            return
        table_mod = importlib.import_module("companion_app.device.table")
        self._table = table_mod.DiceTable(session, self._link)

    def press(self) -> None:
        """Press the emulated box's button once it shows what the game wants (armed).

        The box is armed by a command a few milliseconds after the game starts waiting for dice;
        a tap on the screen in between would meet a disarmed box and roll nothing, so the press
        waits (frame by frame, at most ``PRESS_WAIT_S``) for the box to confirm its state.
        """
        if self.box is None:
            return
        self._press_deadline = time.monotonic() + PRESS_WAIT_S
        self._try_press()

    def _try_press(self) -> None:
        if self._press_deadline is None or self.box is None:
            return
        link = self._link
        if link is not None and link.session.state_confirmed:
            self._press_deadline = None
            self.box.press()
        elif time.monotonic() < self._press_deadline:
            self._owner._schedule(self._try_press)
        else:
            self._press_deadline = None
            self._owner.last_error = "The virtual dice did not answer in time; tap Roll again."
            self._owner._on_change()

    def sync(self) -> None:
        if self._table is not None:
            self._table.sync()
        elif self._link is not None:
            self._link.disarm()

    def close(self) -> None:
        if self._link is not None:
            self._link.close()
        if self.box is not None:
            self.box.close()

    # ---- reader thread --------------------------------------------------------------------

    def _on_event(self, event: Any) -> None:
        self._owner._schedule(lambda: self._handle(event))

    def _handle(self, event: Any) -> None:
        """An event from the link, now on the main thread."""
        name = type(event).__name__
        owner = self._owner
        virtual = self.box is not None
        if name == "Connected":
            info = event.info
            owner.status = (
                DiceStatus("virtual", f"Virtual dice (firmware {info.firmware})")
                if virtual
                else DiceStatus("box", f"Dice box connected, firmware {info.firmware}")
            )
        elif name == "Reconnecting":
            owner.status = DiceStatus(
                "reconnecting", f"Reconnecting to the dice box (attempt {event.attempt})…"
            )
        elif name == "Disconnected":
            owner.status = DiceStatus("offline", f"Dice box disconnected: {event.reason}")
        elif name == "PressedWhileDisarmed":
            owner.last_error = "The dice box was pressed, but no roll is due now."
        elif name == "OfflineRollsOffered":
            owner.last_error = f"{len(event.rolls)} roll(s) made while the tablet was away."
        if self._table is not None:
            self._table.handle(event)
            if self._table.last_error:
                owner.last_error = self._table.last_error
        owner._on_change()
