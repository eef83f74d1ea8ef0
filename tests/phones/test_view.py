"""A seat's page carries nothing of another seat's hidden cards: on random games, changing
every other seat's hand and progress cards (same counts) leaves the page as it was."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from phones_helpers import game_after, others_changed, play_until, without_moves

from companion_app.phones.view import decision, seat_page, vp_parts
from companion_app.rules.game import Game, VictoryPoints
from companion_app.rules.prompts import PromptKind
from companion_app.rules.registry import PHONE_PROMPTS

SHOWN_TO_THE_DECIDER = (PromptKind.SPY, PromptKind.MASTER_MERCHANT)
"""Prompts whose decider is shown a victim's cards by the rules (``view_for``'s "shown")."""


@given(seed=st.integers(0, 2**32), steps=st.integers(0, 600))
def test_a_page_does_not_change_when_other_seats_hidden_cards_do(seed: int, steps: int) -> None:
    game = game_after(seed, steps)
    for seat in range(game.player_count):
        if game.prompt.player == seat and game.prompt.kind in SHOWN_TO_THE_DECIDER:
            continue
        page = seat_page(game, seat)
        changed, swapped = others_changed(game, seat)
        assert changed.hands[seat] == game.hands[seat]
        assert all(changed.progress_hands[q] != game.progress_hands[q] for q in swapped)
        assert without_moves(page) == without_moves(seat_page(changed, seat))
        assert (page["decision"] is not None) == (
            game.prompt.player == seat and game.prompt.kind in PHONE_PROMPTS
        )


def test_a_decision_lists_exactly_the_legal_answers_of_its_seat() -> None:
    config, actions = play_until(lambda g: g.prompt.kind is PromptKind.DISCARD, seed=3)
    game = Game.replay(config, actions)
    seat = game.prompt.player
    d = decision(game, seat)
    assert d is not None
    held = {k for k, n in game.view_for(seat)["hands"][seat].items() if n}
    assert [c["action"]["card"] for c in d["choices"]] == [
        a.card.label for a in game.legal_actions()
    ]
    assert all(c["action"]["card"] in held for c in d["choices"])
    assert all(decision(game, q) is None for q in range(game.player_count) if q != seat)


def test_vp_parts_add_up_to_the_total() -> None:
    points = VictoryPoints(
        settlements=2,
        cities=3,
        metropolises=1,
        longest_road=True,
        defender_cards=1,
        merchant=True,
        vp_cards=2,
    )
    parts = vp_parts(points)
    assert sum(n for _, n in parts) == points.total == 16
    assert parts[1] == ["3 cities", 6] and parts[2] == ["1 metropolis", 2]
