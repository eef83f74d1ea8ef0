"""A small widget tree measured by the tour's layout check, started by ``test_layout_check.py``
under a private X display: it prints the problems found, as JSON, for the window as it is and
then under an open dialog.

The tree: a "bank" label of five lines with a "log" panel drawn after it that hides its last
lines (the one problem to find); a label drawn over a panel's background; a scroll view whose
content runs beyond it, under a neighbour panel (cut off by the view, not hidden); then a dialog
with its dimmed overlay over all of it.

Usage: python layout_tree.py
"""

from __future__ import annotations

import json
import os
import sys

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from companion_app.app.main import configure_kivy

configure_kivy(800, 480)

from kivy.base import runTouchApp, stopTouchApp  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.graphics import Color, Rectangle  # noqa: E402
from kivy.metrics import dp  # noqa: E402
from kivy.uix.boxlayout import BoxLayout  # noqa: E402
from kivy.uix.floatlayout import FloatLayout  # noqa: E402
from kivy.uix.label import Label  # noqa: E402
from kivy.uix.modalview import ModalView  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402
from kivy.uix.widget import Widget  # noqa: E402

from companion_app.app.tour.layout_check import collect, problems  # noqa: E402


class Panel(Widget):
    """A widget with a background of its own (like the game log)."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        with self.canvas.before:
            Color(0.14, 0.16, 0.20, 1)
            self._background = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._follow, size=self._follow)

    def _follow(self, *_args: object) -> None:
        self._background.pos, self._background.size = self.pos, self.size


def _label(text: str, **kwargs: object) -> Label:
    label = Label(text=text, size_hint=(None, None), halign="left", valign="top", **kwargs)
    label.bind(size=lambda w, size: setattr(w, "text_size", size))
    return label


def tree() -> FloatLayout:
    root = FloatLayout()
    # The bank's five lines fit its box; the log panel drawn after it covers the lower three.
    bank = _label("Brick 2\nLumber 3\nWool 4\nGrain 5\nOre 6", size=(150, 120), pos=(10, 340))
    root.add_widget(bank)
    root.add_widget(Panel(size_hint=(None, None), size=(150, 70), pos=(10, 300)))
    # A label drawn over a panel's background: on top, as a title on a bar.
    root.add_widget(Panel(size_hint=(None, None), size=(200, 40), pos=(300, 420)))
    root.add_widget(_label("Title", size=(180, 30), pos=(310, 425)))
    # A scroll view's content beyond its bottom edge, where a panel below it is drawn.
    view = ScrollView(size_hint=(None, None), size=(200, 150), pos=(300, 200))
    rows = BoxLayout(orientation="vertical", size_hint_y=None, height=dp(30) * 12)
    for n in range(12):
        rows.add_widget(Label(text=f"Line {n}", size_hint_y=None, height=dp(30)))
    view.add_widget(rows)
    root.add_widget(view)
    root.add_widget(Panel(size_hint=(None, None), size=(200, 150), pos=(300, 40)))
    return root


def main() -> int:
    found: dict[str, list[str]] = {}
    frames = iter(range(1000))

    def look(_dt: float) -> bool:
        n = next(frames)
        if n == 5:
            found["screen"] = problems(collect(Window), Window.size, dp(1))
            dialog = ModalView(size_hint=(0.5, 0.5))
            dialog.add_widget(Label(text="A dialog over the screen"))
            dialog.open(animation=False)
        if n == 10:
            found["dialog"] = problems(collect(Window), Window.size, dp(1))
            stopTouchApp()
            return False
        return True

    Clock.schedule_interval(look, 0)
    runTouchApp(tree())
    print(json.dumps(found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
