"""What the touch-driven UI scenarios share, on both sides of the process boundary.

A scenario runs the real app in its own process under Xvfb (``python <scenario>.py --journal DB
--artifacts DIR --result JSON``). Importing this module configures Kivy's window first, so a
scenario imports it before anything from Kivy. Its steps are a generator: a step yields a
number of frames to wait, or a condition to wait for (at most ``WAIT_FRAMES`` frames), and taps
real widgets with Kivy's test touches in between. Every check is recorded with what was shown
and what the rules core expected; the result file carries them back to the pytest side
(``scenario_run.run_scenario``), where a test asserts on them.
"""

from __future__ import annotations

import argparse
import json
import os
import traceback
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from companion_app.app.main import configure_kivy

# A second size for looking at the largest layout by hand: UI_SCENARIO_SIZE=1920x1200.
_W, _H = (int(v) for v in os.environ.get("UI_SCENARIO_SIZE", "1280x800").split("x"))
configure_kivy(_W, _H)

from kivy.clock import Clock  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402

from companion_app.app.companion import CompanionApp, save_screenshot  # noqa: E402
from companion_app.device.discovery import DiceSource  # noqa: E402

WAIT_FRAMES = 600
"""The most frames a step waits for the app (a roll through the emulated box takes a few)."""

Step = Generator[int | Callable[[], bool], None, None]


class ScenarioDriver:
    """Runs :meth:`steps` one frame at a time inside the app's own event loop."""

    def __init__(self, app: CompanionApp, artifacts: Path) -> None:
        self.app = app
        self.artifacts = artifacts
        self.checks: list[dict[str, Any]] = []
        self.screens: list[str] = []
        self.error = ""
        self._steps = self.steps()
        self._waiting: Callable[[], bool] | None = None
        self._frames = 0
        self._budget = 0

    def steps(self) -> Step:
        raise NotImplementedError

    def tick(self, _dt: float) -> bool:
        try:
            if self._frames > 0:
                self._frames -= 1
                return True
            if self._waiting is not None:
                if not self._waiting():
                    self._budget -= 1
                    if self._budget <= 0:
                        raise TimeoutError("the app did not reach the awaited state")
                    return True
                self._waiting = None
            wait = next(self._steps)
            if callable(wait):
                self._waiting, self._budget = wait, WAIT_FRAMES
            else:
                self._frames = wait
            return True
        except StopIteration:
            self.app.stop()
            return False
        except Exception:
            self.error = traceback.format_exc()
            self.app.stop()
            return False

    def check(self, name: str, shown: object, expected: object) -> None:
        ok = shown == expected
        self.checks.append(
            {"name": name, "ok": ok, "shown": repr(shown), "expected": repr(expected)}
        )

    def tap_at(self, x: float, y: float) -> None:
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()

    def tap_widget(self, widget: Any) -> None:
        self.tap_at(*widget.to_window(*widget.center))

    def tap(self, widget: Any) -> Step:
        """Tap ``widget`` and give the app a few frames to follow."""
        self.tap_widget(widget)
        yield 3

    def shot(self, name: str) -> Step:
        yield 3
        save_screenshot(self.artifacts / name)
        self.screens.append(name)

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
