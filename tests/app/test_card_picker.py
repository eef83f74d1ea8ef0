"""The covered card picker without a window: rows that never move, − / + within the hand and
the count, Confirm only when the count is reached, and Confirm's one-card actions legal in
order for every kind of card decision the planned game reaches."""

from __future__ import annotations

import functools

import pytest

from companion_app.app.tour.plan import PLAN_SEED, make_plan
from companion_app.presenters.card_picker import CardPicker, card_picker
from companion_app.rules.actions import DiscardCard, EventDie, Roll
from companion_app.rules.cards import Card, hand_of
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from companion_app.rules.registry import PICKER_PROMPTS
from tests.rules.builders import make_game


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


@functools.cache
def _planned_states() -> list[Game]:
    """Every card decision the planned game (the UI scenarios' game) stands at."""
    plan = make_plan(PLAN_SEED)
    game = Game.new(plan.config)
    states = []
    for action in plan.actions:
        if game.prompt.kind in PICKER_PROMPTS:
            states.append(Game.from_json(game.to_json()))
        game.apply(action)
    return states


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
