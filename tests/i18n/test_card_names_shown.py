"""What a person reads of a card, a terrain or a default name is in the reader's language: the
bank trade's buttons, the card picker's rows, a progress card's colour by its shown title and a
phone's hand in Czech carry the Czech names from the catalogue, never the English keys."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pytest

from companion_app.i18n import catalogue, current
from companion_app.phones.view import SeatPage, seat_page
from companion_app.presenters import board_picture as B
from companion_app.presenters import choices as C
from companion_app.presenters import info_presenter as I
from companion_app.presenters.card_picker import card_picker
from companion_app.presenters.forms import DEFAULT_NAMES, BoardEntry, NewGameForm
from companion_app.rules.actions import BankTrade
from companion_app.rules.board import STARTER_BOARD
from companion_app.rules.cards import TERRAIN_WORDS, Card, Harbour, ProgressCard, Terrain
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64

CZECH = catalogue("cs")
CZECH_CARDS = {card: CZECH.render(card.words) for card in Card}


@pytest.fixture(autouse=True)
def _czech_then_english() -> Iterator[None]:
    current.use("cs")
    yield
    current.use("en")


def _first_state(wanted: Callable[[Game], bool], seed: int = 3) -> Game:
    game = Game.new(GameConfig.for_players(3, seed=seed))
    rng = SplitMix64(seed)
    for _step in range(2000):
        if wanted(game):
            return game
        game.apply(choose_random_action(game, rng))
    raise AssertionError("no such state in 2000 random actions")


def test_the_czech_names_differ_from_the_keys() -> None:
    """Else the tests below could not tell a Czech name from an English key."""
    assert CZECH_CARDS[Card.BRICK] == "cihla"
    assert all(CZECH_CARDS[card] != card.label for card in Card)


def test_the_bank_trade_buttons_name_the_cards_in_czech() -> None:
    game = _first_state(
        lambda g: (
            g.prompt.kind is PromptKind.TURN
            and any(isinstance(a, BankTrade) for a in g.legal_actions())
        )
    )
    step = C.bar_step(game, "bank_trade")
    assert step.choices
    for choice in step.choices:
        assert choice.then is not None
        trade = choice.then.choices[0].action
        assert isinstance(trade, BankTrade)
        rate = game.trade_rate(trade.player, trade.give)
        given = CZECH.render(trade.give.counted(rate))
        assert choice.label.startswith(CZECH.gettext("Give {cards}").format(cards=given))
        for take in choice.then.choices:
            assert isinstance(take.action, BankTrade)
            assert take.label == CZECH.render(take.action.take.counted(1))
            assert CZECH_CARDS[take.action.take] in take.label
            assert take.action.take.label not in take.label


def test_the_discard_picker_rows_name_the_cards_in_czech() -> None:
    game = _first_state(lambda g: g.prompt.kind is PromptKind.DISCARD)
    picker = card_picker(game)
    assert picker is not None and picker.rows
    assert [row.label for row in picker.rows] == [CZECH_CARDS[Card(r.key)] for r in picker.rows]


def test_an_open_picker_follows_a_switch_of_language() -> None:
    """The picker stays open across a switch (what is chosen stays chosen); its rows, its
    heading and Confirm read the new language, not the one it was opened in."""
    game = _first_state(lambda g: g.prompt.kind is PromptKind.DISCARD)
    picker = card_picker(game)
    assert picker is not None and picker.rows
    chosen = [row.chosen for row in picker.rows]
    czech_heading = picker.heading
    current.use("pl")
    polish = catalogue("pl")
    assert [row.label for row in picker.rows] == [polish.render(r.key.words) for r in picker.rows]
    assert picker.heading != czech_heading
    name = game.config.names[picker.player]
    assert picker.heading == polish.ngettext(
        "{player}: discard {count} card", "{player}: discard {count} cards", picker.count
    ).format(player=name, count=picker.count)
    assert [row.chosen for row in picker.rows] == chosen


def test_the_catalogues_name_their_own_texts_for_the_tours_check() -> None:
    """What the tour's check of words left behind by a switch reads: each language's texts
    and the English ids."""
    assert "Zavřít" in catalogue("cs").phrases()
    assert "Zavřít" not in catalogue("pl").phrases()
    assert "Close" in catalogue("pl").message_ids()
    assert catalogue("en").phrases() == frozenset()


def test_a_progress_card_shown_in_czech_keeps_its_deck_colour() -> None:
    for card in ProgressCard:
        assert I.progress_colour(CZECH.render(card.title)) == I.TRACK_COLOURS[card.track]


def test_a_phone_in_czech_reads_its_hand_in_czech_with_english_keys() -> None:
    game = _first_state(lambda g: g.card_count(0) > 0)
    page = json.loads(SeatPage('{"page":', seat_page(game, 0)).text("cs"))["page"]
    hand = page["hand"]
    assert [key for key, _n in hand["resources"]] == ["brick", "lumber", "wool", "grain", "ore"]
    assert hand["names"] == {card.label: CZECH_CARDS[card] for card in Card}
    english = json.loads(SeatPage('{"page":', seat_page(game, 0)).text("en"))["page"]
    assert english["hand"]["names"]["ore"] == "ore"


def test_the_new_game_offers_the_default_names_in_czech() -> None:
    form = NewGameForm()
    assert [slot.name for slot in form.players][:2] == ["Červená", "Modrá"]
    assert [slot.colour for slot in form.players] == list(DEFAULT_NAMES)
    current.use("en")
    assert [slot.name for slot in NewGameForm().players][:2] == ["Red", "Blue"]
    assert form.players[0].name == "Červená"  # a name once offered stays as it is


def test_the_board_s_harbours_and_terrains_are_named_in_czech() -> None:
    assert B.harbour_label(Harbour.GENERIC) == "3:1"
    assert B.harbour_label(Harbour.ORE) == f"2:1 {CZECH_CARDS[Card.ORE]}"
    rows = B.board_rows(STARTER_BOARD)
    first = CZECH.render(TERRAIN_WORDS[STARTER_BOARD.terrains[0]])
    assert rows[0].split(": ", 1)[1].startswith(first)
    assert not any(t.value in line for line in rows for t in Terrain)


def test_a_board_entered_on_the_screen_is_refused_in_czech() -> None:
    """The build-table screen's line under the board: the rules core's problem, in the
    table's language, with Czech plural forms (5 and more: "políček")."""
    entry = BoardEntry()
    assert entry.check() == (None, "chybí políčko 0; plán má 19 políček")
    entry = BoardEntry.from_board(STARTER_BOARD)
    entry.set_terrain(9, Terrain.HILLS)
    entry.set_token(9, 5)
    hills = CZECH.render(TERRAIN_WORDS[Terrain.HILLS])
    assert entry.check() == (None, f"{hills}: 4 políčka, plán má 3")
    entry.set_harbour(0, Harbour.ORE)
    entry.set_terrain(9, Terrain.DESERT)
    ore = CZECH_CARDS[Card.ORE]
    assert entry.check() == (None, f"přístav 2:1 ({ore}): na stole 2, plán má 1")


def test_a_switch_reads_the_names_still_offered_again_and_keeps_a_typed_one() -> None:
    form = NewGameForm()
    form.players[1].name = "Jana"
    current.use("de")
    form.name_defaults_again()
    assert [slot.name for slot in form.players][:3] == ["Rot", "Jana", "Weiß"]


def test_english_ids_left_in_a_text_of_another_language_are_found() -> None:
    """The phone tests' check: an id among a screen's pieces (``trade: Targ (1)``), not a
    word inside a sentence, and not a player's name."""
    polish = catalogue("pl")
    assert polish.english_left("trade: Targ (1) · polityka: —") == ["trade"]
    assert polish.english_left("kość wydarzeń: politics") == ["politics"]
    assert polish.english_left("handel: Targ (1) · kość wydarzeń: niebieski zamek") == []
    # A player named after a colour is allowed to keep the English colour's name.
    assert polish.english_left("Red · 3 PZ") == ["Red"]
    assert polish.english_left("Red · 3 PZ", allowed=("Red",)) == []
    assert catalogue("en").english_left("trade: Trade (1)") == []
