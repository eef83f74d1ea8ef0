"""The dice box at the table: rolls from the link go into the game, the game's state goes back
to the box. No Kivy here: the app's one door to the dice (`DiceController`) hands it each
roll the link reports (`take`, `offer`) on its main thread, calls `apply_unexpected` after each
change of the game by hand (a tap, undo, redo, resume), and `update_box` once whenever the
screen follows the game. Only `take` and `apply_unexpected` (and a person's decision on offline
rolls) ever apply a roll: updating the box never does, and applying a roll never updates the
box (the owner's one refresh after it does).

Policies:

- **Acknowledge after commit.** A roll is acknowledged only after ``session.apply`` returned,
  i.e. after the journal committed it; if the app dies in between, the box sends it again.
- **Exactly once.** Rolls are keyed by (device id, boot id, sequence number), committed with
  the roll as the journal's ``origin``: a roll whose origin the game has is never applied again
  (its ACK is repeated instead, in case the first one was lost). The journal is the one memory
  of what was applied, so this holds across a crash of the app between the commit and the ACK:
  the box resends, the restarted app recognises it.
- **A roll the game does not wait for is unexpected**, neither applied nor acknowledged: the
  box keeps offering it, and the oldest unexpected roll is applied as soon as the game waits for
  a roll (`apply_unexpected`). This only happens in races (a press crossing an undo on the
  tablet, or the box's DISARM lost on the way), so the press is honoured rather than silently
  dropped. `discard_unexpected` lets a person throw such rolls away (they are acknowledged).
  (Not to be confused with a roll the link holds back until an earlier one arrives: the table
  never sees those before their turn.)
- **After an Alchemist** the production dice are the ones the player chose: if a roll comes
  without them (pressed before the box had the ``ALCH``), its event die counts and the chosen
  dice replace the rolled ones, which is what the box would have reported.
- **A roll the rules refuse** is dropped with its reason in `rejected` (and acknowledged, so
  it does not block the rolls behind it). A roll that could not be committed (the journal
  failed) is kept and not acknowledged; `last_error` says why.
- **Offline rolls are offered, not applied**: they were rolled while the tablet was away and
  the game may have moved on by hand. They wait in `offline` until `apply_offline` (into the
  game, if it waits for a roll) or `dismiss_offline` (acknowledged and forgotten).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Final, Protocol

from companion_app.device.box_state import BoxState, box_state
from companion_app.device.events import DeviceRoll
from companion_app.i18n import render_error
from companion_app.rules.actions import Action, Roll
from companion_app.rules.errors import IllegalActionError
from companion_app.rules.game import Game

log = logging.getLogger(__name__)

REJECTED_KEPT: Final = 1024
"""Refused rolls kept with their reasons, for the status screen and the tests."""


class GameSessionLike(Protocol):
    """What the table needs of a game session (the journal's ``GameSession`` has it)."""

    @property
    def game(self) -> Game: ...

    def apply(self, action: Action, *, origin: str | None = None) -> Any:
        """Apply and commit with its origin; return only once the action is durable."""

    def has_origin(self, origin: str) -> bool:
        """An action from ``origin`` was committed to this game before (even before a crash)."""


class LinkCommands(Protocol):
    """The commands of `link.DiceLink` the table uses."""

    def acknowledge(self, roll: DeviceRoll) -> None: ...
    def want(self, state: BoxState | None, *, first: bool = False) -> None: ...


class DiceTable:
    """Glue between one game session and one dice link."""

    def __init__(self, session: GameSessionLike, link: LinkCommands) -> None:
        self.session = session
        self.link = link
        self.unexpected: list[DeviceRoll] = []
        """Rolls not applied yet, oldest first: they came while the game did not wait for one
        (or the journal could not commit them; `last_error` says why)."""
        self.offline: list[DeviceRoll] = []
        """Rolls made while no host listened, offered for a decision."""
        self.rejected: list[tuple[DeviceRoll, str]] = []
        """Rolls the rules refused, with the reason (the latest 1024)."""
        self.last_error: str | None = None
        self.shown: BoxState | None = None
        """The state last handed to the link (it sends what differs from the box's)."""
        self.states_computed = 0
        """`box_state` computations (one per `update_box`), for the benchmarks and tests."""

    # ---- from the link (on the owner's thread) ----------------------------------------------

    def take(self, roll: DeviceRoll) -> None:
        """A roll made while the host listened: applied if the game waits for one, else kept
        in `unexpected`; acknowledged again if the game has it already."""
        if self._applied_before(roll):
            self.link.acknowledge(roll)  # applied before: our ACK got lost
            return
        if any(waiting.key == roll.key for waiting in self.unexpected):
            return
        self.unexpected.append(roll)
        self.apply_unexpected()

    def offer(self, rolls: Sequence[DeviceRoll]) -> None:
        """Rolls made while no host listened: kept for a person's decision (those the game
        has already are acknowledged)."""
        known = {roll.key for roll in self.offline}
        for roll in rolls:
            if self._applied_before(roll):
                self.link.acknowledge(roll)
            elif roll.key not in known:
                self.offline.append(roll)
                known.add(roll.key)

    def _applied_before(self, roll: DeviceRoll) -> bool:
        return self.session.has_origin(roll.origin)

    # ---- into the game ---------------------------------------------------------------------

    def apply_unexpected(self) -> int:
        """Apply the rolls that came while the game did not wait for one, oldest first, as long
        as it waits for one now; how many were taken (applied, or refused by the rules)."""
        taken = 0
        while self.unexpected:
            game = self.session.game
            if not game.awaiting_roll or game.is_over:
                break
            roll = self.unexpected[0]
            if not self._apply(roll):
                break
            self.unexpected.pop(0)
            taken += 1
        return taken

    # ---- to the box ------------------------------------------------------------------------

    def update_box(self) -> None:
        """Tell the box what the game shows (`box_state`, computed once); the link sends only
        what differs. Never applies anything to the game."""
        state = box_state(self.session.game)
        self.states_computed += 1
        if state != self.shown:
            first, self.shown = self.shown is None, state
            self.link.want(state, first=first)

    def _apply(self, roll: DeviceRoll) -> bool:
        """Apply and acknowledge ``roll``; True when it is done with (applied or refused)."""
        game = self.session.game
        yellow, red = game.alchemist_dice or (roll.yellow, roll.red)
        action = Roll(game.active, yellow, red, roll.event)
        try:
            self.session.apply(action, origin=roll.origin)
        except IllegalActionError as exc:
            self.last_error = f"roll {roll.seq} refused: {render_error(exc)}"
            log.warning("%s", self.last_error)
            self.rejected.append((roll, str(exc)))
            del self.rejected[:-REJECTED_KEPT]
            self.link.acknowledge(roll)
            return True
        except Exception as exc:  # not committed: keep the roll, the box keeps offering it
            self.last_error = f"roll {roll.seq} not applied: {exc}"
            log.warning("%s", self.last_error)
            return False
        self.last_error = None
        self.link.acknowledge(roll)
        return True

    # ---- decisions a person makes ----------------------------------------------------------

    def discard_unexpected(self) -> list[DeviceRoll]:
        """Throw away the unexpected rolls (acknowledged, so the box forgets them)."""
        dropped, self.unexpected = self.unexpected, []
        for roll in dropped:
            self.link.acknowledge(roll)
        return dropped

    def apply_offline(self) -> DeviceRoll | None:
        """Apply the oldest offline roll, if the game waits for a roll; it is then acked.

        Returns it (also when the rules refused it: see `rejected`), or None if not now.
        """
        game = self.session.game
        if not self.offline or not game.awaiting_roll or game.is_over:
            return None
        roll = self.offline[0]
        if not self._apply(roll):
            return None
        self.offline.pop(0)
        return roll

    def dismiss_offline(self) -> list[DeviceRoll]:
        """Forget the offline rolls (acknowledged without touching the game)."""
        dropped, self.offline = self.offline, []
        for roll in dropped:
            self.link.acknowledge(roll)
        return dropped


class BareGameSession:
    """A `GameSessionLike` over a bare Game (tests, benchmarks): apply without a journal.
    ``origins`` keeps the origins applied, in order (a journal keeps them with its rows)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.origins: dict[str, None] = {}

    def apply(self, action: Action, *, origin: str | None = None) -> None:
        self.game.apply(action)
        if origin is not None:
            self.origins[origin] = None

    def has_origin(self, origin: str) -> bool:
        return origin in self.origins
