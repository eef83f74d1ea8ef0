"""Bars of observed counts with the expected count marked on each: the statistics at a glance.

Drawn on the canvas from :class:`companion_app.presenters.info_presenter.Bar` values; the labels
(category under each bar, count above it) are text textures, so the widget needs no children.
"""

from __future__ import annotations

from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import ListProperty, NumericProperty
from kivy.uix.widget import Widget

from companion_app.presenters.info_presenter import Bar

EXPECTED_COLOUR = (1.0, 1.0, 1.0, 0.9)
AXIS_COLOUR = (0.45, 0.48, 0.55, 1.0)
BACKING_COLOUR = (0.11, 0.13, 0.16, 1.0)
"""The window's background (companion.py's clear colour)."""
MIN_BARS_DP = 24.0
"""The least height the bars keep between their categories and their counts."""
SMALLEST_LABEL_SP = 11.0


class Histogram(Widget):
    bars = ListProperty([])
    """:class:`Bar` values, left to right."""
    label_size = NumericProperty(sp(17))

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._draw, size=self._draw, bars=self._draw)

    def _text(
        self,
        text: str,
        colour: tuple[float, ...] = (1, 1, 1, 1),
        width: float | None = None,
        size: float | None = None,
    ) -> Any:
        """A text texture; given a ``width``, wrapped to it and centred (a long category such
        as "yellow castle" under a narrow bar takes two lines)."""
        font_size = self.label_size if size is None else size
        options: dict[str, Any] = {"text": text, "font_size": font_size, "color": colour}
        if width is not None:
            options.update(text_size=(width, None), halign="center")
        label = CoreLabel(**options)
        label.refresh()
        return label.texture

    def _draw(self, *_args: object) -> None:
        self.canvas.clear()
        bars: list[Bar] = list(self.bars)
        if not bars or self.width < 10 or self.height < 10:
            return
        text_h = self.label_size * 1.3
        slot = self.width / len(bars)
        # Categories wrapped under narrow bars ("cổng thành xanh dương" on four lines at
        # 800x480) are set smaller until the bars keep room above them.
        size = self.label_size
        while True:
            names = [self._text(bar.label, width=slot - dp(2), size=size) for bar in bars]
            room = self.height - max(name.height for name in names) - text_h - dp(6)
            if room >= dp(MIN_BARS_DP) or size <= sp(SMALLEST_LABEL_SP):
                break
            size = max(sp(SMALLEST_LABEL_SP), size - sp(1))
        bottom = self.y + max(name.height for name in names) + dp(4)
        top = self.top - text_h - dp(2)
        height = max(1.0, top - bottom)
        peak = max(max(b.observed for b in bars), max(b.expected for b in bars), 1)
        bar_w = slot * 0.68
        with self.canvas:
            Color(*AXIS_COLOUR)
            Rectangle(pos=(self.x, bottom - dp(2)), size=(self.width, dp(2)))
            for i, (bar, name) in enumerate(zip(bars, names, strict=True)):
                x = self.x + i * slot + (slot - bar_w) / 2
                h = height * bar.observed / peak
                Color(*bar.colour)
                Rectangle(pos=(x, bottom), size=(bar_w, h))
                # The expected count: a white line across the bar's slot.
                ey = bottom + height * bar.expected / peak
                Color(*EXPECTED_COLOUR)
                Line(points=[x - slot * 0.1, ey, x + bar_w + slot * 0.1, ey], width=dp(1.6))
                Color(1, 1, 1, 1)
                Rectangle(
                    texture=name,
                    pos=(x + (bar_w - name.width) / 2, self.y + dp(2)),
                    size=name.size,
                )
                count = self._text(str(bar.observed), (0.9, 0.9, 0.9, 1))
                # A backing the colour of the screen, so an expected line never strikes through
                # the count.
                Color(*BACKING_COLOUR)
                Rectangle(
                    pos=(x + (bar_w - count.width) / 2 - dp(2), bottom + h + dp(2)),
                    size=(count.width + dp(4), count.height + dp(1)),
                )
                Color(1, 1, 1, 1)
                Rectangle(
                    texture=count,
                    pos=(x + (bar_w - count.width) / 2, bottom + h + dp(3)),
                    size=count.size,
                )
