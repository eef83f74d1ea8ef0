"""The card picker without a window: rows that never move, − / + within the hand and
the count, Confirm only when the count is reached, and Confirm's one-card actions legal in
order for every kind of card decision the planned games reach (a gold field's choice from the
bank on New Shores, §13.5)."""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence

import pytest

from companion_app.app.tour.plan import PLAN_SEED, SCENARIO_PLAN_SEEDS, make_plan
from companion_app.i18n import current
from companion_app.presenters.card_picker import CardPicker, card_picker
from companion_app.presenters.game_controller import GameController, undo_span
from companion_app.rules.actions import Action, DiscardCard, EventDie, Roll, TakeGold
from companion_app.rules.cards import Card, bank_start, hand_of
from companion_app.rules.game import Game
from companion_app.rules.prompts import Prompt, PromptKind
from companion_app.rules.registry import PICKER_PROMPTS
from tests.rules.builders import make_game
from tests.rules.sea.ck_builders import ck_sea_game

WHITE = 2


def _seven() -> Game:
    """Blue holds 8 cards (discards 4), White 9 (discards 4); Red rolls a 7."""
    game = make_game(
        hands={1: hand_of(brick=4, ore=3, wool=1), 2: hand_of(grain=5, lumber=2, coin=2)},
        prompt="roll",
    )
    game.apply(Roll(0, 3, 4, EventDie.TRADE))
    return game


def test_a_discard_offers_every_kind_held_with_a_suggestion_from_the_kinds_held_most() -> None:
    game = _seven()
    picker = card_picker(game)
    assert picker is not None and picker.kind is PromptKind.DISCARD and picker.player == 1
    assert [(r.label, r.held) for r in picker.rows] == [("brick", 4), ("wool", 1), ("ore", 3)]
    assert picker.count == 4
    # Most held first, one at a time: brick, brick (tie with ore: the first row), ore, brick.
    assert [r.chosen for r in picker.rows] == [3, 0, 1]
    assert picker.ready
    assert picker.title == "Blue: discard 4 cards · 4 of 4 chosen"
    assert picker.confirm_words == "Discard 3 brick, 1 ore"
    assert picker.actions() == [DiscardCard(1, Card.BRICK)] * 3 + [DiscardCard(1, Card.ORE)]


def test_plus_and_minus_stay_within_the_hand_and_the_count_and_rows_never_move() -> None:
    picker = card_picker(_seven())
    assert picker is not None
    keys = [r.key for r in picker.rows]
    assert not picker.can_add(1)  # 4 of 4 chosen: no more
    picker.remove(0)
    assert not picker.ready and picker.actions() == []
    assert picker.confirm_words == "Choose 1 more"
    picker.add(1)
    assert not picker.can_add(1)  # the one wool is chosen
    picker.add(1)
    assert [r.chosen for r in picker.rows] == [2, 1, 1]
    picker.remove(1)
    picker.remove(1)
    assert picker.rows[1].chosen == 0 and not picker.can_remove(1)
    picker.add(2)
    picker.add(2)
    assert not picker.can_add(2)  # all 3 ore
    assert [r.key for r in picker.rows] == keys
    assert picker.ready
    assert picker.actions() == [DiscardCard(1, Card.BRICK)] * 2 + [DiscardCard(1, Card.ORE)] * 2


def test_confirming_both_discards_of_a_seven_plays_on_to_the_robber() -> None:
    game = _seven()
    for seat in (1, 2):
        picker = card_picker(game)
        assert picker is not None and picker.player == seat
        for action in picker.actions():
            game.apply(action)
    assert game.card_count(1) == 4 and game.card_count(2) == 5
    assert game.prompt.kind is not PromptKind.DISCARD


def _white_on_gold(**bank: int) -> Game:
    """Map ids (``tests/rules/sea``): White's city on intersection 67 touches gold 10 (hex 23);
    Red rolls 10, White chooses 2 resources (§13.5, R2) from a bank holding ``bank``."""
    start = list(bank_start(4))
    for name, count in bank.items():
        start[Card[name.upper()]] = count
    game = ck_sea_game(prompt="roll", buildings={67: (WHITE, "city")}, bank=tuple(start))
    game.apply(Roll(0, 4, 6, EventDie.POLITICS))
    assert game.prompt == Prompt(PromptKind.GOLD, WHITE, 2)
    return game


def test_s13_5_a_gold_choice_picks_among_the_banks_resources_never_a_commodity() -> None:
    """R2: White's city chooses 2; the bank has no ore, so the rows are the four other
    resources, each up to what the bank holds (19); nothing is suggested, nothing hidden."""
    game = _white_on_gold(ore=0)
    picker = card_picker(game)
    assert picker is not None and picker.kind is PromptKind.GOLD and picker.player == WHITE
    assert [(r.label, r.held) for r in picker.rows] == [
        ("brick", 19),
        ("lumber", 19),
        ("wool", 19),
        ("grain", 19),
    ]
    assert (picker.count, picker.chosen, picker.hidden) == (2, 0, False)
    assert picker.title == "White: take 2 cards from the bank · 0 of 2 chosen"
    picker.add(3)
    picker.add(3)
    assert not picker.can_add(0)
    assert picker.confirm_words == "Take 2 grain"
    before = game.hands[WHITE][Card.GRAIN]
    for action in picker.actions():
        game.apply(action)
    assert game.hands[WHITE][Card.GRAIN] == before + 2
    assert game.bank[Card.GRAIN] == 17
    assert game.prompt.kind is not PromptKind.GOLD
    # One Undo takes the confirmation back whole (both grain).
    assert undo_span(game) == [TakeGold(WHITE, Card.GRAIN)] * 2


def test_s13_5_r3_a_choice_the_bank_cannot_meet_is_lost_the_picker_asks_what_it_holds() -> None:
    """R3: the bank holds 1 wool and 1 grain and no other resource: 2 choices, 2 rows of 1; a
    bank of 1 wool only: the picker's count is 1 (the second choice is lost)."""
    picker = card_picker(_white_on_gold(brick=0, lumber=0, ore=0, wool=1, grain=1))
    assert picker is not None
    assert [(r.label, r.held) for r in picker.rows] == [("wool", 1), ("grain", 1)]
    picker.add(0)
    assert not picker.can_add(0) and picker.can_add(1)
    picker.add(1)
    assert picker.actions() == [TakeGold(WHITE, Card.WOOL), TakeGold(WHITE, Card.GRAIN)]
    picker = card_picker(_white_on_gold(brick=0, lumber=0, ore=0, wool=1, grain=0))
    assert picker is not None and picker.count == 1
    assert [(r.label, r.held) for r in picker.rows] == [("wool", 1)]


def test_s13_5_the_gold_picker_opens_in_the_open_and_closes_without_choosing() -> None:
    """Nothing hidden: no "Show my cards" cover; opened by a tap, its Close takes nothing."""
    game = _white_on_gold()
    control = GameController()
    control.follow(game)
    assert control.picking(game) and control.picking_in_the_open(game)
    assert not control.covered(game) and control.picker is None
    control.reveal(game)
    assert control.picker is not None and control.picker.count == 2
    control.cover()
    assert control.picker is None and game.prompt.kind is PromptKind.GOLD
    discard = _seven()
    assert control.picking(discard) and not control.picking_in_the_open(discard)


def _states_of(actions: Sequence[Action], game: Game) -> list[Game]:
    states = []
    for action in actions:
        if game.prompt.kind in PICKER_PROMPTS:
            states.append(Game.from_json(game.to_json()))
        game.apply(action)
    return states


@functools.cache
def _planned_games() -> tuple[str, ...]:
    plan = make_plan(PLAN_SEED)
    states = _states_of(plan.actions, Game.new(plan.config))
    sea = make_plan(SCENARIO_PLAN_SEEDS[("new_shores", 4)], 4, scenario="new_shores")
    states += _states_of(sea.actions, Game.new(sea.config))
    return tuple(json.dumps(g.to_json()) for g in states)


def _planned_states() -> list[Game]:
    """Every card decision the planned games (the UI scenarios' island game, the New Shores
    tour's 4-player game) stand at, each a fresh game (a test plays on from it)."""
    return [Game.from_json(json.loads(text)) for text in _planned_games()]


def test_the_planned_game_reaches_every_card_decision() -> None:
    assert {g.prompt.kind for g in _planned_states()} == PICKER_PROMPTS


@pytest.mark.parametrize("kind", sorted(PICKER_PROMPTS, key=lambda k: k.value))
def test_every_card_decision_confirms_into_legal_actions_that_finish_it(kind: PromptKind) -> None:
    states = [g for g in _planned_states() if g.prompt.kind is kind]
    assert states
    for game in states:
        picker = card_picker(game)
        assert isinstance(picker, CardPicker)
        decider, count = game.prompt.player, picker.count
        legal = game.legal_actions()
        assert all(picker.action_for(r.key) in legal for r in picker.rows)
        # Fill from the last row up (not the suggestion) to choose something else than offered.
        while not picker.ready:
            index = next(i for i in reversed(range(len(picker.rows))) if picker.can_add(i))
            picker.add(index)
        actions = picker.actions()
        assert len(actions) == count >= 1
        for action in actions:
            assert game.is_legal(action), (kind, action)
            game.apply(action)
        same = game.prompt.kind is kind and game.prompt.player == decider
        assert not same or kind is PromptKind.DISCARD  # a Saboteur may follow a 7 for the same seat


def _headings(game: Game, codes: Sequence[str]) -> list[str]:
    picker = card_picker(game)
    assert picker is not None
    try:
        shown = []
        for code in codes:
            current.use(code)
            shown.append(picker.heading)
        return shown
    finally:
        current.use("en")


def test_the_heading_is_one_sentence_in_the_language_with_its_plural_form() -> None:
    """Each kind of decision says who chooses what as one translated sentence, the count in
    the language's plural form (Polish: 1 kartę, 4 karty), never a verb glued to a count."""
    assert _headings(_seven(), ["en", "de", "pl"]) == [
        "Blue: discard 4 cards",
        "Blue: wirf 4 Karten ab",
        "Blue: odrzuć 4 karty",
    ]
    one_from_the_bank = _white_on_gold(brick=0, lumber=0, ore=0, wool=1, grain=0)
    assert _headings(one_from_the_bank, ["en", "de", "pl"]) == [
        "White: take 1 card from the bank",
        "White: nimm 1 Karte von der Bank",
        "White: weź 1 kartę z banku",
    ]
    merchant = next(g for g in _planned_states() if g.prompt.kind is PromptKind.MASTER_MERCHANT)
    names = merchant.config.names
    player, target = names[merchant.prompt.player], names[merchant.card_target]
    assert _headings(merchant, ["en", "de", "pl"]) == [
        f"{player}: take 2 cards from {target}'s hand",
        f"{player}: nimm 2 Karten aus der Hand von {target}",
        f"{player}: weź 2 karty z ręki gracza {target}",
    ]


def test_confirm_names_the_chosen_cards_in_the_language() -> None:
    picker = card_picker(_seven())
    assert picker is not None
    try:
        current.use("de")
        assert picker.confirm_words == "3 Lehm, 1 Erz abwerfen"
        current.use("pl")
        assert picker.confirm_words == "Odrzuć: 3 cegły, 1 kamień"
    finally:
        current.use("en")
