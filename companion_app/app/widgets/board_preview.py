"""A preview of the 19-hex island, drawn until the real board view arrives."""

from __future__ import annotations

import math

from kivy.graphics import Color, Line, Mesh
from kivy.uix.widget import Widget

# Axial coordinates (q, r) of the 19 land hexes: rings 0, 1 and 2 around the centre.
ISLAND = [(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2]
SEA = (0.16, 0.36, 0.55, 1)
LAND = (0.87, 0.78, 0.55, 1)
OUTLINE = (0.30, 0.22, 0.12, 1)


class BoardPreview(Widget):
    """Sand-coloured island on a sea hexagon, re-drawn to fit whenever the widget resizes."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._redraw, size=self._redraw)

    def _redraw(self, *_args: object) -> None:
        self.canvas.clear()
        # Land hexes are pointy-top with size s; the sea frame is a flat-top hexagon of radius 5s
        # (10s wide, 8.66s high) around them.
        size = min(self.width / 10.4, self.height / 9.0)
        cx, cy = self.center
        with self.canvas:
            Color(*SEA)
            self._hexagon(cx, cy, size * 5.0, filled=True, flat_top=True)
            for q, r in ISLAND:
                x = cx + size * math.sqrt(3) * (q + r / 2)
                y = cy - size * 1.5 * r
                Color(*LAND)
                self._hexagon(x, y, size * 0.97, filled=True)
                Color(*OUTLINE)
                self._hexagon(x, y, size * 0.97, filled=False)

    @staticmethod
    def _hexagon(x: float, y: float, size: float, *, filled: bool, flat_top: bool = False) -> None:
        offset = 0 if flat_top else 30
        corners = [
            (
                x + size * math.cos(math.radians(60 * i + offset)),
                y + size * math.sin(math.radians(60 * i + offset)),
            )
            for i in range(6)
        ]
        if filled:
            vertices = [x, y, 0, 0]
            for cxx, cyy in [*corners, corners[0]]:
                vertices += [cxx, cyy, 0, 0]
            Mesh(vertices=vertices, indices=list(range(8)), mode="triangle_fan")
        else:
            Line(points=[c for xy in corners for c in xy], close=True, width=1.5)
