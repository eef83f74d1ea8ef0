"""Every letter of every language renders in the app's fonts: Czech háčeks, Polish ogoneks,
Catalan's middle dot, German's ß and Vietnamese stacked diacritics, with no missing-glyph box.

The app draws with Kivy's Roboto (regular and bold, the default of every Label); a letter that
a font lacks renders as that font's ``.notdef`` box. Each catalogue's longest translation is
rendered with the same font files, and each of its letters is compared with the box.
"""

from __future__ import annotations

from pathlib import Path

import kivy
import pytest
from babel.messages.pofile import read_po
from PIL import Image, ImageChops, ImageDraw, ImageFont

from companion_app.i18n import catalogues

FONTS = Path(kivy.__file__).parent / "data" / "fonts"
APP_FONTS = ("Roboto-Regular.ttf", "Roboto-Bold.ttf")
# Letters the catalogues must be able to show even before a message uses them: each language's
# alphabet beyond ASCII, Vietnamese in full (tone marks stacked on circumflex and breve).
ALPHABETS = {
    "cs": "ÁáČčĎďÉéĚěÍíŇňÓóŘřŠšŤťÚúŮůÝýŽž",
    "pl": "ĄąĆćĘęŁłŃńÓóŚśŹźŻż„”",
    "de": "ÄäÖöÜüß„“",
    "ca": "ÀàÇçÈèÉéÍíÏïÒòÓóÚúÜü·",
    "vi": "ĂăÂâĐđÊêÔôƠơƯư"
    "ẠạẢảẤấẦầẨẩẪẫẬậẮắẰằẲẳẴẵẶặẸẹẺẻẼẽẾếỀềỂểỄễỆệỈỉỊịỌọỎỏỐốỒồỔổỖỗỘộỚớỜờỞởỠỡỢợỤụỦủỨứỪừỬửỮữỰựỲỳỴỵỶỷỸỹ",
}


def _translations(code: str) -> list[str]:
    with catalogues.po_path(code).open("rb") as handle:
        catalog = read_po(handle, locale=code)
    found: list[str] = []
    for message in catalog:
        if message.id:
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            found.extend(s for s in strings if s)
    return found


def _glyph(font: ImageFont.FreeTypeFont, char: str) -> Image.Image:
    image = Image.new("L", (96, 96))
    ImageDraw.Draw(image).text((16, 8), char, font=font, fill=255)
    return image


def _missing(font: ImageFont.FreeTypeFont, text: str) -> list[str]:
    box = _glyph(font, "\U0010fffd")  # a private-use code point no font of ours maps

    def is_box(char: str) -> bool:
        return ImageChops.difference(_glyph(font, char), box).getbbox() is None

    return sorted({char for char in set(text) if not char.isspace() and is_box(char)})


@pytest.mark.parametrize("font_file", APP_FONTS)
@pytest.mark.parametrize("code", catalogues.translated_codes())
def test_every_letter_of_the_language_renders_in_the_app_fonts(code: str, font_file: str) -> None:
    font = ImageFont.truetype(str(FONTS / font_file), 40)
    texts = _translations(code)
    longest = max(texts, key=len, default="")
    assert _missing(font, longest + ALPHABETS[code] + "".join(texts)) == []


def test_the_check_sees_a_missing_glyph() -> None:
    font = ImageFont.truetype(str(FONTS / "Roboto-Regular.ttf"), 40)
    assert _missing(font, "ab\u0f00c") == ["\u0f00"]  # a Tibetan letter Roboto lacks


def _names_a_font(line: str) -> bool:
    return any(word in line for word in ("font_name", "font_context", ".ttf", ".otf"))


def test_every_widget_draws_with_the_fonts_checked_here() -> None:
    """No widget, rule or drawn text of the app names a font of its own, so every one draws
    with Kivy's default Roboto (regular, and bold for ``bold``/``[b]``): the fonts the test
    above holds to every letter of every catalogue."""
    app = Path(catalogues.PACKAGE_DIR) / "app"
    named = [
        f"{path.relative_to(app)}:{number}"
        for path in sorted([*app.rglob("*.kv"), *app.rglob("*.py")])
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _names_a_font(line.replace("resolve_font_name()", ""))  # resolving names none
    ]
    assert named == []
    from kivy.core.text import DEFAULT_FONT

    assert DEFAULT_FONT == "Roboto"
