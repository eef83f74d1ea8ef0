"""Keeping the catalogues: extract the message ids, update each language, compile, check.

Babel does the reading and writing (a tool of the build and of translators, not needed at run
time: the app reads the compiled ``.mo`` files with the standard library's gettext). The check
is what ``make test`` holds every catalogue to: the template is current, every message is
translated in every language, the placeholders of each translation are those of its message
id, and the plural forms are the language's.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion_app.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, SOURCE, placeholders
from companion_app.i18n.calls import message_calls

PACKAGE_DIR = LOCALE_DIR.parent
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
KEYWORDS: dict[str, Any] = {
    "_": None,
    "N_": None,
    "Nn_": (1, 2),
    "msg": None,
    "nmsg": (1, 2),
    "n_": (1, 2),
    "pmsg": ((1, "c"), 2),
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
}
"""The calls whose first arguments are message ids (see :mod:`companion_app.rules.messages`)."""
METHODS = [
    ("**/i18n/**.py", "ignore"),
    ("**.py", "python"),
    ("**.kv", "companion_app.i18n.catalogues:extract_calls"),
    ("**/static/**.html", "companion_app.i18n.catalogues:extract_calls"),
    ("**/static/**.js", "companion_app.i18n.catalogues:extract_calls"),
]


def extract_calls(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str | tuple[str, ...], list[str]]]:
    """Babel's extraction method for ``.kv`` files and the phone page (``.html``, ``.js``):
    each ``_("…")`` and ``n_("…", "…", n)``, read as :mod:`companion_app.i18n.calls` reads them."""
    text = fileobj.read().decode("utf-8")
    for line, function, ids in message_calls(text):
        yield line, "ngettext" if function == "n_" else "_", ids if len(ids) > 1 else ids[0], []


def po_path(code: str, root: Path = LOCALE_DIR) -> Path:
    return root / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def translated_codes() -> list[str]:
    return [code for code in LANGUAGES if code != SOURCE]


def template() -> Any:
    """The catalogue template of every message id in the package, as Babel extracts it."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    catalog = Catalog(project="catan-companion", fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
        PACKAGE_DIR, METHODS, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
    ):
        path = f"companion_app/{filename}"
        catalog.add(message, None, [(path, lineno)], auto_comments=comments, context=context)
    return catalog


def _read(path: Path, locale: str | None = None) -> Any:
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        return read_po(handle, locale=locale)


def _write(path: Path, catalog: Any) -> None:
    from babel.messages.pofile import write_po

    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, sort_output=False, omit_header=False)
    path.write_bytes(buffer.getvalue())


def extract() -> None:
    """Writes ``companion.pot`` from the code."""
    _write(TEMPLATE, template())


def update() -> None:
    """Merges the template into every language's ``.po`` (new ids untranslated, gone ids
    dropped), creating a language's file with its plural rule if it has none."""
    from babel.messages.catalog import Catalog

    pot = _read(TEMPLATE)
    for code in translated_codes():
        path = po_path(code)
        if path.exists():
            catalog = _read(path, locale=code)
        else:
            catalog = Catalog(locale=code, project="catan-companion", fuzzy=False)
        catalog.update(pot, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        _set_plural_forms(path, catalog, code)
        _write(path, catalog)


def _set_plural_forms(path: Path, catalog: Any, code: str) -> None:
    header = catalog.mime_headers
    header = [(k, v) for k, v in header if k != "Plural-Forms"]
    header.append(("Plural-Forms", LANGUAGES[code].plural_forms))
    catalog.mime_headers = header


def compile_all(out_root: Path = LOCALE_DIR, src_root: Path = LOCALE_DIR) -> list[Path]:
    """Compiles every language's ``.po`` into a ``.mo`` under ``out_root`` (the build's copy
    of the package, or the source tree for ``make``)."""
    from babel.messages.mofile import write_mo

    written: list[Path] = []
    for code in translated_codes():
        source = po_path(code, src_root)
        if not source.exists():
            continue
        target = (
            source.with_suffix(".mo")
            if out_root == src_root
            else (po_path(code, out_root).with_suffix(".mo"))
        )
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("wb") as handle:
            write_mo(handle, _read(source, locale=code), use_fuzzy=False)
        written.append(target)
    return written


@dataclass(frozen=True, slots=True)
class Problem:
    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


def check(root: Path = LOCALE_DIR, current: Any = None) -> list[Problem]:
    """Every problem of the catalogues under ``root`` (none is the only good answer)."""
    problems: list[Problem] = []
    pot_path = root / f"{DOMAIN}.pot"
    if not pot_path.exists():
        return [Problem(str(pot_path.name), "the template is missing: run extract")]
    pot = _read(pot_path)
    wanted = {(m.context, _key(m.id)) for m in pot if m.id}
    if current is not None:
        extracted = {(m.context, _key(m.id)) for m in current if m.id}
        for _context, key in sorted(extracted - wanted, key=str):
            problems.append(Problem(pot_path.name, f"not extracted yet: {key[0]!r}"))
        for _context, key in sorted(wanted - extracted, key=str):
            problems.append(Problem(pot_path.name, f"no longer in the code: {key[0]!r}"))
    for code in translated_codes():
        problems.extend(_check_language(root, code, pot, wanted))
    return problems


def _key(message_id: Any) -> tuple[str, ...]:
    return tuple(message_id) if isinstance(message_id, tuple | list) else (message_id,)


def _check_language(root: Path, code: str, pot: Any, wanted: set[Any]) -> list[Problem]:
    path = po_path(code, root)
    where = f"{code}/{path.name}"
    if not path.exists():
        return [Problem(where, "missing")]
    catalog = _read(path, locale=code)
    problems: list[Problem] = []
    language = LANGUAGES[code]
    declared = dict(catalog.mime_headers).get("Plural-Forms", "")
    if _squash(declared) != _squash(language.plural_forms):
        problems.append(Problem(where, f"Plural-Forms is {declared!r}, not the language's"))
    have = {(m.context, _key(m.id)): m for m in catalog if m.id}
    for context, key in sorted(wanted, key=str):
        message = have.get((context, key))
        label = key[0] if context is None else f"{context}|{key[0]}"
        if message is None:
            problems.append(Problem(where, f"no entry for {label!r}"))
            continue
        problems.extend(
            Problem(where, f"{label!r}: {what}")
            for what in _translation_problems(message, key, language.nplurals)
        )
    return problems


def _translation_problems(message: Any, key: tuple[str, ...], nplurals: int) -> Iterator[str]:
    if message.fuzzy:
        yield "marked fuzzy"
    forms = list(message.string) if isinstance(message.string, tuple | list) else [message.string]
    if len(key) == 2 and len(forms) != nplurals:
        yield f"{len(forms)} plural forms, the language has {nplurals}"
    for index, form in enumerate(forms):
        if not form:
            yield "not translated" if len(forms) == 1 else f"plural form {index} not translated"
            continue
        expected = placeholders(key[-1] if index or len(key) == 1 else key[0])
        found = placeholders(form)
        # A plural form may leave out {count} where the form is for one thing only.
        optional = {"count"} if len(key) == 2 else set()
        if found - placeholders(key[-1]) - placeholders(key[0]) or (expected - optional) - found:
            yield f"placeholders {sorted(found)} differ from {sorted(expected)}"


def _squash(text: str) -> str:
    return "".join(text.split()).rstrip(";")
