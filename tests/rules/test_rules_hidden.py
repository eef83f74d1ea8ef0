"""The hidden-information redraw (rules/hidden.py): what a seat sees stays, everything it cannot
see is dealt again, every consistent deal comes out as often as it should (§9 for the decks)."""

from __future__ import annotations

from collections import Counter

import pytest

from companion_app.rules.cards import ProgressCard, Track, hand_of
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.hidden import redraw_hidden
from companion_app.rules.invariants import violations
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64
from tests.rules.builders import make_game

CHI2_LIMIT_DF5 = 20.52
"""The chi-square quantile at p = 0.001 for 5 degrees of freedom: the seeds are fixed, so the
figure below is the same on every run; a sampler that misses or favours a deal exceeds it."""


def random_position(seed: int, steps: int, players: int) -> Game:
    game = Game.new(GameConfig.for_players(players, seed=seed))
    rng = SplitMix64(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(choose_random_action(game, rng))
    return game


@pytest.mark.parametrize(("seed", "players"), [(1, 3), (2, 4), (3, 5), (4, 6), (5, 4)])
def test_the_seat_sees_the_same_game_and_the_redraw_keeps_every_invariant(
    seed: int, players: int
) -> None:
    game = random_position(seed, 250 + 40 * seed, players)
    state = game.to_json()
    for seat in range(players):
        before = game.view_for(seat)
        sample = redraw_hidden(game, seat, seed * 10 + seat)
        assert sample.view_for(seat) == before
        assert game.view_for(seat) == before
        assert violations(sample) == []
        assert sample.history == game.history
        assert game.to_json() == state
        assert sample.legal_actions() == game.legal_actions() or game.prompt.player != seat


def test_what_others_hold_is_dealt_again_from_the_cards_nobody_shows() -> None:
    """Blue holds brick+ore, White brick, Orange nothing: 3 unseen cards, 2 brick and 1 ore."""
    game = make_game(hands={0: hand_of(grain=2), 1: hand_of(brick=1, ore=1), 2: hand_of(brick=1)})
    seen: Counter[tuple[int, ...]] = Counter()
    for seed in range(300):
        sample = redraw_hidden(game, 0, seed)
        assert sample.hands[0] == game.hands[0]
        assert [sum(h) for h in sample.hands] == [2, 2, 1, 0]
        seen[tuple(sample.hands[2])] += 1
    # White holds the ore in one deal of three (3 orders of b, b, o; one puts o last).
    assert set(seen) == {hand_of(brick=1), hand_of(ore=1)}
    assert 70 <= seen[hand_of(ore=1)] <= 130


def test_every_deal_of_three_different_cards_is_drawn_as_often() -> None:
    game = make_game(
        hands={1: hand_of(brick=1), 2: hand_of(ore=1), 3: hand_of(wool=1)},
        config=GameConfig.for_players(4, seed=42),
    )
    n = 600
    deals = Counter(
        tuple(tuple(redraw_hidden(game, 0, seed).hands[p]) for p in (1, 2, 3)) for seed in range(n)
    )
    assert len(deals) == 6
    chi2 = sum((count - n / 6) ** 2 / (n / 6) for count in deals.values())
    assert chi2 < CHI2_LIMIT_DF5


def test_progress_cards_are_dealt_from_their_decks_and_vp_cards_stay_in_them() -> None:
    """Blue holds 2 science cards the seat cannot see: any 2 of the science cards not in Red's
    hand may be Blue's, never a Printer (revealed when drawn); the deck keeps its size."""
    game = make_game(
        progress={0: (ProgressCard.ALCHEMIST,), 1: (ProgressCard.CRANE, ProgressCard.SMITH)}
    )
    science = Track.SCIENCE.index
    size = len(game.decks[science])
    held: Counter[ProgressCard] = Counter()
    for seed in range(400):
        sample = redraw_hidden(game, 0, seed)
        assert sample.progress_hands[0] == [ProgressCard.ALCHEMIST]
        assert len(sample.progress_hands[1]) == 2
        assert len(sample.decks[science]) == size
        assert all(c.track is Track.SCIENCE for c in sample.progress_hands[1])
        held.update(sample.progress_hands[1])
    assert ProgressCard.PRINTER not in held
    # Red holds one of the two Alchemists: every playable science card kind may be Blue's.
    playable = {c for c in ProgressCard if c.track is Track.SCIENCE and not c.is_vp}
    assert set(held) == playable
    # Blue holds the Engineer (1 of 17 unseen playable cards) in 2 samples of 17.
    assert 30 <= held[ProgressCard.ENGINEER] <= 65


def test_the_same_seed_deals_the_same_and_the_deal_reads_only_the_view() -> None:
    game = random_position(8, 400, 4)
    one = redraw_hidden(game, 1, 99)
    assert redraw_hidden(game, 1, 99).to_json() == one.to_json()
    # Another game the seat cannot tell apart deals the very same sample.
    other = redraw_hidden(game, 1, 5)
    assert other.to_json() != one.to_json()
    assert redraw_hidden(other, 1, 99).to_json() == one.to_json()
