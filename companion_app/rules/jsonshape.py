"""Reading JSON whose shape is not trusted: each reader checks one value and names it on failure.

State, config and board JSON come from files and journal rows, so every value is checked for
its type (a bool is not an integer) and range before use; the first problem raises the caller's
error class (a :class:`~companion_app.rules.errors.RulesError`) with the value's path, e.g.
``hands[2].ore must be an integer 0-19, got -1``.

Developer words: the shape errors of hostile JSON are for engineers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn

from companion_app.rules.errors import RulesError

MAX_LIST = 10_000
"""No list in a state is longer than this (the longest, a deck or the hexes, is far shorter)."""


MAX_INT = 2**63
"""Integers beyond this are refused wherever an integer is read."""


def show(value: object) -> str:
    """A short, safe spelling of an untrusted value for an error message (no deep repr, no
    conversion of a huge integer to digits)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        return repr(value) if -MAX_INT <= value <= MAX_INT else "a huge number"
    if isinstance(value, float | str):
        text = repr(value)
        return text if len(text) <= 40 else text[:37] + "..."
    if isinstance(value, list | tuple):
        return f"a list of {len(value)}"
    if isinstance(value, Mapping):
        return f"an object of {len(value)} fields"
    return type(value).__name__


class Shape:
    """Readers raising ``error`` (a RulesError subclass) with ``prefix`` before the message."""

    def __init__(self, error: type[RulesError], prefix: str) -> None:
        self.error = error
        self.prefix = prefix

    def fail(self, where: str, problem: str) -> NoReturn:
        raise self.error(f"{self.prefix}{where} {problem}")

    def obj(self, value: object, where: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            self.fail(where, f"must be a JSON object, got {show(value)}")
        return value

    def field(self, data: Mapping[str, Any], key: str, where: str) -> Any:
        if key not in data:
            self.fail(f"{where}.{key}" if where else key, "is missing")
        return data[key]

    def items(self, value: object, where: str, *, max_len: int = MAX_LIST) -> list[Any]:
        if not isinstance(value, list):
            self.fail(where, f"must be a JSON list, got {show(value)}")
        if len(value) > max_len:
            self.fail(where, f"has {len(value)} entries, at most {max_len}")
        return value

    def sized(self, value: object, where: str, size: int) -> list[Any]:
        items = self.items(value, where, max_len=size)
        if len(items) != size:
            self.fail(where, f"must have {size} entries, got {len(items)}")
        return items

    def integer(self, value: object, where: str, low: int, high: int) -> int:
        if type(value) is not int or not low <= value <= high:
            self.fail(where, f"must be an integer {low}-{high}, got {show(value)}")
        return value

    def boolean(self, value: object, where: str) -> bool:
        if type(value) is not bool:
            self.fail(where, f"must be true or false, got {show(value)}")
        return value

    def text(self, value: object, where: str, *, max_len: int = 200) -> str:
        if not isinstance(value, str):
            self.fail(where, f"must be a string, got {show(value)}")
        if len(value) > max_len:
            self.fail(where, f"is longer than {max_len} characters")
        return value

    def choice(self, value: object, where: str, choices: Mapping[str, Any]) -> Any:
        if not isinstance(value, str) or value not in choices:
            self.fail(where, f"must be one of {', '.join(choices)}, got {show(value)}")
        return choices[value]
