"""The English text of what the rules core says, for tests that read its words."""

from __future__ import annotations

from typing import Any

from companion_app.rules.messages import Msg


def said(words: Any) -> Any:
    """``words`` in English (the source language): a message's text, each of a list's or a
    dict's values, None as None, anything else as it is."""
    if isinstance(words, Msg):
        return str(words)
    if isinstance(words, list | tuple):
        return type(words)(said(w) for w in words)
    if isinstance(words, dict):
        return {key: said(value) for key, value in words.items()}
    return words
