"""The message ids a static page or a Kivy rule says, read without Babel (at run time too).

The phone page's script and HTML and the ``.kv`` files mark their words as ``_("…")`` and, for
a sentence with plural forms, ``n_("… one", "… many", count)``. The catalogue's extraction
reads them with :func:`message_calls`, and so does the table server, to send each phone the
translations of exactly the words its page says.
"""

from __future__ import annotations

import re

_STRING = r'"((?:\\.|[^"\\])*)"'
_CALL = re.compile(rf"(?<![\w.$])(n?_)\(\s*{_STRING}(?:\s*,\s*{_STRING})?")


def _unescape(text: str) -> str:
    return text.encode("utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")


def message_calls(text: str) -> list[tuple[int, str, tuple[str, ...]]]:
    """``(line, function, ids)`` for each marked word: ``(3, "_", ("Log",))``,
    ``(9, "n_", ("{count} card", "{count} cards"))``."""
    found: list[tuple[int, str, tuple[str, ...]]] = []
    for match in _CALL.finditer(text):
        function, first, second = match.group(1), match.group(2), match.group(3)
        if function == "n_" and second is None:
            continue
        ids = (first, second) if function == "n_" else (first,)
        line = text.count("\n", 0, match.start()) + 1
        found.append((line, function, tuple(_unescape(i) for i in ids)))
    return found
