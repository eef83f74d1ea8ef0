"""What the touch-driven UI scenarios share, on both sides of the process boundary.

A scenario runs the real app in its own process under Xvfb (``python <scenario>.py --journal DB
--artifacts DIR --result JSON``). Importing this module configures Kivy's window first, so a
scenario imports it before anything from Kivy. Its steps are a generator: a step yields a
number of frames to wait, or a condition to wait for (at least ``WAIT_FRAMES`` frames and
``WAIT_SECONDS`` seconds before it fails), and taps
real widgets with Kivy's test touches in between. Every check is recorded with what was shown
and what the rules core expected; the result file carries them back to the pytest side
(``scenario_run.run_scenario``), where a test asserts on them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from companion_app.app.main import configure_kivy
from companion_app.i18n import render

# A second size for looking at the largest layout by hand: UI_SCENARIO_SIZE=1920x1200.
_W, _H = (int(v) for v in os.environ.get("UI_SCENARIO_SIZE", "1280x800").split("x"))
configure_kivy(_W, _H)

from kivy.clock import Clock  # noqa: E402

from companion_app.app.companion import CompanionApp  # noqa: E402
from companion_app.app.tour.driver import ScenarioDriver as _Driver  # noqa: E402
from companion_app.app.tour.driver import Step  # noqa: E402
from companion_app.app.tour.waiting import WAIT_FRAMES, WAIT_SECONDS  # noqa: E402
from companion_app.device.discovery import DiceSource  # noqa: E402

__all__ = ["WAIT_FRAMES", "WAIT_SECONDS", "ScenarioDriver", "Step", "scenario_main"]


class ScenarioDriver(_Driver):
    """The app's driver (shared with the screenshot tour), with a result for the test side.

    Every screenshot is also a privacy check: no progress card still in a hand is readable on
    the screen unless its owner uncovered it (or the game is over).
    """

    def shot(self, name: str) -> Step:
        yield from super().shot(name)
        self.no_private_card_visible(name)

    def shot_once(self, name: str) -> Step:
        """:meth:`shot` the first time; again later, the privacy check of the same moment
        without drawing the PNG once more."""
        if name not in self.screens:
            yield from self.shot(name)
            return
        yield 3
        self.no_private_card_visible(name)

    def no_private_card_visible(self, name: str) -> None:
        leaks = private_cards_visible(self.app)
        self.check(f"{name}: no progress card of a hand is visible", leaks, [])

    def result(self) -> dict[str, Any]:
        """What goes back to the test: the checks and the game as the journal has it."""
        app = self.app
        session = app.session
        return {
            "error": self.error,
            "checks": self.checks,
            "failures": [c for c in self.checks if not c["ok"]],
            "screens": self.screens,
            "dice_link": type(app.dice.link).__name__ if app.dice else "",
            "game_id": session.game_id if session else None,
            "actions": [a.to_json() for a in session.game.history] if session else [],
            "state": session.game.to_json() if session else None,
        }


def scenario_main(make: Callable[[CompanionApp, Path], ScenarioDriver], *, dice_seed: int) -> int:
    """The scenario process: the app with virtual dice and a fresh journal, driven to the end."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--journal", type=Path, required=True)
    parser.add_argument("--artifacts", type=Path, required=True)
    parser.add_argument("--result", type=Path, required=True)
    args = parser.parse_args()
    app = CompanionApp(dice=DiceSource(None), journal_path=args.journal, dice_seed=dice_seed)
    scenario = make(app, args.artifacts)
    Clock.schedule_interval(scenario.tick, 0)
    app.run()
    args.result.write_text(json.dumps(scenario.result(), indent=1))
    return 0


def _shown(widget: Any) -> bool:
    while widget is not None:
        if getattr(widget, "opacity", 1) <= 0:
            return False
        parent = widget.parent
        widget = parent if parent is not widget else None
    return True


def private_cards_visible(app: CompanionApp) -> list[str]:
    """Progress cards in hands whose titles some visible label shows, other than the
    uncovered owner's, those in the public log (another copy played) and at the game's end."""
    from kivy.core.window import Window

    from companion_app.app.widgets.game_log_view import GameLogView
    from companion_app.game_log import GameLog

    session = app.session
    root = app.root
    if session is None or root is None or session.game.is_over:
        return []
    game = session.game
    screen = root.current_screen
    uncovered: set[int] = set()
    if screen.name == "hand" and not screen.covered:
        uncovered.add(screen.seat)
    if screen.name == "game" and screen.controller.revealed:
        uncovered |= {game.prompt.player, game.card_target}
    texts = []
    for layer in Window.children:
        for widget in layer.walk():
            if isinstance(widget, GameLogView) or any(
                isinstance(p, GameLogView) for p in _parents(widget)
            ):
                continue
            text = getattr(widget, "text", None)
            if isinstance(text, str) and text and _shown(widget):
                texts.append(text.replace("\u00a0", " "))  # a no-break space reads as one
    shown = "\n".join(texts)
    log = app.game_log if app.game_log is not None else GameLog.of(game)
    log.sync(game.history)
    public = "\n".join(render(w) for w in log.words_for(None))
    found = []
    # A title the uncovered owner holds is theirs to see, whoever else holds another copy.
    own = {card for seat in uncovered for card in game.progress_hand(seat)}
    for seat in range(game.player_count):
        if seat in uncovered:
            continue
        for card in set(game.progress_hand(seat)) - own:
            title = str(card.title)
            pattern = rf"(?<!Master )\b{title}\b(?! Guild| Fleet)"
            if re.search(pattern, shown) and title not in public:
                found.append(f"{game.config.names[seat]}'s {title} on {screen.name}")
    return sorted(found)


def _parents(widget: Any) -> list[Any]:
    out = []
    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        out.append(parent)
        parent = parent.parent
    return out
