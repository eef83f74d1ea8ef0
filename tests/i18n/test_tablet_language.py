"""The tablet's language: the app's words through ``_`` and ``n_``, the Kivy rules' words that
follow a switch at once, the choice remembered in settings.json and the first start's system
locale."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion_app.i18n import LANGUAGES, catalogue, current, system_language
from companion_app.presenters.settings import Settings, read_settings, write_settings


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    current.use("en")


def test_the_app_words_follow_the_language_chosen_now() -> None:
    current.use("de")
    assert current._("Settings") == "Einstellungen"
    current.use("vi")
    assert current._("Settings") == "Cài đặt"
    current.use("en")
    assert current._("Settings") == "Settings"


@pytest.mark.parametrize(
    ("code", "counts"),
    [
        ("cs", {1: "1 město", 3: "3 města", 5: "5 měst", 22: "22 měst"}),
        ("pl", {1: "1 miasto", 3: "3 miasta", 5: "5 miast", 22: "22 miasta", 25: "25 miast"}),
        ("de", {1: "1 Stadt", 2: "2 Städte"}),
        ("vi", {1: "1 thành phố", 7: "7 thành phố"}),
        ("en", {1: "1 city", 2: "2 cities"}),
    ],
)
def test_a_count_takes_the_language_s_plural_form(code: str, counts: dict[int, str]) -> None:
    current.use(code)
    shown = {n: current.n_("{count} city", "{count} cities", n) for n in counts}
    assert shown == counts


def test_a_sentence_with_a_count_fills_its_other_placeholders() -> None:
    current.use("pl")
    assert current.n_("Choose {count} more", "Choose {count} more", 3) == "Wybierz jeszcze 3"
    assert current.n_("{chosen} of {count} chosen", "{chosen} of {count} chosen", 4, chosen=1) == (
        "wybrano 1 z 4"
    )


def test_a_switch_tells_every_listener() -> None:
    heard: list[str] = []
    current.listen(lambda: heard.append(current.language()))
    current.use("ca")
    current.use("cs")
    assert heard[-2:] == ["ca", "cs"]


def test_a_language_we_do_not_speak_is_refused() -> None:
    with pytest.raises(ValueError):
        current.use("fr")
    assert current.parse_languages("de,VI, pl", several=True) == ["de", "vi", "pl"]
    for bad in ("xx", "de,de", "", "de,"):
        with pytest.raises(ValueError, match="--lang"):
            current.parse_languages(bad, several=True)
    with pytest.raises(ValueError, match="--lang"):
        current.parse_languages("de,vi")


def test_the_choice_is_remembered_and_a_foreign_one_reads_as_none(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    write_settings(path, Settings(muted=True).with_(language="pl"))
    assert read_settings(path) == Settings(muted=True, language="pl")
    path.write_text('{"muted": false, "language": "klingon"}')
    assert read_settings(path).language == ""
    assert system_language({"LANG": "vi_VN.UTF-8"}) == "vi"
    assert set(LANGUAGES) == {"en", "cs", "ca", "pl", "de", "vi"}


def test_a_kivy_rule_s_words_follow_a_switch_at_once() -> None:
    """A rule that says ``_("…")`` (or ``n_``) is read again when the language changes, with no
    redraw asked for; a widget gone drops its binding."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    import gc

    from kivy.factory import Factory
    from kivy.lang import Builder

    from companion_app.app.language import _ as words

    Builder.load_string(
        """
<LanguageProbe@Label>:
    count: 3
    text: _("Settings") + " · " + n_("{count} city", "{count} cities", self.count)
"""
    )
    label = Factory.LanguageProbe()
    assert label.text == "Settings · 3 cities"
    current.use("cs")
    assert label.text == "Nastavení · 3 města"
    label.count = 5
    assert label.text == "Nastavení · 5 měst"
    current.use("vi")
    assert label.text == "Cài đặt · 5 thành phố"
    before = words.bindings
    del label
    gc.collect()
    current.use("en")
    assert words.bindings < before


def test_a_board_s_own_words_follow_a_switch() -> None:
    """The build-table board draws its hexes' ids itself (no Label): the words come from its
    kv rule, so a switch changes them and the change redraws the board."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from companion_app.app.widgets.board_view import BoardView

    board = BoardView()
    assert board.hex_words.format(number=4) == "hex 4"
    current.use("vi")
    assert board.hex_words.format(number=4) == "ô 4"
    current.use("pl")
    assert board.hex_words.format(number=4) == catalogue("pl").gettext("hex {number}").format(
        number=4
    )
    assert board.hex_words != "hex {number}"
