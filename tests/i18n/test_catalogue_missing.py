"""A language whose catalogue is not compiled is said, in one place
(``i18n.catalogue_missing``): Settings greys it, the start's log names it, the tour asks it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion_app import i18n


@pytest.fixture
def no_german(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the catalogues without German's compiled one (a checkout without ``make``)."""
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale)
    (locale / "de" / "LC_MESSAGES" / "companion.mo").unlink()
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    i18n.catalogue.cache_clear()
    yield locale
    i18n.catalogue.cache_clear()


def test_every_compiled_language_can_be_shown() -> None:
    assert all(i18n.can_show(code) for code in i18n.LANGUAGES)
    assert i18n.catalogue_missing("de") is None


def test_a_missing_catalogue_is_named_with_what_compiles_it(no_german: Path) -> None:
    assert not i18n.can_show("de")
    assert i18n.can_show("vi") and i18n.can_show("en")
    why = i18n.catalogue_missing("de")
    assert why == (
        "Deutsch (de) was asked for, but its catalogue is not compiled (no companion.mo in "
        f"{no_german / 'de' / 'LC_MESSAGES'}), so the words are English: make catalogues"
    )
    assert i18n.catalogue("de").gettext("Settings") == "Settings"  # English, as it says
