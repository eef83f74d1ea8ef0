"""The phone page in its reader's language.

The page's own words are marked in its HTML (``{{_("Log")}}``) and script (``_("live")``,
``n_("{count} card", "{count} cards", n)``); the server translates the HTML's marks before
sending it and gives the script the translations of exactly the words it says, with the
language's plural form for each count from 0 to 199 (the script runs no plural rule: the page's
policy allows no code built at run time). Which language: the one the phone chose (``?lang=``,
remembered in the phone's storage by the page), else the best of the browser's
``Accept-Language``.
"""

from __future__ import annotations

import gettext
import json
import re
from collections.abc import Callable
from functools import cache

from companion_app.i18n import LANGUAGES, catalogue, negotiate
from companion_app.i18n.calls import message_calls

_MARK = re.compile(r'\{\{_\("((?:\\.|[^"\\])*)"\)\}\}')
PLURAL_TABLE = 200
"""Counts the script's plural table covers; beyond it a count takes the form of 100 + n % 100
(every plural rule of ours depends on n % 100 and n % 10 only above 99)."""


def choose_language(asked: str | None, accept_language: str) -> str:
    """The page's language: a valid ``?lang=`` first, else the browser's preference."""
    if asked is not None and asked in LANGUAGES:
        return asked
    return negotiate(accept_language)


def html_text(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def translate_marks(template: str, code: str) -> str:
    """The HTML with each ``{{_("…")}}`` in the language (escaped for HTML)."""
    words = catalogue(code)
    return _MARK.sub(lambda m: html_text(words.gettext(m.group(1))), template)


def language_options(code: str) -> str:
    """The page's language picker: each language under its own name, ``code`` selected."""
    return "".join(
        f'<option value="{lang.code}"{" selected" if lang.code == code else ""}>'
        f"{html_text(lang.name)}</option>"
        for lang in LANGUAGES.values()
    )


@cache
def script_words(script: str, code: str) -> str:
    """The ``WORDS`` the page's script reads: a JSON object, safe inside a ``<script>``."""
    words = catalogue(code)
    plain: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    for _, function, ids in message_calls(script):
        if function == "n_":
            one, many = ids
            plurals[one] = [words.ngettext(one, many, n) for n in _form_samples(code)]
        else:
            plain[ids[0]] = words.gettext(ids[0])
    document = {"words": plain, "plurals": plurals, "form": _plural_table(code)}
    text = json.dumps(document, ensure_ascii=False, sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _plural_table(code: str) -> list[int]:
    """The plural form of each count below :data:`PLURAL_TABLE` in the language."""
    chooser = _chooser(code)
    return [chooser(n) for n in range(PLURAL_TABLE)]


def _chooser(code: str) -> Callable[[int], int]:
    rule = LANGUAGES[code].plural_forms.split("plural=", 1)[1].rstrip(";")
    chooser: Callable[[int], int] = gettext.c2py(rule)
    return chooser


def _form_samples(code: str) -> list[int]:
    """One count per plural form of the language, in form order (1, 2, 5 for Czech)."""
    chooser = _chooser(code)
    by_form: dict[int, int] = {}
    for n in range(PLURAL_TABLE):
        by_form.setdefault(chooser(n), n)
    return [by_form[form] for form in sorted(by_form)]
