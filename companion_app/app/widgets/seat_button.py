"""A seat's "who plays it" on the new-game screen: a person, or the tablet at a level (a tap
goes round them). Added to each seat's row by the screen; the form holds the choice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.metrics import dp, sp
from kivy.uix.button import Button

from companion_app.app.widgets.fit import fitting_size
from companion_app.bot import level_name
from companion_app.i18n.current import _, render
from companion_app.presenters.forms import PlayerSlot

SEAT_BUTTON_INDEX = 3
"""Its place in the row's children (Kivy keeps them last first): just after the name."""
WIDE_ROW_DP = 820
"""A narrower row (a portrait screen) gets a narrower button: the name keeps its room."""


def add_seat_button(row: Any, on_tap: Callable[[], None]) -> Button:
    button = Button(
        size_hint_x=None,
        width=dp(130),
        font_size=sp(17),
        halign="center",
        valign="middle",
        background_normal="",
    )
    button.bind(width=lambda b, w: setattr(b, "text_size", (w - dp(6), None)))
    button.bind(on_release=lambda _b: on_tap())
    row.bind(width=lambda _r, w: setattr(button, "width", dp(130 if w >= dp(WIDE_ROW_DP) else 96)))
    row.add_widget(button, index=min(SEAT_BUTTON_INDEX, len(row.children)))
    row.ids["seat"] = button
    return button


def seat_words(slot: PlayerSlot) -> str:
    if slot.bot is None:
        return _("Person")
    return _("Tablet: {level}").format(level=render(level_name(slot.bot)))


def show_seat(row: Any, slot: PlayerSlot) -> None:
    button = row.ids["seat"]
    button.text = seat_words(slot)
    button.font_size = fitting_size(button.text, dp(96) - dp(8), sp(17), sp(12))
    button.background_color = (0.35, 0.35, 0.4, 1) if slot.bot is None else (0.45, 0.30, 0.60, 1)
    button.disabled = not slot.plays
