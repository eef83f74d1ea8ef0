"""Press-to-applied latency over a real pseudo-terminal, for the benchmarks (not a test).

`measure_press_to_applied` presses the emulated box's button and times until the rules core has
applied the roll: firmware -> pty -> `DiceLink` reader thread -> `DiceTable` -> ``Game.apply``.
Between presses random players finish the turn, so every press meets a game waiting for dice.
"""

from __future__ import annotations

import statistics
import threading
import time
from dataclasses import dataclass

from companion_app.device.events import LinkEvent, RollArrived
from companion_app.device.link import DiceLink, serial_opener
from companion_app.device.table import BareGameSession, DiceTable
from companion_app.emulator.box import Emulator
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64


@dataclass(frozen=True)
class LatencyReport:
    samples_ms: tuple[float, ...]

    @property
    def p50_ms(self) -> float:
        return statistics.median(self.samples_ms)

    @property
    def p99_ms(self) -> float:
        ordered = sorted(self.samples_ms)
        return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]

    @property
    def max_ms(self) -> float:
        return max(self.samples_ms)

    def describe(self) -> str:
        return (
            f"press -> roll applied over {len(self.samples_ms)} presses: "
            f"p50 {self.p50_ms:.2f} ms, p99 {self.p99_ms:.2f} ms, max {self.max_ms:.2f} ms"
        )


def measure_press_to_applied(
    presses: int = 200, *, micropython: bool = False, seed: int = 1, timeout_s: float = 5.0
) -> LatencyReport:
    """Time ``presses`` presses from the button to ``Game.apply`` having returned.

    :raises TimeoutError: a roll did not arrive within ``timeout_s``.
    """
    lock = threading.Lock()
    applied = threading.Event()
    game = Game.new(GameConfig.for_players(4, seed=seed))
    session = BareGameSession(game)
    rng = SplitMix64(seed)
    samples: list[float] = []

    with Emulator(micropython=micropython, seed=seed) as emulator:
        table: DiceTable | None = None

        def on_event(event: LinkEvent) -> None:
            with lock:
                assert table is not None
                if isinstance(event, RollArrived):  # as the app's main thread takes it
                    before = len(session.origins)
                    table.take(event.roll)
                    if len(session.origins) > before:
                        table.update_box()  # the owner's one refresh after a change
                        applied.set()

        link = DiceLink(serial_opener(lambda: emulator.port), on_event)
        table = DiceTable(session, link)
        with link:
            for _ in range(presses):
                with lock:
                    _play_to_roll(session, table, rng, seed)
                deadline = time.monotonic() + timeout_s
                while not link.state_confirmed:
                    if time.monotonic() > deadline:
                        raise TimeoutError(f"the box did not confirm its state: {link.status}")
                    time.sleep(0.0005)
                applied.clear()
                start = time.perf_counter()
                emulator.press()
                if not applied.wait(timeout_s):
                    raise TimeoutError(f"no roll applied within {timeout_s} s: {link.status}")
                samples.append((time.perf_counter() - start) * 1000)
    return LatencyReport(tuple(samples))


def _play_to_roll(session: BareGameSession, table: DiceTable, rng: SplitMix64, seed: int) -> None:
    while not (session.game.awaiting_roll and not session.game.is_over):
        if session.game.is_over:
            session.game = Game.new(GameConfig.for_players(4, seed=seed + 1))
        else:
            session.apply(choose_random_action(session.game, rng))
    table.update_box()


if __name__ == "__main__":
    import sys

    vm = "--micropython" in sys.argv
    print(measure_press_to_applied(200, micropython=vm).describe())
