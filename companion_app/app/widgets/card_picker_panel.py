"""The card picker on screen: opened by "Show my cards", one row per card with − / +,
the running count, Confirm; "Cover" closes it without choosing ("Close" where nothing is hidden:
a gold field's choice from the bank, opened by "Open the card picker"). The rows are made once per
decision and only their numbers change, so a repeated tap lands on the same card.

What it shows is :class:`companion_app.presenters.card_picker.CardPicker`'s; what a tap does is the
game screen's controller's (the panel only passes the taps on).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.factory import Factory
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.modalview import ModalView

from companion_app.app.screens import load_kv
from companion_app.i18n.current import _
from companion_app.presenters.card_picker import CardPicker


class CardPickerPanel(ModalView):
    heading = StringProperty("")
    tally = StringProperty("")
    confirm_text = StringProperty("")
    ready = BooleanProperty(False)
    tall = BooleanProperty(False)
    """A portrait window: the panel takes the width and only the height its rows need."""
    row_count = NumericProperty(0)
    """More than four rows go in two columns in a landscape window (no scrolling)."""
    hidden = BooleanProperty(True)
    """The rows are a hand's: the way out covers it ("Cover"), else it closes ("Close")."""

    def __init__(
        self,
        picker: CardPicker,
        *,
        on_change: Callable[[int, int], None],
        on_confirm: Callable[[], None],
        on_cover: Callable[[], None],
        **kwargs: Any,
    ) -> None:
        from kivy.core.window import Window

        super().__init__(
            tall=Window.height > Window.width,
            row_count=len(picker.rows),
            hidden=picker.hidden,
            **kwargs,
        )
        self.picker = picker
        self._on_confirm = on_confirm
        self._on_cover = on_cover
        self.lines: list[Any] = []
        for index in range(len(picker.rows)):
            line = Factory.PickerLine()
            line.ids.minus.bind(on_release=lambda _b, i=index: on_change(i, -1))
            line.ids.plus.bind(on_release=lambda _b, i=index: on_change(i, 1))
            self.ids.rows.add_widget(line)
            self.lines.append(line)
        self.update()

    def update(self) -> None:
        picker = self.picker
        for index, line in enumerate(self.lines):
            row = picker.rows[index]
            line.ids.label.text = row.label
            line.ids.held.text = _("of {count}").format(count=row.held)
            line.ids.count.text = str(row.chosen)
            line.ids.minus.disabled = not picker.can_remove(index)
            line.ids.plus.disabled = not picker.can_add(index)
        self.heading = picker.heading
        self.tally = picker.tally
        self.confirm_text = picker.confirm_words
        self.ready = picker.ready

    def confirm(self) -> None:
        self._on_confirm()

    def cover(self) -> None:
        self._on_cover()


load_kv(__file__)
