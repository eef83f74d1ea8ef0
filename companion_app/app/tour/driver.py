"""Driving the running app by touch, one frame at a time, for the tour and the UI tests.

Kivy's window must be configured (``main.configure_kivy``) before this module is imported.
A driver's steps are a generator: a step yields a number of frames to wait, or a condition to
wait for (until it holds, or a ``WaitBudget`` of frames and seconds is spent: see ``waiting``),
and taps real widgets with Kivy's test touches in between.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

from kivy.base import EventLoop
from kivy.input.motionevent import MotionEvent

from companion_app.app.companion import CompanionApp, save_screenshot
from companion_app.app.tour.waiting import WaitBudget
from companion_app.journal import GameSession

Step = Generator[int | Callable[[], bool], None, None]


class Tap(MotionEvent):
    """A finger's touch at a window position, down then up through Kivy's event loop as a real
    one would come (the tour runs from an installed package, without Kivy's test helpers)."""

    def __init__(self, x: float, y: float) -> None:
        window = EventLoop.window
        spot = {"sx": x / (window.width - 1.0), "sy": y / (window.height - 1.0)}
        super().__init__("tour", 1, spot, is_touch=True, type_id="touch")
        self.profile = ["pos"]

    def depack(self, args: dict[str, float]) -> None:
        self.sx, self.sy = args["sx"], args["sy"]
        super().depack(args)

    def tap(self) -> None:
        EventLoop.post_dispatch_input("begin", self)
        EventLoop.post_dispatch_input("end", self)


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
        self._budget = WaitBudget()

    def steps(self) -> Step:
        raise NotImplementedError

    @property
    def session(self) -> GameSession:
        """The game being played; a step that needs it runs only after the game screen opened."""
        session = self.app.session
        if session is None:
            raise RuntimeError("no game is open yet")
        return session

    def tick(self, _dt: float) -> bool:
        try:
            if self._frames > 0:
                self._frames -= 1
                return True
            if self._waiting is not None:
                if not self._waiting():
                    if not self._budget.spend_frame():
                        raise TimeoutError("the app did not reach the awaited state")
                    return True
                self._waiting = None
            wait = next(self._steps)
            if callable(wait):
                self._waiting, self._budget = wait, WaitBudget()
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
        Tap(x, y).tap()

    def tap_widget(self, widget: Any) -> None:
        self.tap_at(*widget.to_window(*widget.center))

    def tap(self, widget: Any) -> Step:
        """Tap ``widget`` and give the app a few frames to follow."""
        self.tap_widget(widget)
        yield 3

    def tap_spot(self, board: Any, spot: Any) -> Step:
        """Tap a spot (a hex, an intersection, a road) of a board widget, as a player would:
        its place, or a road's two ends where the board is small."""
        for x, y in board.taps_for(spot):
            self.tap_at(x, y)
            yield 2

    def tap_button(self, parent: Any, text: str) -> Step:
        """Tap the one button under ``parent`` that says ``text``."""
        from kivy.uix.button import Button

        buttons = [w for w in parent.walk() if isinstance(w, Button) and w.text == text]
        if len(buttons) != 1:
            raise AssertionError(f"{len(buttons)} buttons say {text!r}")
        self.tap_widget(buttons[0])
        yield 2

    def lay_out(self) -> None:
        """Lay the window out now, as the next frame would (taps land where buttons are)."""
        from kivy.core.window import Window
        from kivy.uix.layout import Layout
        from kivy.uix.recyclelayout import RecycleLayout

        root = self.app.root
        game = root.get_screen("game") if root is not None and root.has_screen("game") else None
        for _round in range(3):
            for layer in Window.children:
                for widget in layer.walk(restrict=True):
                    # A recycle layout (the game log) is laid out by its view, never directly.
                    if isinstance(widget, Layout) and not isinstance(widget, RecycleLayout):
                        widget.do_layout()
            # The choices are paged to the room they have: a new room means new pages.
            if game is None or not game.refill.is_triggered:
                return
            game.refill.cancel()
            game.lay_out_choices()

    def shot(self, name: str) -> Step:
        yield 3
        save_screenshot(self.artifacts / name)
        self.screens.append(name)
