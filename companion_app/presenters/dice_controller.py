"""The app's one door to the dice: a dice box, or the virtual dice, behind the same calls.

Screens never talk to the serial link. They call :meth:`DiceController.press_virtual` for the
on-screen roll button, :meth:`DiceController.apply_unexpected` after a change of the game by
hand (a roll that came while none was due is applied once one is), and the app's one refresh
calls :meth:`DiceController.update_box` (the box's barbarian LEDs, its display and its armed
state follow `device.box_state.box_state`, computed once; the link sends only what changed;
this never applies anything), and read :attr:`DiceController.status` for the top bar.

Each link event is handled once, here (:meth:`DiceController._handle`), on the main thread: its
words for the top bar, and a roll applied to the journal session (committed before it is
acknowledged); then ``on_change`` (the app's refresh, which updates the box).

Virtual and real dice take the same path: `companion_app.device.dice.open_box` starts the
device link to the dice box, `companion_app.emulator.virtual.open_virtual_dice` the same link
to the emulated box running the real firmware for the virtual dice (the one place the app opens
the emulator), and `DiceTable` applies the rolls. Link events arrive on the link's reader thread
and are handed to the main thread before they touch the session (the journal's connection
belongs to the main thread).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from companion_app.device.dice import Dice, VirtualBox, open_box
from companion_app.device.discovery import DiceSource
from companion_app.device.events import (
    Connected,
    Disconnected,
    LinkEvent,
    OfflineRollsOffered,
    PressedWhileDisarmed,
    PressedWhileFull,
    Reconnecting,
    RollArrived,
)
from companion_app.device.link import DiceLink
from companion_app.device.table import DiceTable
from companion_app.i18n.current import _, n_, render
from companion_app.journal import GameSession
from companion_app.rules.messages import Msg, msg

PRESS_SLOW_S = 2.0
"""An on-screen roll still waiting for the emulated box to be armed after this long: the top bar
says so (the press still goes through once the box is ready)."""

Schedule = Callable[[Callable[[], None]], None]
"""Runs a callable on the app's main thread (Kivy: ``Clock.schedule_once``)."""


@dataclass(frozen=True, slots=True)
class DiceStatus:
    """What the top bar shows about the dice."""

    kind: str
    """"box" (a dice box is connected), "virtual", "reconnecting" or "offline"."""
    words: Msg

    @property
    def text(self) -> str:
        """The status in the table's language now (it follows a switch)."""
        return render(self.words)


class DiceController:
    """Owns the dice link; everything it reports reaches the app on the main thread."""

    def __init__(
        self,
        source: DiceSource,
        *,
        schedule: Schedule,
        on_change: Callable[[], None],
        seed: int | None = None,
        script: str | None = None,
    ) -> None:
        """``script``: a dice script file (``yellow red event`` a line) the virtual dice roll in
        turn instead of random dice, as the emulator's ``--script`` (tests replay a game)."""
        self.source = source
        self._schedule = schedule
        self._on_change = on_change
        self._seed = seed
        self._script = script
        self.session: GameSession | None = None
        self.last_error = ""
        self.status = DiceStatus(
            "offline",
            msg("Virtual dice: starting…")
            if source.is_virtual
            else msg("Dice box on {port}: connecting…", port=str(source.port)),
        )
        self._dice: Dice | None = None
        self._table: DiceTable | None = None
        self._press_since: float | None = None  # an on-screen roll waits for the box since
        self._told_slow = False

    @property
    def is_virtual(self) -> bool:
        return self.source.is_virtual

    @property
    def link(self) -> DiceLink | None:
        return None if self._dice is None else self._dice.link

    @property
    def virtual_box(self) -> VirtualBox | None:
        """The emulated box behind the virtual dice (None for a real box)."""
        return None if self._dice is None else self._dice.virtual

    @property
    def table(self) -> DiceTable | None:
        """The glue between the link and the game on screen (unexpected and offline rolls)."""
        return self._table

    def start(self) -> None:
        if self.source.is_virtual:
            from companion_app.emulator.virtual import open_virtual_dice

            self._dice = open_virtual_dice(self._on_event, seed=self._seed, script=self._script)
        else:
            self._dice = open_box(self.source, self._on_event)
        self.attach(self.session)

    def attach(self, session: GameSession | None) -> None:
        """Rolls from now on go to ``session`` (None: no game on screen, the box is disarmed).
        The box learns the game at the owner's next refresh (`update_box`)."""
        self.session = session
        self._press_since = None
        link = self.link
        self._table = None if session is None or link is None else DiceTable(session, link)
        if self._table is None and link is not None:
            link.want(None)

    def press_virtual(self) -> None:
        """The on-screen roll button: a press of the virtual dice box once it is armed.

        The box is armed by a command a few milliseconds after the game starts waiting for dice;
        a tap on the screen in between would meet a disarmed box and roll nothing, so the press
        waits, frame by frame, for the box to confirm its state: as long as the game waits for a
        roll, however long that takes on a loaded tablet (after ``PRESS_SLOW_S`` the top bar
        says so). A tap is never dropped for being slow.
        """
        if self.virtual_box is None:
            return
        self._press_since = time.monotonic()
        self._told_slow = False
        self._try_press()

    def _try_press(self) -> None:
        box, link, session = self.virtual_box, self.link, self.session
        if self._press_since is None or box is None or link is None:
            return
        game = session.game if session is not None else None
        if game is None or not game.awaiting_roll or game.is_over:
            self._press_since = None  # no roll is due any more (an undo, another game)
            return
        table = self._table
        if table is not None and table.shown is None:
            # The dice started after the game was opened and no refresh has told the box the
            # game since: its confirmed state is "no game", a press would meet it disarmed.
            table.update_box()
        if link.state_confirmed:
            self._press_since = None
            box.press()
            return
        if not self._told_slow and time.monotonic() - self._press_since >= PRESS_SLOW_S:
            self._told_slow = True
            self.last_error = _(
                "The virtual dice are slow to answer; the roll follows when they do."
            )
            self._on_change()
        self._schedule(self._try_press)

    def apply_unexpected(self) -> None:
        """After a change of the game by hand: rolls that came while none was due are applied
        if one is due now (a press that crossed an undo). The caller refreshes the screen."""
        if self._table is not None:
            self._table.apply_unexpected()
            if self._table.last_error:
                self.last_error = self._table.last_error

    def update_box(self) -> None:
        """Tell the box the game's state (`box_state`: the barbarian track, the display, armed
        only while a roll is due), once per refresh. Never changes the game."""
        if self._table is not None:
            self._table.update_box()

    def close(self) -> None:
        self._press_since = None
        if self._dice is not None:
            self._dice.close()

    # ---- from the link's reader thread ------------------------------------------------------

    def _on_event(self, event: LinkEvent) -> None:
        self._schedule(lambda: self._handle(event))

    def _handle(self, event: LinkEvent) -> None:
        """An event from the link, now on the main thread: the one place each is handled."""
        table = self._table
        if isinstance(event, RollArrived):
            if table is not None:
                table.take(event.roll)
        elif isinstance(event, OfflineRollsOffered):
            if table is not None:
                table.offer(event.rolls)
            self.last_error = n_(
                "{count} roll made while the tablet was away.",
                "{count} rolls made while the tablet was away.",
                len(event.rolls),
            )
        elif isinstance(event, Connected):
            firmware = event.info.firmware
            self.status = (
                DiceStatus("virtual", msg("Virtual dice (firmware {firmware})", firmware=firmware))
                if self.is_virtual
                else DiceStatus(
                    "box", msg("Dice box connected, firmware {firmware}", firmware=firmware)
                )
            )
        elif isinstance(event, Reconnecting):
            self.status = DiceStatus(
                "reconnecting",
                msg("Reconnecting to the dice box (attempt {number})…", number=event.attempt),
            )
        elif isinstance(event, Disconnected):
            self.status = DiceStatus(
                "offline", msg("Dice box disconnected: {reason}", reason=str(event.reason))
            )
        elif isinstance(event, PressedWhileDisarmed):
            self.last_error = _("The dice box was pressed, but no roll is due now.")
        elif isinstance(event, PressedWhileFull):
            self.last_error = _(
                "The dice box holds 64 rolls the tablet has not taken yet; nothing was rolled."
            )
        if table is not None and table.last_error:
            self.last_error = table.last_error
        self._on_change()
