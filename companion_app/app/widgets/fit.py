"""A button's words at a size where its longest word fits on one line: a long word in a narrow
button ("Rückgängig", "Stadtverbesserungen") is set smaller rather than broken inside, down to
a floor that still reads at arm's length."""

from __future__ import annotations

from functools import lru_cache

from kivy.core.text import Label as CoreLabel
from kivy.metrics import sp

STEP_SP = 1.0


@lru_cache(maxsize=2048)
def _word_width(word: str, font_size: float, bold: bool) -> float:
    label = CoreLabel(text=word, font_size=font_size, bold=bold)
    label.refresh()
    return float(label.texture.size[0]) if label.texture else 0.0


def fitting_size(
    text: str, room: float, largest: float, smallest: float, bold: bool = False
) -> float:
    """The largest font size from ``largest`` down to ``smallest`` (pixels) at which every word
    of ``text`` fits in ``room`` pixels."""
    words = sorted(set(text.split()), key=len, reverse=True)[:3]
    size = largest
    while size > smallest and words and max(_word_width(w, size, bold) for w in words) > room:
        size = max(smallest, size - sp(STEP_SP))
    return size


@lru_cache(maxsize=1024)
def _block_height(text: str, font_size: float, width: float, bold: bool) -> float:
    label = CoreLabel(text=text, font_size=font_size, bold=bold, text_size=(width, None))
    label.refresh()
    return float(label.texture.size[1]) if label.texture else 0.0


def fitting_block(
    text: str, width: float, height: float, largest: float, smallest: float, bold: bool = False
) -> float:
    """The largest font size from ``largest`` down to ``smallest`` (pixels) at which ``text``,
    wrapped at ``width``, fits its box of ``width`` x ``height`` with no word broken inside: a
    sentence longer in another language ("3 + 1 = 4, cổng thành xanh dương") is set smaller
    rather than cut."""
    if not text or width <= 1 or height <= 1:
        return largest
    size = fitting_size(text, width, largest, smallest, bold)
    while size > smallest and _block_height(text, size, width, bold) > height:
        size = max(smallest, size - sp(STEP_SP))
    return size
