"""Names for the dice box's display, whose 3x5 font draws A–Z and 0–9 only.

The host folds a name before ``SHOW`` is sent, so the box needs no tables: Čeněk → CENEK,
Đức → DUC, Łucja → LUCJA, Jürgen → JURGEN, Straße → STRASSE.
"""

from __future__ import annotations

import unicodedata

# Letters that are not a base letter plus combining marks, so NFKD leaves them whole.
_WHOLE = {
    "Đ": "D",
    "đ": "d",
    "Ł": "L",
    "ł": "l",
    "Ø": "O",
    "ø": "o",
    "ß": "ss",
    "Æ": "AE",
    "æ": "ae",
    "Œ": "OE",
    "œ": "oe",
    "Þ": "TH",
    "þ": "th",
    "Ħ": "H",
    "ħ": "h",
    "ı": "i",
}


def fold_for_box(name: str, limit: int = 10) -> str:
    """Upper-case A–Z and 0–9 of ``name``, at most ``limit`` characters ("" if none)."""
    out: list[str] = []
    for char in name:
        for part in unicodedata.normalize("NFKD", _WHOLE.get(char, char)):
            if part.isascii() and part.isalnum():
                out.append(part.upper())
        if len(out) >= limit:
            break
    return "".join(out)[:limit]
