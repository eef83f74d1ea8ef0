"""Sentences for the table in no language: a message id and the values of its placeholders.

The rules core never builds a sentence. It names one by its English message id (gettext's
``msgid``, which doubles as the English text) and hands over the values; whoever shows it
renders it in the reader's language (:mod:`companion_app.i18n`). A value is a player's name or a
number as it is, or another :class:`Msg` rendered in the same language first (a card's name
inside a log line).

The three constructors are the keywords the catalogue's extraction looks for (``msg``,
``nmsg`` for a sentence with plural forms, ``pmsg`` for a word whose id needs a context), as
are the declarations' marks (``N_``, ``Nn_`` for a sentence with plural forms counted later), so
a message id is written once, where the rule is.

Developer words: the English rendering of a message (``str()``) for logs and tracebacks.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

Value: TypeAlias = "str | int | Msg | tuple[Msg, ...]"
"""A placeholder's value: a name or a number as it is, a message, or a list of messages that
the reader's language joins ("wool, grain and ore")."""


@dataclass(frozen=True, slots=True)
class Msg:
    """One sentence or term for the reader: ``text`` is the English message id."""

    text: str
    params: tuple[tuple[str, Value], ...] = ()
    plural: str = ""
    """The English plural message id; ``count`` chooses the form in the reader's language."""
    count: int = 0
    context: str = ""
    """gettext's ``msgctxt``: which thing a short id names ("resource" for "ore")."""

    def value(self, name: str) -> Value:
        for key, value in self.params:
            if key == name:
                return value
        raise KeyError(name)

    def __str__(self) -> str:
        """The English text (the source language: the id itself), for logs, tracebacks and
        engineers; a reader gets :meth:`companion_app.i18n.Catalogue.render`."""
        template = self.plural if self.plural and self.count != 1 else self.text
        return template.format_map({key: _english(value) for key, value in self.params})


def _english(value: Value) -> str:
    if isinstance(value, tuple):
        items = [str(item) for item in value]
        if len(items) <= 1:
            return "".join(items)
        return f"{', '.join(items[:-1])} and {items[-1]}"
    return str(value)


def msg(text: str, **params: Value) -> Msg:
    """A sentence without plural forms: ``msg("{player} built a road", player="Anna")``."""
    return Msg(text, tuple(params.items()))


def nmsg(singular: str, plural: str, count: int, **params: Value) -> Msg:
    """A sentence with plural forms, ``count`` choosing one and filling ``{count}``."""
    return Msg(singular, (("count", count), *params.items()), plural, count)


def pmsg(context: str, text: str, **params: Value) -> Msg:
    """A term whose English id is ambiguous without a context: ``pmsg("resource", "ore")``."""
    return Msg(text, tuple(params.items()), context=context)


def listing(items: Sequence[Msg], empty: Msg) -> Msg:
    """Items in a row, each in its own words ("2 brick, 1 ore"); ``empty`` if none."""
    if not items:
        return empty
    joined = items[-1]
    for item in reversed(items[:-1]):
        joined = msg("{first}, {rest}", first=item, rest=joined)
    return joined


def placeholders(template: str) -> set[str]:
    """The ``{names}`` a message id uses."""
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def N_(text: str) -> str:  # noqa: N802  (gettext's name for "a message id, translated later")
    """Marks a message id kept in a declaration for the catalogue's extraction."""
    return text


@dataclass(frozen=True, slots=True)
class Plural:
    """A sentence with plural forms kept in a declaration, counted when it is said."""

    singular: str
    plural: str

    def counted(self, count: int, **params: Value) -> Msg:
        """The sentence for ``count`` (filling ``{count}``) with the other placeholders'
        values, those it uses."""
        used = placeholders(self.singular) | placeholders(self.plural)
        values = tuple((k, v) for k, v in params.items() if k in used)
        return Msg(self.singular, (("count", count), *values), self.plural, count)


def Nn_(singular: str, plural: str) -> Plural:  # noqa: N802  (``N_`` with a plural)
    """Marks a message id and its plural kept in a declaration for the catalogue's
    extraction, as ``ngettext`` reads them."""
    return Plural(singular, plural)
