"""Driving the running app by touch, one frame at a time, for the tour and the UI tests.

Kivy's window must be configured (``main.configure_kivy``) before this module is imported.
A driver's steps are a generator: a step yields a number of frames to wait, or a condition to
wait for (until it holds, or a ``WaitBudget`` of frames and seconds is spent: see ``waiting``),
and taps real widgets with Kivy's test touches in between.

A driver may lay frames out without drawing them but for a look (:meth:`ScenarioDriver.shot`,
``draws_every_frame = False``): what a step checks is the widgets' state and geometry, and a
software-rendered frame of the whole window costs more than the rest of a frame together. Every
PNG is drawn as the player would see it. A step resumes only once no dialog is opening or
closing (their animations run in wall-clock time, however fast the frames come).
"""

from __future__ import annotations

import itertools
import math
import time
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


class Finger(MotionEvent):
    """A finger on the window, put down, moved and lifted through Kivy's event loop as a real
    one would come (the tour runs from an installed package, without Kivy's test helpers)."""

    _ids = itertools.count(1)

    def __init__(self, x: float, y: float) -> None:
        super().__init__("tour", next(Finger._ids), _spot(x, y), is_touch=True, type_id="touch")
        self.profile = ["pos"]

    def depack(self, args: dict[str, float]) -> None:
        self.sx, self.sy = args["sx"], args["sy"]
        super().depack(args)

    def down(self) -> None:
        EventLoop.post_dispatch_input("begin", self)

    def move_to(self, x: float, y: float) -> None:
        self.move(_spot(x, y))
        EventLoop.post_dispatch_input("update", self)

    def up(self) -> None:
        EventLoop.post_dispatch_input("end", self)

    def tap(self) -> None:
        self.down()
        self.up()


def _spot(x: float, y: float) -> dict[str, float]:
    window = EventLoop.window
    return {"sx": x / (window.width - 1.0), "sy": y / (window.height - 1.0)}


MAX_DRAGS = 40
"""Drags before the driver gives up reaching a widget (a long list takes a few)."""

HOLD_SECONDS = 0.2
"""How long a finger rests before it is lifted: longer than Kivy's fling sample (1/6 s)."""


def _scroll_views(widget: Any) -> list[Any]:
    from kivy.uix.scrollview import ScrollView

    views = []
    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, ScrollView):
            views.append(parent)
        parent = parent.parent
    return views


def _offset_into_view(widget: Any) -> tuple[Any, float] | None:
    """The innermost scroll view that hides part of ``widget``, and how far a finger must
    move up (negative: down) to show it; None when it is in sight."""
    _x, y = widget.to_window(*widget.pos)
    top = y + widget.height
    for view in _scroll_views(widget):
        _vx, vy = view.to_window(*view.pos)
        vtop = vy + view.height
        margin = min(8.0, max(0.0, (view.height - widget.height) / 2))
        if widget.height > view.height:
            # Taller than the view: its middle in sight is enough.
            middle = y + widget.height / 2
            if vy <= middle <= vtop:
                continue
            return view, (vy + view.height / 2) - middle
        # A finger taps the middle: a button cut by a few pixels at the view's edge is in
        # sight (a short drag to show the rest can stay under the view's scroll distance).
        cut = min(4.0, widget.height / 4)
        if y < vy - cut:
            return view, vy + margin - y
        if top > vtop + cut:
            return view, vtop - margin - top
    return None


def _dialog_moving() -> bool:
    """A dialog (a modal view) on the window is still opening or closing: its animation runs in
    wall-clock time, and a closing one takes every touch until it is gone."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    return any(isinstance(w, ModalView) and w._anim_alpha != 1 for w in Window.children)


def _at_rest(view: Any) -> bool:
    effect = view.effect_y
    return effect is None or (abs(effect.velocity) < 0.5 and not effect.is_manual)


class ScenarioDriver:
    """Runs :meth:`steps` one frame at a time inside the app's own event loop."""

    draws_every_frame = True
    """Draw each frame (as the app does for a player); False: only the frames a look saves
    (the tour, the long UI game)."""

    def __init__(self, app: CompanionApp, artifacts: Path) -> None:
        from kivy.core.window import Window

        self.app = app
        self.artifacts = artifacts
        self.checks: list[dict[str, Any]] = []
        self.screens: list[str] = []
        self.error = ""
        self._steps = self.steps()
        self._waiting: Callable[[], bool] | None = None
        self._frames = 0
        self._budget = WaitBudget()
        self._moving: WaitBudget | None = None
        self._drawing = self.draws_every_frame
        Window.fbind("on_draw", self._not_drawn)
        Window.fbind("on_flip", self._not_drawn)

    def _not_drawn(self, *_args: Any) -> bool:
        """Bound to the window's drawing: True (the frame is not drawn) but for a look."""
        return not self._drawing

    def draw_now(self) -> None:
        """Draw the window as it is (for a screenshot outside :meth:`shot`)."""
        from kivy.core.window import Window

        self._drawing = True
        Window.canvas.ask_update()
        Window.dispatch("on_draw")
        self._drawing = self.draws_every_frame

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
            if _dialog_moving():
                # A finger waits for a dialog to open or close: one closing still takes
                # every touch, and its opening takes a tenth of a second, however many
                # frames that is.
                if self._moving is None:
                    self._moving = WaitBudget()
                if not self._moving.spend_frame():
                    raise TimeoutError("a dialog did not finish opening or closing")
                return True
            self._moving = None
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
        Finger(x, y).tap()

    def pinch(self, widget: Any, spread: float) -> Step:
        """Two fingers on ``widget``, moved ``spread`` times as far apart, then lifted."""
        x, y = widget.to_window(*widget.center)
        reach = min(widget.width, widget.height) / 4
        fingers = [Finger(x - reach, y), Finger(x + reach, y)]
        for finger in fingers:
            finger.down()
        steps = 6
        for n in range(1, steps + 1):
            now = reach * (1 + (spread - 1) * n / steps)
            fingers[0].move_to(x - now, y)
            fingers[1].move_to(x + now, y)
            yield 1
        for finger in fingers:
            finger.up()
        yield 3

    def tap_widget(self, widget: Any) -> None:
        self.tap_at(*widget.to_window(*widget.center))

    def tap(self, widget: Any) -> Step:
        """Tap ``widget`` as a player would: scrolled into view first when it is not, then
        a few frames for the app to follow."""
        yield from self.tap_in_sight(widget)
        yield 3

    def tap_in_sight(self, widget: Any) -> Step:
        """Scroll ``widget`` into view if it is not, then tap it."""
        yield from self.scroll_into_view(widget)
        self.tap_widget(widget)

    def scroll_into_view(self, widget: Any) -> Step:
        """Drag every scroll view around ``widget`` until the widget is in sight, as a finger
        would: a drag, held still before it is lifted (so the list does not fling on), then
        a look where the widget is now."""
        for _drag in range(MAX_DRAGS):
            offset = _offset_into_view(widget)
            if offset is None:
                return
            view, dy = offset
            yield from self.drag(view, dy)
        raise AssertionError(f"{type(widget).__name__} cannot be scrolled into view")

    def drag(self, view: Any, dy: float) -> Step:
        """Drag a finger ``dy`` pixels up (negative: down) over ``view``, away from its bar."""
        x, y = view.to_window(view.x + view.width * 0.4, view.center_y)
        reach = view.height * 0.4
        dy = max(-reach, min(reach, dy))
        # A short drag first goes the other way: a finger that moves less than the view's
        # scroll distance taps what is under it instead of scrolling.
        slack = 0.0 if abs(dy) > 2 * view.scroll_distance else 1.5 * view.scroll_distance
        start = y - dy / 2
        touch = Finger(x, start)
        touch.down()
        steps = 8
        path = [start - math.copysign(slack, dy) * n / steps for n in range(1, steps + 1)]
        path += [path[-1] + (start + dy - path[-1]) * n / steps for n in range(1, steps + 1)]
        for to in path:
            touch.move_to(x, to)
        held = time.monotonic()
        yield lambda: time.monotonic() - held > HOLD_SECONDS
        touch.up()
        yield lambda: _at_rest(view)
        yield 2

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
        yield from self.tap_in_sight(buttons[0])
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
        """Save ``name`` (a PNG of the window): the last frame before it is drawn."""
        from kivy.core.window import Window

        yield 2
        self._drawing = True
        Window.canvas.ask_update()
        yield 1
        (self.artifacts / name).parent.mkdir(parents=True, exist_ok=True)
        save_screenshot(self.artifacts / name)
        self._drawing = self.draws_every_frame
        self.screens.append(name)
