"""The barbarian track (as the dice box's LEDs show it) and the last roll's three dice."""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle
from kivy.properties import NumericProperty, ObjectProperty
from kivy.uix.widget import Widget

from companion_app.presenters.board_picture import EVENT_COLOURS
from companion_app.presenters.wording import RollView

_LED_OFF = (0.22, 0.24, 0.28, 1.0)
_LED_PASSED = (0.95, 0.55, 0.10, 1.0)
_LED_SHIP = (1.0, 0.20, 0.15, 1.0)
_LED_CASTLE = (0.55, 0.55, 0.60, 1.0)

# Pip positions on a die face, in thirds of the face from its centre.
_PIPS = {
    1: [(0, 0)],
    2: [(-1, 1), (1, -1)],
    3: [(-1, 1), (0, 0), (1, -1)],
    4: [(-1, 1), (1, 1), (-1, -1), (1, -1)],
    5: [(-1, 1), (1, 1), (0, 0), (-1, -1), (1, -1)],
    6: [(-1, 1), (1, 1), (-1, 0), (1, 0), (-1, -1), (1, -1)],
}


class BarbarianTrack(Widget):
    """One lamp per space, as on the dice box: passed spaces lit, the ship's space red, the
    last lamp (the attack on Catan) drawn as the castle."""

    position = NumericProperty(0)
    length = NumericProperty(7)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._redraw, size=self._redraw, position=self._redraw, length=self._redraw)

    def _redraw(self, *_args: object) -> None:
        self.canvas.clear()
        n = max(1, int(self.length))
        lamps = n + 1  # space 0 (the start) up to n (the attack)
        gap = self.width / lamps
        r = max(4.0, min(gap * 0.36, self.height * 0.4))
        cy = self.center_y
        with self.canvas:
            Color(0.5, 0.5, 0.55, 1)
            Line(points=[self.x + gap / 2, cy, self.right - gap / 2, cy], width=1.5)
            for i in range(lamps):
                cx = self.x + gap * (i + 0.5)
                if i == int(self.position):
                    colour = _LED_SHIP
                elif i < self.position:
                    colour = _LED_PASSED
                elif i == n:
                    colour = _LED_CASTLE
                else:
                    colour = _LED_OFF
                Color(*colour)
                if i == n:
                    Rectangle(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
                else:
                    Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))


class DiceView(Widget):
    """The yellow die, the red die and the event die of the last roll (blank before one)."""

    roll: Any = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._redraw, size=self._redraw, roll=self._redraw)

    def _redraw(self, *_args: object) -> None:
        self.canvas.clear()
        roll: RollView | None = self.roll
        side = min(self.height, self.width / 3.4)
        gap = side * 0.2
        x0 = self.x
        y0 = self.center_y - side / 2
        faces = [
            ((0.98, 0.85, 0.15, 1), (0.1, 0.1, 0.1, 1), roll.yellow if roll else 0),
            ((0.85, 0.12, 0.12, 1), (1, 1, 0.85, 1), roll.red if roll else 0),
        ]
        with self.canvas:
            for i, (face, ink, value) in enumerate(faces):
                x = x0 + i * (side + gap)
                Color(*face)
                RoundedRectangle(pos=(x, y0), size=(side, side), radius=[side * 0.15])
                Color(*ink)
                dot = side * 0.09
                for dx, dy in _PIPS.get(value, []):
                    px = x + side / 2 + dx * side * 0.27
                    py = y0 + side / 2 + dy * side * 0.27
                    Ellipse(pos=(px - dot, py - dot), size=(2 * dot, 2 * dot))
            x = x0 + 2 * (side + gap)
            Color(*(EVENT_COLOURS[roll.event] if roll else (0.3, 0.3, 0.3, 1)))
            RoundedRectangle(pos=(x, y0), size=(side, side), radius=[side * 0.15])
            if roll is not None and roll.event.value == "ship":
                Color(0.9, 0.9, 0.9, 1)
                # A hull and a sail: the barbarian ship face.
                Line(
                    points=[
                        x + side * 0.2,
                        y0 + side * 0.35,
                        x + side * 0.8,
                        y0 + side * 0.35,
                        x + side * 0.68,
                        y0 + side * 0.2,
                        x + side * 0.32,
                        y0 + side * 0.2,
                    ],
                    close=True,
                    width=2,
                )
                Line(
                    points=[
                        x + side * 0.5,
                        y0 + side * 0.35,
                        x + side * 0.5,
                        y0 + side * 0.85,
                        x + side * 0.75,
                        y0 + side * 0.45,
                        x + side * 0.5,
                        y0 + side * 0.45,
                    ],
                    width=2,
                )
            elif roll is not None:
                Color(1, 1, 1, 1)
                # A castle gate: the coloured event face.
                Line(rectangle=(x + side * 0.25, y0 + side * 0.2, side * 0.5, side * 0.5), width=2)
                Line(
                    points=[
                        x + side * 0.42,
                        y0 + side * 0.2,
                        x + side * 0.42,
                        y0 + side * 0.45,
                        x + side * 0.58,
                        y0 + side * 0.45,
                        x + side * 0.58,
                        y0 + side * 0.2,
                    ],
                    width=2,
                )
