"""A yes/no question before something that cannot be taken back at the table (undoing a roll:
the dice were really thrown)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.properties import StringProperty
from kivy.uix.popup import Popup

from companion_app.app.screens import load_kv
from companion_app.i18n import current
from companion_app.i18n.current import _


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
        words: Callable[[], dict[str, str]],
        on_yes: Callable[[], Any] | None = None,
        on_no: Callable[[], Any] | None = None,
        **kwargs: Any,
    ) -> None:
        """``words`` gives the title, question, yes_text and no_text in the table's language;
        it is read again when the language changes while the question is open."""
        self._words = words
        super().__init__(**self._all_words(), **kwargs)
        self._on_yes = on_yes
        self._on_no = on_no

    def _all_words(self) -> dict[str, str]:
        return {"title": _("Are you sure?"), **self._words()}

    def retell(self) -> None:
        for name, text in self._all_words().items():
            setattr(self, name, text)

    def on_open(self) -> None:
        current.listen(self.retell)

    def on_dismiss(self) -> None:
        current.forget(self.retell)

    def answer(self, yes: bool) -> None:
        self.dismiss()
        then = self._on_yes if yes else self._on_no
        if then is not None:
            then()


load_kv(__file__)
