"""A yes/no question before something that cannot be taken back at the table (undoing a roll:
the dice were really thrown)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.properties import StringProperty
from kivy.uix.popup import Popup

from companion_app.app.screens import load_kv


class ConfirmPopup(Popup):
    """Layout in confirm.kv. ``on_yes`` / ``on_no`` run after the popup closes."""

    question = StringProperty("")
    yes_text = StringProperty("")
    """The yes button's words ("Yes" in the table's language where empty)."""
    no_text = StringProperty("")
    """The no button's words ("Keep it" where empty)."""

    def __init__(
        self,
        *,
        on_yes: Callable[[], Any] | None = None,
        on_no: Callable[[], Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._on_yes = on_yes
        self._on_no = on_no

    def answer(self, yes: bool) -> None:
        self.dismiss()
        then = self._on_yes if yes else self._on_no
        if then is not None:
            then()


load_kv(__file__)
