"""The rules core's words read in each language: worked examples with their plural forms, a
whole random game rendered in every language, each phone in its own language, and a game that
re-reads in a new language without changing (it stores actions, never words)."""

from __future__ import annotations

import json

import pytest
from babel.messages.pofile import read_po

from companion_app.game_log import GameLog
from companion_app.i18n import (
    LANGUAGES,
    SOURCE,
    catalogue,
    catalogues,
    render,
    table_language,
    use_language,
)
from companion_app.phones.view import SeatPage, seat_page
from companion_app.rules import registry
from companion_app.rules.actions import BankTrade, PlayProgress
from companion_app.rules.cards import Card, ProgressCard
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import IllegalActionError
from companion_app.rules.game import Game
from companion_app.rules.messages import Msg
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64
from companion_app.rules.words import hand_words
from tests.rules.builders import make_game


def test_a_hand_takes_each_languages_plural_forms() -> None:
    """Czech and Polish have three forms (1 cihla, 2 cihly, 5 cihel; 1 cegła, 2 cegły, 5
    cegieł), German keeps "Lehm" uncounted, Vietnamese has one form."""
    hand = Card.BRICK.amount(2)
    many = tuple(5 if c == Card.BRICK else 1 if c == Card.COIN else 0 for c in range(8))
    assert catalogue("cs").render(hand_words(Card.BRICK.amount(1))) == "1 cihla"
    assert catalogue("cs").render(hand_words(hand)) == "2 cihly"
    assert catalogue("cs").render(hand_words(many)) == "5 cihel, 1 mince"
    assert catalogue("pl").render(hand_words(many)) == "5 cegieł, 1 moneta"
    assert catalogue("pl").render(hand_words(Card.COIN.amount(22))) == "22 monety"
    assert catalogue("de").render(hand_words(many)) == "5 Lehm, 1 Münze"
    assert catalogue("vi").render(hand_words(many)) == "5 gạch, 1 đồng xu"
    assert catalogue("en").render(hand_words(many)) == "5 brick, 1 coin"


def test_a_refusal_reads_in_the_readers_language_and_stays_english_for_the_log() -> None:
    game = make_game(hands={0: Card.BRICK.amount(3)})
    trade = BankTrade(0, Card.BRICK, Card.ORE)
    with pytest.raises(IllegalActionError) as refused:
        game.apply(trade)
    assert str(refused.value) == "trading brick needs 4 of them"
    assert catalogue("de").render(refused.value.message) == ("der Tausch von Lehm braucht 4 davon")
    assert catalogue("cs").render(refused.value.message) == "směna (cihla) vyžaduje 4 kusů"


def test_a_button_names_a_progress_card_by_its_name_in_the_language() -> None:
    game = make_game(progress={0: (ProgressCard.WARLORD,)})
    words = registry.button_words(game, PlayProgress(0, ProgressCard.WARLORD), game.config.names)
    assert str(words) == "Play Warlord"
    assert catalogue("de").render(words) == "Kriegsherr spielen"
    assert catalogue("pl").render(words) == "Zagraj: Watażka"


def _messages_of(game: Game) -> list[Msg]:
    """Every message the table may read about ``game`` now."""
    found: list[Msg] = [game.describe_prompt()]
    found += [registry.button_words(game, a, game.config.names) for a in game.legal_actions()]
    details = registry.prompt_details(game, revealed=True)
    if details is not None:
        found.append(details)
    return found


@pytest.mark.parametrize("code", [c for c in LANGUAGES if c != SOURCE])
def test_a_whole_game_reads_in_the_language_without_falling_back_to_english(code: str) -> None:
    """Every prompt, button and log line of random games renders with the translation's own
    words: no message is missing from the catalogue, no placeholder differs."""
    words = catalogue(code)
    english = catalogue(SOURCE)
    entries = _entries(code)
    seen = 0
    for seed in range(3):
        game = Game.new(GameConfig.for_players(3 + seed % 2, seed=seed))
        rng = SplitMix64(seed)
        while game.turn < 60 and not game.is_over:
            for message in _messages_of(game):
                assert words.render(message), message
                assert _translated(entries, message), (code, english.render(message))
                seen += 1
            game.apply(choose_random_action(game, rng))
        log = GameLog.of(game)
        for entry in log.entries:
            for message in (entry.text, entry.detail):
                if message is None:
                    continue
                rendered = words.render(message)
                assert rendered, message
                assert _translated(entries, message), (code, english.render(message))
                seen += 1
    assert seen > 1000


def _translated(entries: set[tuple[str | None, str]], message: Msg) -> bool:
    """The message and every message inside it are in the language's catalogue (or are made
    of their placeholders only, "{player} {cards}", which read the same everywhere)."""
    has = (message.context or None, message.text) in entries
    has = has or not any(ch.isalpha() for ch in message.text.format_map(_Blank()))
    inner = [v for _, v in message.params if isinstance(v, Msg)]
    inner += [m for _, v in message.params if isinstance(v, tuple) for m in v]
    return has and all(_translated(entries, m) for m in inner)


def _entries(code: str) -> set[tuple[str | None, str]]:
    """The (context, message id) pairs translated in the language's catalogue."""
    with catalogues.po_path(code).open("rb") as handle:
        po = read_po(handle, locale=code)
    return {
        (m.context, m.id[0] if isinstance(m.id, tuple) else m.id)
        for m in po
        if m.id and all(m.string if isinstance(m.string, tuple) else [m.string])
    }


class _Blank(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return ""


def test_each_phone_reads_its_page_in_its_own_language() -> None:
    game = make_game()
    log = GameLog.of(game)
    page = SeatPage('{"type":"state","rev":1,"page":', seat_page(game, 0, log))
    czech, german = json.loads(page.text("cs")[31:-1]), json.loads(page.text("de")[31:-1])
    prompt = game.describe_prompt()
    assert czech["turn"]["prompt"] == catalogue("cs").render(prompt)
    assert german["turn"]["prompt"] == catalogue("de").render(prompt)
    assert czech["turn"]["prompt"] != german["turn"]["prompt"]
    assert SeatPage.key(seat_page(game, 0, log)) == page.text("en")[31:-1]


def test_a_game_rereads_in_a_new_language_and_does_not_change() -> None:
    """The tablet's language renders the same log anew; the game's JSON stays byte for byte."""
    game = Game.new(GameConfig.for_players(3, seed=5))
    rng = SplitMix64(5)
    for _ in range(40):
        game.apply(choose_random_action(game, rng))
    before = json.dumps(game.to_json(), sort_keys=True)
    log = GameLog.of(game)
    was = table_language()
    try:
        use_language("en")
        english = [render(e.text) for e in log.entries]
        use_language("pl")
        polish = [render(e.text) for e in log.entries]
    finally:
        use_language(was)
    assert english != polish and len(english) == len(polish)
    assert json.dumps(game.to_json(), sort_keys=True) == before
    assert Game.replay(game.config, game.history).to_json() == game.to_json()
