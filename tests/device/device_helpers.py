"""Helpers for the device tests: a table that plays random games around an emulated dice box."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable

from companion_app.device.events import (
    LinkEvent,
    OfflineRollsOffered,
    PressedWhileDisarmed,
    RollArrived,
)
from companion_app.device.link import DiceLink, serial_opener
from companion_app.device.table import BareGameSession, DiceTable
from companion_app.emulator import Emulator
from companion_app.rules.actions import Roll
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64


class RandomTable:
    """Random players at a table whose dice are the emulated box, through the real link.

    The test thread plays: link events are queued by the link's reader thread and handled
    here, as the app's main thread would.
    """

    def __init__(self, emulator: Emulator, seed: int) -> None:
        self.emulator = emulator
        self.seed = seed
        self.events: queue.Queue[LinkEvent] = queue.Queue()
        self.seen: list[LinkEvent] = []
        self.link = DiceLink(serial_opener(lambda: emulator.port), self.events.put)
        self.games: list[Game] = [self._new_game()]
        self.session = BareGameSession(self.games[0])
        self.table = DiceTable(self.session, self.link)
        self.rng = SplitMix64(seed)
        self.presses = 0

    def _new_game(self) -> Game:
        return Game.new(GameConfig.for_players(4, seed=self.seed + len(getattr(self, "games", []))))

    def __enter__(self) -> RandomTable:
        self.link.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.link.close()

    def pump(self, timeout: float) -> LinkEvent | None:
        try:
            event = self.events.get(timeout=timeout)
        except queue.Empty:
            return None
        self.seen.append(event)
        if isinstance(event, RollArrived):  # as the app's main thread takes them
            self.table.take(event.roll)
        elif isinstance(event, OfflineRollsOffered):
            self.table.offer(event.rolls)
        self.table.update_box()
        return event

    def wait_for(self, done: Callable[[], bool], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not done():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.pump(min(left, 0.001))
        return True

    def play_to_roll(self) -> None:
        """Random play until the game waits for the dice; a new game when one ends."""
        while True:
            game = self.session.game
            if game.is_over:
                game = self._new_game()
                self.games.append(game)
                self.session.game = game
            action = choose_random_action(game, self.rng)
            if game.awaiting_roll and isinstance(action, Roll):
                self.table.apply_unexpected()
                self.table.update_box()
                if self.session.game.awaiting_roll:
                    return  # the box rolls (the random roll is not used)
                continue  # an unexpected roll was applied: play on
            self.session.apply(action)  # incl. what comes before a roll, e.g. an Alchemist
            self.table.apply_unexpected()
            self.table.update_box()

    def roll_once(self, timeout: float = 20.0) -> None:
        """Play to the next roll, press the box's button, wait until a roll is applied.

        The press is repeated only when the box said it was disarmed (its ARM was lost on the
        way) or nothing at all came back within 3 s (its PRESS line was lost).
        """
        self.play_to_roll()
        before = len(self.session.origins)
        deadline = time.monotonic() + timeout
        while len(self.session.origins) == before:
            assert time.monotonic() < deadline, (
                f"no roll applied; link {self.link.counters}, status {self.link.status}"
            )
            if not self.wait_for(lambda: self.link.state_confirmed, 5.0):
                continue
            refused = self.refused_presses()
            self.emulator.press()
            self.presses += 1
            self.wait_for(lambda n=refused: self._answered(before, n), 3.0)

    def _answered(self, applied_before: int, refused_before: int) -> bool:
        applied = len(self.session.origins) > applied_before
        return applied or self.refused_presses() > refused_before

    def refused_presses(self) -> int:
        return sum(isinstance(e, PressedWhileDisarmed) for e in self.seen)

    def roll_actions(self) -> list[Roll]:
        return [a for g in self.games for a in g.history if isinstance(a, Roll)]

    def applied(self) -> list[tuple[str, int, int, int, str]]:
        """(boot, seq, yellow, red, event) of each box roll applied, in order: the origins the
        session committed, with the dice of the roll actions they became (every roll of these
        games comes from the box)."""
        keys = [origin.split(":")[2:] for origin in self.session.origins]
        rolls = self.roll_actions()
        assert len(keys) == len(rolls)
        return [
            (boot, int(seq), a.yellow, a.red, a.event.value)
            for (boot, seq), a in zip(keys, rolls, strict=True)
        ]
