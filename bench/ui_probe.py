"""Child process of the press → next UI frame benchmark (run under Xvfb by `bench.link`).

    python -m bench.ui_probe PRESSES OUT.json

A small Kivy window and the app's own dice door, `DiceController` (virtual dice: the emulated box
running the real firmware behind a pty, the device link, `DiceTable`, a journal session). Each
sample: the button of the emulated box is pressed, the roll travels the link, is applied and
committed on the main thread, ``on_change`` updates a label, and the sample ends at the window's
next flip. Between presses random players finish the turn on the main thread, so every press meets
a game waiting for dice. Writes ``{"samples_ms": [...]}`` to OUT.json.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

TIMEOUT_S = 10.0


def main(presses: int, out: Path) -> None:
    from companion_app.app.main import configure_kivy

    configure_kivy(640, 400)  # the app's own Kivy settings, its clock among them
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.uix.label import Label

    from companion_app.device.discovery import DiceSource
    from companion_app.journal.store import Journal
    from companion_app.presenters.dice_controller import DiceController
    from companion_app.rules.config import GameConfig
    from companion_app.rules.randomplay import choose_random_action
    from companion_app.rules.rng import SplitMix64

    samples: list[float] = []
    errors: list[str] = []

    def on_main(fn: Callable[[], None]) -> None:
        Clock.schedule_once(lambda _dt: fn(), 0)

    class Probe(App):
        def build(self) -> Label:
            self.label = Label(text="waiting for dice", font_size=40)
            return self.label

        def on_start(self) -> None:
            self.tmp = tempfile.TemporaryDirectory()
            self.journal = Journal(Path(self.tmp.name) / "journal.sqlite3")
            self.rng = SplitMix64(1)
            self.session = self.journal.new_game(GameConfig.for_players(4, seed=1))
            self.rolls_seen = 0
            self.press_start = 0.0
            self.ready = threading.Event()  # the game waits for dice and the box knows it
            self.framed = threading.Event()
            self.controller = DiceController(
                DiceSource(None), schedule=on_main, on_change=self.changed, seed=1
            )
            self.controller.start()
            self.controller.attach(self.session)
            threading.Thread(target=self.drive, daemon=True).start()

        def rolls(self) -> int:
            return sum(1 for a in self.session.game.history if type(a).__name__ == "Roll")

        def to_next_roll(self) -> None:
            """Main thread: random players play until the game waits for dice."""
            game = self.session.game
            while not game.awaiting_roll:
                if game.is_over:
                    self.session = self.journal.new_game(GameConfig.for_players(4, seed=2))
                    self.controller.attach(self.session)
                else:
                    self.session.apply(choose_random_action(game, self.rng))
                game = self.session.game
            self.rolls_seen = self.rolls()
            self.controller.update_box()
            self.ready.set()

        def changed(self) -> None:
            """Main thread, after every change the dice report."""
            if self.rolls() > self.rolls_seen and not self.framed.is_set():
                self.rolls_seen = self.rolls()
                self.label.text = f"roll {self.rolls_seen}"

                def flipped(*_args: Any) -> None:
                    Window.unbind(on_flip=flipped)
                    samples.append((time.perf_counter() - self.press_start) * 1000)
                    self.framed.set()

                Window.bind(on_flip=flipped)

        def confirmed(self) -> bool:
            link = self.controller.link
            return link is not None and bool(link.state_confirmed)

        def drive(self) -> None:
            try:
                for _ in range(presses):
                    self.ready.clear()
                    self.framed.clear()
                    on_main(self.to_next_roll)
                    if not self.ready.wait(TIMEOUT_S):
                        raise TimeoutError("the game did not reach a roll")
                    deadline = time.monotonic() + TIMEOUT_S
                    while not self.confirmed():
                        if time.monotonic() > deadline:
                            status = getattr(self.controller.link, "status", "?")
                            raise TimeoutError(
                                f"the box did not confirm the game's state "
                                f"(press {len(samples) + 1}, link: {status})"
                            )
                        time.sleep(0.0005)
                    self.press_start = time.perf_counter()
                    self.controller.press_virtual()
                    if not self.framed.wait(TIMEOUT_S):
                        raise TimeoutError("no frame after a press")
            except Exception as exc:
                errors.append(f"{type(exc).__name__}: {exc}")
            on_main(self.stop)

        def on_stop(self) -> None:
            self.controller.close()
            self.journal.close()
            self.tmp.cleanup()

    Probe().run()
    out.write_text(json.dumps({"samples_ms": samples, "errors": errors}), encoding="utf-8")


if __name__ == "__main__":
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    main(int(sys.argv[1]), Path(sys.argv[2]))
