"""Each phone reads its page in its own language: the browser's Accept-Language first, the
seat's choice (``?lang=``, remembered by the page) over it; two seats in two languages at once."""

from __future__ import annotations

import json
import re
from pathlib import Path

from phones_helpers import harness, journal_game, seven_discard
from test_server import next_message, run

from companion_app.game_log import GameLog
from companion_app.i18n import catalogue
from companion_app.phones.messages import short
from companion_app.phones.page_words import script_words
from companion_app.rules.actions import DiscardCard
from companion_app.rules.cards import Card
from companion_app.rules.messages import msg


def _words(html: str) -> dict[str, object]:
    found = re.search(r"var WORDS = (\{.*?\});\n", html)
    assert found, "the page's script carries no WORDS"
    document: dict[str, object] = json.loads(found.group(1))
    return document


def test_two_seats_read_their_pages_in_two_languages(tmp_path: Path) -> None:
    session = journal_game(tmp_path / "j.db", seven_discard)

    async def scenario() -> None:
        async with harness(session) as h:
            polish = await h.client.get(
                f"/s/{h.tokens[0]}", headers={"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.5"}
            )
            german = await h.client.get(
                f"/s/{h.tokens[1]}?lang=de", headers={"Accept-Language": "pl"}
            )
            pl_html, de_html = await polish.text(), await german.text()
            assert polish.headers["Content-Language"] == "pl"
            assert german.headers["Content-Language"] == "de"
            assert '<html lang="pl">' in pl_html and "<h2>Karty postępu</h2>" in pl_html
            assert '<html lang="de">' in de_html and "<h2>Fortschrittskarten</h2>" in de_html
            assert '<option value="de" selected>Deutsch</option>' in de_html
            pl_words, de_words = _words(pl_html), _words(de_html)
            assert pl_words["words"]["live"] == "połączono"  # type: ignore[index]
            assert de_words["words"]["live"] == "verbunden"  # type: ignore[index]
            # Polish: 1 karta, 2–4 karty, 5–21 kart, 22–24 karty.
            forms = pl_words["plurals"]["{count} card"]  # type: ignore[index]
            table = pl_words["form"]
            assert [forms[table[n]] for n in (1, 3, 5, 12, 22)] == [  # type: ignore[index]
                "{count} karta",
                "{count} karty",
                "{count} kart",
                "{count} kart",
                "{count} karty",
            ]

    run(scenario())


def test_an_unknown_language_or_a_hostile_choice_reads_english(tmp_path: Path) -> None:
    session = journal_game(tmp_path / "j.db", seven_discard)

    async def scenario() -> None:
        async with harness(session) as h:
            for query, header in (
                ("?lang=xx", "fr"),
                ("?lang=%3Cscript%3E", ""),
                ("", "x" * 5000),
                ("?lang=" + "d" * 3000, "ja"),
            ):
                resp = await h.client.get(
                    f"/s/{h.tokens[0]}{query}", headers={"Accept-Language": header}
                )
                html = await resp.text()
                assert resp.status == 200
                assert '<html lang="en">' in html and "<h2>Progress cards</h2>" in html
                assert "<script>" not in html.split("<body>")[1].split("<script nonce")[0]

    run(scenario())


def test_the_pairing_error_speaks_the_browsers_language(tmp_path: Path) -> None:
    session = journal_game(tmp_path / "j.db", seven_discard)

    async def scenario() -> None:
        async with harness(session) as h:
            resp = await h.client.get("/s/nothing", headers={"Accept-Language": "cs"})
            assert resp.status == 403
            html = await resp.text()
            assert '<html lang="cs">' in html
            assert "Tato stránka není spárována" in html

    run(scenario())


def test_the_script_words_cannot_close_the_script_element() -> None:
    words = script_words('_("</script><b>") + _("live")', "en")
    assert "</script>" not in words and "<" not in words
    assert json.loads(words)["words"]["</script><b>"] == "</script><b>"


def test_two_phones_read_the_games_words_and_their_refusals_each_in_its_language(
    tmp_path: Path,
) -> None:
    """The rules core's words on the page (the decision, the log) and a refusal are rendered
    for each connection in its page's language: Czech for one seat, German for another."""
    session = journal_game(tmp_path / "j.db", seven_discard)
    game = session.game
    decider = game.prompt.player
    other = (decider + 1) % game.player_count
    prompt = game.describe_prompt()

    async def scenario() -> None:
        async with harness(session) as h:
            czech = await h.client.ws_connect(h.ws_path(decider) + "?lang=cs")
            german = await h.client.ws_connect(h.ws_path(other) + "?lang=de")
            cs_page = (await next_message(czech, "state"))["page"]
            de_page = (await next_message(german, "state"))["page"]
            assert cs_page["turn"]["prompt"] == catalogue("cs").render(prompt)
            assert de_page["turn"]["prompt"] == catalogue("de").render(prompt)
            assert cs_page["decision"]["words"] == catalogue("cs").render(prompt)
            last = GameLog.of(game).entries[-1].words_for(decider)
            assert cs_page["log"][-1]["text"] == catalogue("cs").render(last)
            # Its own seat, but not its decision: refused in German.
            mine = DiscardCard(other, Card.BRICK).to_json()
            await german.send_json({"type": "answer", "id": 1, "action": mine})
            result = await next_message(german, "result")
            words = catalogue("de").render(msg("it is not your decision: {prompt}", prompt=prompt))
            assert result["ok"] is False and result["error"] == short(words)
            await czech.close()
            await german.close()

    run(scenario())
