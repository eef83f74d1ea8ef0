"""The reader's language: catalogues, choosing a language, and rendering the rules' messages.

Message ids are the English text, written once in the code that says them (``msg``/``nmsg``/
``pmsg`` from :mod:`companion_app.rules.messages`, ``N_`` in declarations, ``_`` in the app).
Each language's catalogue is ``locale/<ll>/LC_MESSAGES/companion.po`` inside the package,
compiled to ``.mo`` when the package is built (``make`` does it for a source checkout), never
at start: a kiosk's or a tablet's install is read-only. A language whose ``.mo`` is missing
reads English, and says so once (``Catalogue.complete``).

Adding a language: its code, name and plural rule in :data:`LANGUAGES`, then
``python -m companion_app.i18n init LL`` and translate the new ``.po`` (docs/translating.md).
"""

from __future__ import annotations

import gettext
import re
import string
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import cache
from pathlib import Path

from companion_app.rules.messages import Msg, Value

DOMAIN = "companion"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
SOURCE = "en"


@dataclass(frozen=True, slots=True)
class Language:
    code: str
    name: str
    """The language's name in itself, as the language picker shows it."""
    plural_forms: str
    """The catalogue header's ``Plural-Forms`` (gettext's rule for the language)."""
    and_word: str
    """The word that joins the last two items of a list."""

    @property
    def nplurals(self) -> int:
        return int(self.plural_forms.split(";")[0].split("=")[1])


LANGUAGES: dict[str, Language] = {
    lang.code: lang
    for lang in (
        Language("en", "English", "nplurals=2; plural=(n != 1);", "and"),
        Language("cs", "Čeština", "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;", "a"),
        Language("ca", "Català", "nplurals=2; plural=(n != 1);", "i"),
        Language(
            "pl",
            "Polski",
            "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) "
            "? 1 : 2);",
            "i",
        ),
        Language("de", "Deutsch", "nplurals=2; plural=(n != 1);", "und"),
        Language("vi", "Tiếng Việt", "nplurals=1; plural=0;", "và"),
    )
}
"""Every language the product speaks, English (the source) first."""

MAX_ACCEPT_LANGUAGE = 512
"""An ``Accept-Language`` header longer than this is read only this far (it comes from a
phone: hostile until proven otherwise)."""


class Catalogue:
    """One language's translations, and the rendering of a :class:`Msg` in it."""

    def __init__(self, language: Language, translations: gettext.NullTranslations) -> None:
        self.language = language
        self._t = translations

    @property
    def code(self) -> str:
        return self.language.code

    @property
    def complete(self) -> bool:
        """False where the language's compiled catalogue was missing (it then reads English)."""
        return self.code == SOURCE or isinstance(self._t, gettext.GNUTranslations)

    def gettext(self, text: str, context: str = "") -> str:
        if context:
            return self._t.pgettext(context, text)
        return self._t.gettext(text)

    def ngettext(self, singular: str, plural: str, count: int, context: str = "") -> str:
        if context:
            return self._t.npgettext(context, singular, plural, count)
        return self._t.ngettext(singular, plural, count)

    def render(self, message: Msg | str) -> str:
        """The message in this language; a plain ``str`` is a message id without values."""
        if isinstance(message, str):
            return self.gettext(message)
        if message.plural:
            template = self.ngettext(message.text, message.plural, message.count, message.context)
        else:
            template = self.gettext(message.text, message.context)
        values = {key: self._value(value) for key, value in message.params}
        try:
            return _format(template, values)
        except (KeyError, IndexError, ValueError):
            # A translation whose placeholders differ (the catalogue test forbids it) reads
            # English rather than failing at the table.
            english = message.plural if message.plural and message.count != 1 else message.text
            return _format(english, values)

    def phrases(self) -> frozenset[str]:
        """Every translated text of this language's catalogue, plural forms included (empty
        for English, whose texts are the message ids): what a screen in another language must
        not show."""
        catalog = getattr(self._t, "_catalog", {})  # GNUTranslations' table of msgstr
        return frozenset(text for text in catalog.values() if isinstance(text, str) and text)

    def message_ids(self) -> frozenset[str]:
        """The English message ids this catalogue translates (contexts left out)."""
        catalog = getattr(self._t, "_catalog", {})
        keys = (key[0] if isinstance(key, tuple) else key for key in catalog)
        return frozenset(key.rpartition("\x04")[2] for key in keys if isinstance(key, str) and key)

    def english_left(self, text: str, allowed: Collection[str] = ()) -> list[str]:
        """The pieces of ``text``, written in this language, that are English message ids it
        translates otherwise: an id left on a screen or a page (``"trade: Targ (1)"``), where the
        tour's check of whole labels (:meth:`phrases`) finds no other language. A piece is what
        stands between the punctuation a screen composes with (``: · , ( ) = ;`` and line
        breaks); ``allowed`` are texts that may be anything (the players' names)."""
        if self.code == SOURCE:
            return []
        english = self.message_ids() - self.phrases() - set(allowed)
        pieces = (piece.strip() for piece in _PIECE_BREAKS.split(text))
        return [piece for piece in pieces if piece in english]

    def join(self, items: list[str]) -> str:
        """``"wool, grain and ore"`` in this language."""
        if len(items) <= 1:
            return "".join(items)
        return f"{', '.join(items[:-1])} {self.language.and_word} {items[-1]}"

    def _value(self, value: Value) -> str:
        if isinstance(value, Msg):
            return self.render(value)
        if isinstance(value, tuple):
            return self.join([self.render(item) for item in value])
        return str(value)


_PIECE_BREAKS = re.compile(r"[:·,()=;\n]+")


class _Strict(dict[str, str]):
    def __missing__(self, key: str) -> str:
        raise KeyError(key)


def _format(template: str, values: Mapping[str, str]) -> str:
    return string.Formatter().vformat(template, (), _Strict(values))


def placeholders(template: str) -> set[str]:
    """The ``{names}`` a message id or a translation uses (the catalogue test compares them)."""
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


@cache
def catalogue(code: str) -> Catalogue:
    """The catalogue of a language of :data:`LANGUAGES` (English for an unknown code)."""
    language = LANGUAGES.get(code, LANGUAGES[SOURCE])
    if language.code == SOURCE:
        return Catalogue(language, gettext.NullTranslations())
    translations = gettext.translation(
        DOMAIN, localedir=LOCALE_DIR, languages=[language.code], fallback=True
    )
    return Catalogue(language, translations)


def catalogue_missing(code: str) -> str | None:
    """Why the table cannot read ``code``: its catalogue is not compiled (a source checkout
    without ``make catalogues``), so its words would read English; None where it can. In
    English, for a log line; the one check of it (Settings, the start's log, the tour)."""
    if catalogue(code).complete:
        return None
    language = LANGUAGES[code]
    return (
        f"{language.name} ({code}) was asked for, but its catalogue is not compiled "
        f"(no {DOMAIN}.mo in {LOCALE_DIR / code / 'LC_MESSAGES'}), so the words are English: "
        "make catalogues"
    )


def can_show(code: str) -> bool:
    """The table can read ``code`` (:func:`catalogue_missing` says why not)."""
    return catalogue_missing(code) is None


_TABLE = [SOURCE]


def use_language(code: str) -> None:
    """Makes ``code`` the tablet's language (Settings, ``--lang``); an unknown code reads
    English. Nothing of a game changes: its words are rendered anew."""
    _TABLE[0] = code if code in LANGUAGES else SOURCE


def table_language() -> str:
    """The tablet's language (English until :func:`use_language`)."""
    return _TABLE[0]


def render(message: Msg | str, code: str | None = None) -> str:
    """``message`` in language ``code``, the tablet's language by default: the one door from
    the rules core's messages to words on a screen."""
    return catalogue(table_language() if code is None else code).render(message)


def number(value: float, digits: int = 0, code: str | None = None, *, signed: bool = False) -> str:
    """``value`` with ``digits`` decimals as language ``code`` (the tablet's by default) writes
    it, by Babel's number formatting: ``-29.2`` in English is ``-29,2`` in Czech, Catalan,
    Polish, German and Vietnamese. ``signed`` writes ``+`` before a positive number (luck). The
    one door for a number with decimals on any screen, page or line the app prints."""
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    if signed:
        pattern = f"+{pattern};-{pattern}"
    return str(format_decimal(value, pattern, locale=table_language() if code is None else code))


def day(value: date, code: str | None = None) -> str:
    """A date with its weekday as language ``code`` (the tablet's by default) writes it, by
    Babel's date formatting: ``Fri, Nov 20, 2026``, in German ``Fr., 20. Nov. 2026``."""
    from babel.dates import format_skeleton

    return str(format_skeleton("yMMMEd", value, locale=table_language() if code is None else code))


def moment(value: datetime, code: str | None = None) -> str:
    """A date and time in the machine's time zone as language ``code`` (the tablet's by
    default) writes it, by Babel: ``Nov 20, 2026, 9:40:00 PM``, in German ``20.11.2026,
    21:40:00``. A time without a zone is UTC, as the journal writes."""
    from babel.dates import format_datetime

    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    local = value.astimezone()
    language = table_language() if code is None else code
    return str(format_datetime(local, "medium", tzinfo=local.tzinfo, locale=language))


def render_error(error: Exception, code: str | None = None) -> str:
    """A refusal in language ``code``: a rules error's message (``error.message``), else the
    error's own words (a journal's, a file's)."""
    message = getattr(error, "message", None)
    return render(message, code) if isinstance(message, Msg) else str(error)


def language_of(tag: str) -> str | None:
    """The language of a locale or language tag we speak (``cs_CZ.UTF-8`` and ``de-AT`` both
    name one), else None."""
    code = tag.strip().replace("-", "_").split("_")[0].split(".")[0].lower()
    return code if code in LANGUAGES else None


def negotiate(accept_language: str) -> str:
    """The best language we speak for a browser's ``Accept-Language`` header (English if
    none): ``"pl-PL,pl;q=0.9,en;q=0.5"`` → ``"pl"``."""
    ranked: list[tuple[float, int, str]] = []
    for order, part in enumerate(accept_language[:MAX_ACCEPT_LANGUAGE].split(",")[:32]):
        tag, _, params = part.partition(";")
        quality = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                quality = float(params[2:])
            except ValueError:
                continue
        code = language_of(tag)
        if code is not None and 0 < quality <= 1:
            ranked.append((-quality, order, code))
    return min(ranked)[2] if ranked else SOURCE


def system_language(environ: Mapping[str, str]) -> str:
    """The language of the system's locale, as gettext reads it (``LANGUAGE`` first, then
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG``); English where none is ours."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for tag in environ.get(variable, "").split(":"):
            if tag and tag not in ("C", "POSIX"):
                code = language_of(tag)
                if code is not None:
                    return code
    return SOURCE
