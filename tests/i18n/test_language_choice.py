"""Choosing the reader's language: the system locale, a browser's Accept-Language, and the
names the dice box's font can draw."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion_app.i18n import MAX_ACCEPT_LANGUAGE, catalogue, negotiate, system_language
from companion_app.i18n.fold import fold_for_box
from companion_app.rules.messages import msg, nmsg


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("pl-PL,pl;q=0.9,en;q=0.5", "pl"),
        ("fr-FR, de;q=0.3", "de"),
        ("en;q=0.5, vi;q=0.8", "vi"),
        ("cs", "cs"),
        ("ca-ES-valencia", "ca"),
        ("fr, ja", "en"),
        ("", "en"),
        ("de;q=0, cs;q=0.1", "cs"),
        ("de;q=abc, pl", "pl"),
        ("de;q=7", "en"),
    ],
)
def test_a_phone_gets_the_best_language_its_browser_asks_for(header: str, language: str) -> None:
    assert negotiate(header) == language


@given(st.text(max_size=4 * MAX_ACCEPT_LANGUAGE))
def test_any_accept_language_header_gets_a_language(header: str) -> None:
    assert negotiate(header) in {"en", "cs", "ca", "pl", "de", "vi"}


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "cs_CZ.UTF-8"}, "cs"),
        ({"LANG": "de_DE.UTF-8", "LC_ALL": "vi_VN.UTF-8"}, "vi"),
        ({"LANGUAGE": "fr:pl", "LANG": "de_DE.UTF-8"}, "pl"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "C"}, "en"),
        ({}, "en"),
    ],
)
def test_the_first_start_takes_the_system_locale(environ: dict[str, str], language: str) -> None:
    assert system_language(environ) == language


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Čeněk", "Cenek"),
        ("Đức", "Duc"),
        ("Łucja", "Lucja"),
        ("Jürgen", "Jurgen"),
        ("Straße", "Strasse"),
        ("Nguyễn Thị", "NguyenThi"),
        ("Núria", "Nuria"),
        ("Kryštůf-Vávra", "KrystufVav"),
        ("李", ""),
    ],
)
def test_names_fold_to_what_the_box_font_draws(name: str, shown: str) -> None:
    assert fold_for_box(name) == shown


@given(st.text(max_size=40))
def test_a_folded_name_is_short_and_drawable(name: str) -> None:
    folded = fold_for_box(name)
    assert len(folded) <= 10
    assert all(c.isascii() and c.isalnum() for c in folded)


def test_english_renders_the_message_ids_themselves() -> None:
    en = catalogue("en")
    assert en.render(msg("{player} built a road", player="Anna")) == "Anna built a road"
    cards = [nmsg("{count} card", "{count} cards", n) for n in (1, 4)]
    assert [en.render(c) for c in cards] == ["1 card", "4 cards"]
    assert en.render(msg("{a} and {b}", a="x", b=msg("y"))) == "x and y"


def test_an_unknown_language_reads_english() -> None:
    assert catalogue("xx").code == "en"
