"""Child process of the language-switch benchmark (run under Xvfb by `bench.language`).

    python -m bench.language_probe SWITCHES OUT.json

The whole app at 1024x600 (`CompanionApp`, virtual dice) on the game screen of a game played
by random players to turn 8. Each sample switches the table's language (English, German,
Vietnamese, Czech, Polish, Catalan in turn) and ends at the window's next flip: every Kivy rule's
words read again, the game screen redrawn from the game, laid out and drawn. The anchor, in the
same process, in turn with the switches: a refresh of the game screen in the same language
(``app.refresh()``, what every tap costs) to the next flip. Writes ``{"switch_ms": [...],
"refresh_ms": [...], "errors": [...]}``.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

LANGUAGES = ("de", "vi", "cs", "pl", "ca", "en")
TURNS = 8


def main(switches: int, out: Path) -> None:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from companion_app.app.main import configure_kivy

    configure_kivy(1024, 600)
    from kivy.clock import Clock
    from kivy.core.window import Window

    from companion_app.app.companion import CompanionApp
    from companion_app.device.discovery import DiceSource
    from companion_app.rules.config import GameConfig
    from companion_app.rules.randomplay import choose_random_action
    from companion_app.rules.rng import SplitMix64

    result: dict[str, Any] = {"switch_ms": [], "refresh_ms": [], "errors": []}
    tmp = tempfile.TemporaryDirectory()
    app = CompanionApp(
        dice=DiceSource(None), journal_path=Path(tmp.name) / "journal.sqlite3", language="en"
    )
    state: dict[str, Any] = {"n": 0, "started": 0.0, "kind": ""}

    def flipped(*_args: object) -> None:
        if not state["kind"]:
            return
        elapsed = (time.perf_counter() - state["started"]) * 1000
        result["switch_ms" if state["kind"] == "switch" else "refresh_ms"].append(elapsed)
        state["kind"] = ""
        Clock.schedule_once(lambda _dt: step(), 0)

    def step() -> None:
        n = state["n"]
        if n >= 2 * switches:
            Window.unbind(on_flip=flipped)
            app.stop()
            return
        state["n"] = n + 1
        state["started"] = time.perf_counter()
        if n % 2 == 0:
            state["kind"] = "switch"
            app.switch_language(LANGUAGES[(n // 2) % len(LANGUAGES)])
        else:
            state["kind"] = "refresh"
            app.refresh()
        Window.canvas.ask_update()  # a frame is drawn even where nothing on screen changed

    def begin(_dt: float) -> None:
        try:
            app.start_game(GameConfig.for_players(4, seed=3))
            session = app.session
            assert session is not None
            rng = SplitMix64(3)
            while session.game.turn < TURNS and not session.game.is_over:
                session.apply(choose_random_action(session.game, rng))
            app.refresh()
        except Exception as exc:  # reported, never a traceback in the table
            result["errors"].append(f"{type(exc).__name__}: {exc}")
            app.stop()
            return
        Window.bind(on_flip=flipped)
        Clock.schedule_once(lambda _dt: step(), 0.5)

    Clock.schedule_once(begin, 0.5)
    app.run()
    out.write_text(json.dumps(result))
    tmp.cleanup()


if __name__ == "__main__":
    main(int(sys.argv[1]), Path(sys.argv[2]))
