"""The catalogues every language is read from (gettext conventions: docs/translating.md).

What ``make test`` holds them to: the template is current with the code, each language's
``.po`` has its plural rule, every message is translated, a translation keeps its message id's
placeholders, and ``msgfmt --check`` (Debian's gettext) finds nothing.
"""

from __future__ import annotations

import gettext
import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import write_po

from companion_app.i18n import LANGUAGES, LOCALE_DIR, Catalogue, catalogues
from companion_app.rules.messages import msg, nmsg, pmsg


def test_the_catalogues_are_complete_and_current() -> None:
    problems = catalogues.check(current=catalogues.template())
    assert [str(p) for p in problems] == []


@pytest.mark.parametrize("code", catalogues.translated_codes())
def test_msgfmt_check_passes(code: str, tmp_path: Path) -> None:
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.fail("msgfmt is missing: apt-get install gettext (make test installs it as root)")
    result = subprocess.run(
        [msgfmt, "--check", "-o", str(tmp_path / "out.mo"), str(catalogues.po_path(code))],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


# The plural rules against the grammar books: which form each count takes.
PLURAL_FORMS = {
    "en": {1: 0, 2: 1, 5: 1, 0: 1},
    "de": {1: 0, 2: 1, 0: 1, 21: 1},
    "ca": {1: 0, 2: 1, 0: 1},
    "vi": {1: 0, 2: 0, 5: 0},
    # Czech: 1 karta, 2–4 karty, 5+ karet (and 22 karet: only 2–4 themselves take "karty").
    "cs": {1: 0, 2: 1, 4: 1, 5: 2, 0: 2, 22: 2},
    # Polish: 1 karta, 2–4 / 22–24 karty, 5–21 / 25 kart (12–14 are "kart").
    "pl": {1: 0, 2: 1, 4: 1, 5: 2, 12: 2, 14: 2, 21: 2, 22: 1, 25: 2, 112: 2, 122: 1},
}


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_plural_rules_choose_the_grammar_books_forms(code: str) -> None:
    rule = LANGUAGES[code].plural_forms.split("plural=", 1)[1].rstrip(";")
    chooser = gettext.c2py(rule)
    assert {n: chooser(n) for n in PLURAL_FORMS[code]} == PLURAL_FORMS[code]
    assert max(chooser(n) for n in range(200)) == LANGUAGES[code].nplurals - 1


def _fixture_catalogue(root: Path, code: str, entries: list[tuple[object, object]]) -> None:
    catalog = Catalog(locale=code, fuzzy=False)
    catalog.mime_headers = [
        *[(k, v) for k, v in catalog.mime_headers if k != "Plural-Forms"],
        ("Plural-Forms", LANGUAGES[code].plural_forms),
    ]
    for msgid, msgstr in entries:
        context = None
        if isinstance(msgid, tuple) and len(msgid) == 3:
            context, *rest = msgid
            msgid = rest[0] if rest[1] is None else tuple(rest)
        catalog.add(msgid, msgstr, context=context)
    target = catalogues.po_path(code, root)
    target.parent.mkdir(parents=True)
    with target.open("wb") as handle:
        write_po(handle, catalog)
    with target.with_suffix(".mo").open("wb") as handle:
        write_mo(handle, catalog)


def test_a_czech_sentence_takes_the_form_of_its_count(tmp_path: Path) -> None:
    _fixture_catalogue(
        tmp_path,
        "cs",
        [
            (
                ("{player}: discard {count} card", "{player}: discard {count} cards"),
                (
                    "{player}: odhoď {count} kartu",
                    "{player}: odhoď {count} karty",
                    "{player}: odhoď {count} karet",
                ),
            ),
            (("resource", "ore", None), "ruda"),
            ("{player} gets {cards}", "{player} dostává {cards}"),
        ],
    )
    cs = Catalogue(LANGUAGES["cs"], gettext.translation("companion", tmp_path, ["cs"]))
    said = [
        cs.render(
            nmsg(
                "{player}: discard {count} card",
                "{player}: discard {count} cards",
                n,
                player="Čeněk",
            )
        )
        for n in (1, 3, 5)
    ]
    assert said == ["Čeněk: odhoď 1 kartu", "Čeněk: odhoď 3 karty", "Čeněk: odhoď 5 karet"]
    ore = pmsg("resource", "ore")
    assert cs.render(msg("{player} gets {cards}", player="Bo", cards=(ore, ore))) == (
        "Bo dostává ruda a ruda"
    )


def test_the_check_names_each_fault_of_a_catalogue(tmp_path: Path) -> None:
    catalogues._write(
        tmp_path / "companion.pot",
        _template_of(["{player} built a road", ("{count} card", "{count} cards"), "Undo"]),
    )
    for code in catalogues.translated_codes():
        faults = {
            "de": [
                ("{player} built a road", "{spieler} baute eine Straße"),
                (("{count} card", "{count} cards"), ("{count} Karte", "{count} Karten")),
                ("Undo", "Rückgängig"),
            ],
            "pl": [
                ("{player} built a road", "{player} zbudował drogę"),
                (("{count} card", "{count} cards"), ("{count} karta", "{count} karty")),
                ("Undo", "Cofnij"),
            ],
            "vi": [
                ("{player} built a road", "{player} xây một con đường"),
                (("{count} card", "{count} cards"), ("{count} thẻ",)),
            ],
        }.get(
            code,
            [
                ("{player} built a road", "{player} ok"),
                (
                    ("{count} card", "{count} cards"),
                    tuple("{count} x" for _ in range(LANGUAGES[code].nplurals)),
                ),
                ("Undo", "x"),
            ],
        )
        _fixture_catalogue(tmp_path, code, faults)
    found = {str(p) for p in catalogues.check(tmp_path)}
    assert found == {
        "de/companion.po: '{player} built a road': placeholders ['spieler'] differ from ['player']",
        "pl/companion.po: '{count} card': plural form 2 not translated",
        "vi/companion.po: no entry for 'Undo'",
    }


def _template_of(ids: list[object]) -> Catalog:
    pot = Catalog(fuzzy=False)
    for message_id in ids:
        pot.add(message_id, None)
    return pot


def test_a_translation_with_other_placeholders_reads_english(tmp_path: Path) -> None:
    _fixture_catalogue(tmp_path, "de", [("{player} built a road", "{spieler} baute")])
    de = Catalogue(LANGUAGES["de"], gettext.translation("companion", tmp_path, ["de"]))
    assert de.render(msg("{player} built a road", player="Anna")) == "Anna built a road"


def test_every_language_has_a_catalogue_in_the_package() -> None:
    for code in catalogues.translated_codes():
        assert catalogues.po_path(code).is_file(), code
    assert (LOCALE_DIR / "companion.pot").is_file()
