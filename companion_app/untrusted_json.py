"""The one reader for JSON from outside: export files, journal rows, state JSON, configs and
messages from other devices.

Python's ``json`` recurses once per nesting level, turns a 5,000-digit number into an error
only after converting it, and reads ``NaN`` and duplicate keys without a word. :func:`loads`
first scans the text without recursion and refuses, naming the first problem and its place,
text that is too long, nested too deep, has a number with too many digits or a container with
too many elements; only then does ``json`` parse it, with non-finite numbers and duplicate keys
refused too. Every refusal is an :class:`UntrustedJsonError` (a ``ValueError``) with a one-line
message such as ``nesting deeper than 64 at byte 1234``.
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass

__all__ = ["DEFAULT_LIMITS", "JsonLimits", "UntrustedJsonError", "loads"]


class UntrustedJsonError(ValueError):
    """JSON text refused; the message names the first problem and where it is."""


@dataclass(frozen=True, slots=True)
class JsonLimits:
    """Bounds on a JSON text; every reader states the ones that fit what it reads."""

    max_bytes: int = 8 * 1024 * 1024
    """Length of the text in UTF-8 bytes."""
    max_depth: int = 64
    """Arrays and objects inside each other."""
    max_digits: int = 40
    """Digits in one number (a 64-bit integer has 20)."""
    max_items: int = 100_000
    """Elements of one array or members of one object."""


DEFAULT_LIMITS = JsonLimits()

# The tokens the scan needs: whole strings (skipped at regex speed, escapes included; an
# unterminated one runs to the end), brackets, commas and numbers.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*(?:"|\\?\Z)|[\[\]{},]|-?[0-9][0-9.eE+\-]*', re.DOTALL)
_OPENERS = frozenset("[{")
_CLOSERS = frozenset("]}")


def loads(text: str | bytes, limits: JsonLimits = DEFAULT_LIMITS) -> object:
    """Parse untrusted JSON text (bytes are read as UTF-8, a byte-order mark allowed).

    :raises UntrustedJsonError: naming the first problem.
    """
    if isinstance(text, bytes):
        if len(text) > limits.max_bytes:
            raise UntrustedJsonError(f"{len(text)} bytes, more than {limits.max_bytes}")
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise UntrustedJsonError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    elif len(text) > limits.max_bytes:  # a character is at least one byte
        raise UntrustedJsonError(f"{len(text)} characters, more than {limits.max_bytes} bytes")
    elif (size := len(text.encode("utf-8", "surrogatepass"))) > limits.max_bytes:
        raise UntrustedJsonError(f"{size} bytes, more than {limits.max_bytes}")
    if not _within_at_a_glance(text, limits):
        _scan(text, limits)
    if text.startswith("\ufeff"):  # as json.loads does for text (bytes lose theirs above)
        raise UntrustedJsonError(
            "not JSON: Unexpected UTF-8 BOM (decode using utf-8-sig) at byte 0"
        )
    try:
        return _DECODER.decode(text)
    except UntrustedJsonError:
        raise
    except json.JSONDecodeError as exc:
        raise UntrustedJsonError(f"not JSON: {exc.msg} at byte {_byte(text, exc.pos)}") from None
    except (ValueError, RecursionError) as exc:  # defence in depth: the scan bounds these
        raise UntrustedJsonError(f"not JSON: {exc}") from None


def _within_at_a_glance(text: str, limits: JsonLimits) -> bool:
    """True when the text cannot break the scan's limits, by counts at C speed: no more brackets
    than the depth allowed, fewer commas than the elements allowed, and no run of number
    characters longer than the digits allowed (strings counted too, so never wrongly True).
    Short texts such as journal rows pass here; the others get the scan and its message."""
    return (
        text.count("[") + text.count("{") <= limits.max_depth
        and text.count(",") < limits.max_items
        and _long_number(limits.max_digits).search(text) is None
    )


@functools.cache
def _long_number(max_digits: int) -> re.Pattern[str]:
    """A run of characters a number is made of, longer than ``max_digits``."""
    return re.compile(f"[0-9.eE+\\-]{{{max_digits + 1}}}")


def _scan(text: str, limits: JsonLimits) -> None:
    """Depth, digits and element counts, in one pass without recursion."""
    counts: list[int] = []  # elements so far in each open container (commas + 1)
    for match in _TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        if first == '"':
            continue
        if first in _OPENERS:
            if len(counts) >= limits.max_depth:
                raise UntrustedJsonError(
                    f"nesting deeper than {limits.max_depth} at byte {_byte(text, match.start())}"
                )
            counts.append(1)
        elif first in _CLOSERS:
            if counts:
                counts.pop()
        elif first == ",":
            if counts:
                counts[-1] += 1
                if counts[-1] > limits.max_items:
                    raise UntrustedJsonError(
                        f"more than {limits.max_items} elements in one array or object at "
                        f"byte {_byte(text, match.start())}"
                    )
        else:
            digits = sum(ch.isdigit() for ch in token)
            if digits > limits.max_digits:
                raise UntrustedJsonError(
                    f"a number of {digits} digits at byte {_byte(text, match.start())} "
                    f"(at most {limits.max_digits})"
                )


def _byte(text: str, index: int) -> int:
    """The UTF-8 byte offset of a character index (positions in messages are bytes)."""
    return len(text[:index].encode("utf-8", "surrogatepass"))


def _refuse_constant(name: str) -> object:
    raise UntrustedJsonError(f"{name} is not a JSON number")


def _finite_float(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise UntrustedJsonError(f"the number {token} is too large")
    return value


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise UntrustedJsonError(f"the key {key!r} appears twice in one object")
            seen.add(key)
    return result


_DECODER = json.JSONDecoder(
    parse_constant=_refuse_constant,
    parse_float=_finite_float,
    object_pairs_hook=_unique_keys,
)
"""One decoder for every text (``json.loads`` with these hooks builds one per call)."""
