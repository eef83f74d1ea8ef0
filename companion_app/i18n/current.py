"""The tablet's language: one catalogue the app's words are read in, switched at once.

The app marks its words with :func:`_` (and :func:`n_` where a count is shown); each call reads
the language chosen now, so a screen redrawn after :func:`use` speaks the new language. The Kivy
rules' own words follow at once through :mod:`companion_app.app.language`, which listens here.
Kivy-free: presenters call it too.
"""

from __future__ import annotations

from collections.abc import Callable

from companion_app.i18n import LANGUAGES, Catalogue, catalogue, table_language, use_language
from companion_app.rules.messages import Msg

_listeners: list[Callable[[], None]] = []


def current() -> Catalogue:
    """The catalogue of the table's language now (:func:`companion_app.i18n.table_language`,
    which the rules core's messages are rendered in too: one language for the tablet)."""
    return catalogue(table_language())


def language() -> str:
    return current().code


def use(code: str) -> None:
    """Speak ``code`` from now on (a code of ``LANGUAGES``; the caller refuses others) and tell
    every listener, so what is on screen follows at once."""
    if code not in LANGUAGES:
        raise ValueError(f"no language {code!r}")
    use_language(code)
    for listener in list(_listeners):
        listener()


def listen(listener: Callable[[], None]) -> None:
    _listeners.append(listener)


def forget(listener: Callable[[], None]) -> None:
    if listener in _listeners:
        _listeners.remove(listener)


def _(text: str) -> str:
    """A word of the app in the table's language (``text`` is the English message id)."""
    return current().gettext(text)


def n_(singular: str, plural: str, count: int, **values: object) -> str:
    """A sentence with a count in the table's language: the language's plural form, with
    ``{count}`` and the other placeholders filled."""
    params = tuple((key, str(value)) for key, value in values.items())
    return current().render(Msg(singular, (("count", count), *params), plural, count))


def render(message: Msg | str) -> str:
    """A rules core message (or a message id) in the table's language."""
    return current().render(message)


def parse_languages(text: str, *, several: bool = False) -> list[str]:
    """The codes of ``--lang`` (``de``, or ``de,vi`` where ``several``); a ValueError naming
    the one we do not speak."""
    codes = [code.strip().lower() for code in text.split(",")] if several else [text.strip()]
    known = ", ".join(LANGUAGES)
    for code in codes:
        if code not in LANGUAGES:
            raise ValueError(f"--lang {code[:20]!r} is not a language of the app (one of {known})")
    if len(set(codes)) != len(codes):
        raise ValueError(f"--lang {text[:40]!r} names a language twice")
    return codes
