"""The Kivy rules' words in the table's language, following a switch at once.

Every ``.kv`` file says its words as ``_("…")`` (and ``n_("…", "…", count)``). Kivy's rule
compiler watches a rule whose value calls ``_(`` and binds it to the ``_`` of the rule's names;
here that ``_`` is :data:`_`, an observable whose bindings are re-run when the language changes
(:func:`companion_app.i18n.current.use`), so each rule's text is read again in the new language.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import count
from typing import Any

from kivy.event import Observable
from kivy.lang import global_idmap

from companion_app.i18n import current


class _Words(Observable):  # type: ignore[misc]
    """``_`` for the Kivy rules: a call translates, a binding follows the switch. A rule that
    calls ``n_(`` is bound here too (the compiler sees ``_(`` in it), and re-runs whole."""

    _uids = count(1)

    def __init__(self, translate: Callable[..., str]) -> None:
        super().__init__()
        self._translate = translate
        self._bindings: dict[int, tuple[Any, Any]] = {}
        current.listen(self.follow)

    def __call__(self, *args: Any, **values: Any) -> str:
        return self._translate(*args, **values)

    def fbind(self, name: str, func: Any, *args: Any, **kwargs: Any) -> int:
        if name != "_":
            return int(super().fbind(name, func, *args, **kwargs))
        uid = next(self._uids)
        self._bindings[uid] = (func, args)
        return uid

    def funbind(self, name: str, func: Any, *args: Any, **kwargs: Any) -> None:
        if name != "_":
            super().funbind(name, func, *args, **kwargs)
            return
        for uid, binding in self._bindings.copy().items():
            if binding == (func, args):
                del self._bindings[uid]

    def unbind_uid(self, name: str, uid: int) -> None:
        if name != "_":
            super().unbind_uid(name, uid)
            return
        self._bindings.pop(uid, None)

    def follow(self) -> None:
        """Re-run every rule that says a word (a widget gone meanwhile drops its binding).

        It walks a copy: a collection while the list of bindings is built can drop a widget's
        binding (``unbind_uid``) in the middle of a walk of the dict itself ("dictionary changed
        size during iteration", once in a five-language tour)."""
        for uid, (func, args) in self._bindings.copy().items():
            try:
                func(*args, None, None)
            except ReferenceError:
                self._bindings.pop(uid, None)

    @property
    def bindings(self) -> int:
        return len(self._bindings)


_ = _Words(current._)
global_idmap["_"] = _
global_idmap["n_"] = current.n_
