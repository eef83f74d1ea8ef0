"""Names for the dice box's display, whose 3x5 font draws A–Z and 0–9 only (it shows letters
in upper case).

The host folds a name before ``SHOW`` is sent, so the box needs no tables: Čeněk → Cenek,
Đức → Duc, Łucja → Lucja, Jürgen → Jurgen, Straße → Strasse.
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
    """The letters (A–Z, a–z) and digits of ``name`` with their marks taken off, at most
    ``limit`` characters ("" if none)."""
    out: list[str] = []
    for char in name:
        for part in unicodedata.normalize("NFKD", _WHOLE.get(char, char)):
            if part.isascii() and part.isalnum():
                out.append(part)
        if len(out) >= limit:
            break
    return "".join(out)[:limit]
