"""Child process of the work-per-roll benchmark (run under Xvfb by `bench.link`).

    python bench/work_probe.py ROLLS OUT.json   (PYTHONPATH: the project tree to measure)

The whole app (`CompanionApp`, its game screen, virtual dice: the emulated box through the
real link, the phones switched on): random players play on the main thread through
``app.apply`` until a roll is due, then the on-screen roll button is pressed. From the press
until the frame after the roll was shown, it counts the app's refreshes, the box states computed
(``box_state``; before it existed, each ``update_box`` worked out the display's ``SHOW``), the
state commands written to the box, the phones' publishes, and the game log's work: full rebuilds
and actions replayed into a log. Counting wraps the functions by name, so the same probe runs
on an earlier tree of the project. Writes ``{"per_roll": {...}, "rolls": n, "errors": [...]}``.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

TIMEOUT_S = 30.0
"""A phase (a roll due, the box confirming, the roll arriving) taking longer is an error."""
STATE_COMMANDS = (b"TRACK", b"ARM", b"DISARM", b"ALCH", b"SHOW", b"ATTACK")


def count_calls(owner: Any, name: str, counts: Counter[str], key: str) -> None:
    """Wrap ``owner.name`` so that each call adds one to ``counts[key]``."""
    original = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        counts[key] += 1
        return original(*args, **kwargs)

    setattr(owner, name, counted)


def instrument(counts: Counter[str]) -> None:
    from companion_app.app.companion import CompanionApp
    from companion_app.device import session as host_session
    from companion_app.device import table
    from companion_app.game_log import GameLog
    from companion_app.phones.table import PhoneTable

    count_calls(CompanionApp, "refresh", counts, "refreshes")
    if hasattr(table, "box_state"):
        count_calls(table, "box_state", counts, "box states computed")
    else:  # before BoxState: each update_box worked out the display once
        count_calls(table, "device_show", counts, "box states computed")
    count_calls(PhoneTable, "publish", counts, "phone publishes")
    count_calls(GameLog, "_apply", counts, "actions replayed into a log")
    sync = GameLog.sync

    def counted_sync(log: Any, history: Any) -> None:
        before = log._replay
        sync(log, history)
        counts["log syncs"] += 1
        if log._replay is not before:
            counts["log rebuilds"] += 1

    GameLog.sync = counted_sync  # type: ignore[method-assign]
    take = host_session.HostSession.take_output

    def counted_take(session: Any) -> bytes:
        data: bytes = take(session)
        for line in data.split(b"\n"):
            if line.strip().split(b" ", 1)[0].split(b"*", 1)[0] in STATE_COMMANDS:
                counts["state commands written"] += 1
        return data

    host_session.HostSession.take_output = counted_take  # type: ignore[method-assign]


def main(rolls: int, out: Path) -> None:
    from companion_app.app.main import configure_kivy

    configure_kivy(1280, 800)
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.uix.popup import Popup

    from companion_app.app.companion import CompanionApp
    from companion_app.device.discovery import DiceSource
    from companion_app.rules.config import GameConfig
    from companion_app.rules.randomplay import choose_random_action
    from companion_app.rules.rng import SplitMix64

    counts: Counter[str] = Counter()
    instrument(counts)
    tmp = tempfile.TemporaryDirectory()
    app = CompanionApp(dice=DiceSource(None), journal_path=Path(tmp.name) / "journal.sqlite3")
    app.announce_events = False
    rng = SplitMix64(5)
    totals: Counter[str] = Counter()
    done: list[int] = [0]
    errors: list[str] = []
    state: dict[str, Any] = {"phase": "start", "since": time.monotonic()}

    def rolls_in(game: Any) -> int:
        return sum(1 for a in game.history if type(a).__name__ == "Roll")

    def confirmed() -> bool:
        link = app.dice.link if app.dice is not None else None
        if link is None:
            return False
        value = getattr(link, "state_confirmed", None)
        if value is None:  # before the locked accessor
            value = link.session.state_confirmed
        return bool(value)

    def play_to_roll() -> None:
        session = app.session
        while not session.game.awaiting_roll:
            if session.game.is_over:
                app.start_game(GameConfig.for_players(4, seed=done[0] + 7))
                session = app.session
                continue
            app.apply(choose_random_action(session.game, rng))

    def tick(_dt: float) -> None:
        phase = state["phase"]
        if time.monotonic() - state["since"] > TIMEOUT_S:
            link = app.dice.link if app.dice is not None else None
            errors.append(
                f"stuck in {phase} after {done[0]} rolls: {getattr(link, 'status', '-')}, "
                f"{getattr(link, 'counters', '-')}, {app.session.game.describe_prompt()}"
            )
            app.stop()
            return
        if phase == "start":
            app.start_game(GameConfig.for_players(4, seed=3))
            app.open_phones()
            for widget in list(Window.children):
                if isinstance(widget, Popup):
                    widget.dismiss()
            state["phase"] = "play"
        elif phase == "play":
            play_to_roll()
            state["phase"] = "confirm"
        elif phase == "confirm" and confirmed():
            state["rolls"] = rolls_in(app.session.game)
            counts.clear()
            app.roll_virtual()
            state["phase"], state["since"] = "wait", time.monotonic()
        elif phase == "wait" and rolls_in(app.session.game) > state["rolls"]:
            state["phase"] = "settle"  # one more frame: what the roll brought is drawn
        elif phase == "settle":
            totals.update(counts)
            done[0] += 1
            if done[0] >= rolls:
                app.stop()
                return
            state["phase"], state["since"] = "play", time.monotonic()
        Clock.schedule_once(tick, 0)

    Clock.schedule_once(tick, 0.5)
    try:
        app.run()
    finally:
        tmp.cleanup()
    per_roll = {key: value / max(1, done[0]) for key, value in sorted(totals.items())}
    result = {"per_roll": per_roll, "rolls": done[0], "errors": errors}
    out.write_text(json.dumps(result), encoding="utf-8")


if __name__ == "__main__":
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    main(int(sys.argv[1]), Path(sys.argv[2]))
