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
from tests.said import said

SHOWN_TO_THE_DECIDER = (PromptKind.SPY, PromptKind.MASTER_MERCHANT)
"""Prompts whose decider is shown a victim's cards by the rules (``view_for``'s "shown")."""


@given(seed=st.integers(0, 2**32), steps=st.integers(0, 600))
def test_a_page_does_not_change_when_other_seats_hidden_cards_do(seed: int, steps: int) -> None:
    game = game_after(seed, steps)
    for seat in range(game.player_count):
        if game.prompt.player == seat and game.prompt.kind in SHOWN_TO_THE_DECIDER:
            continue
        page = said(seat_page(game, seat))
        changed, swapped = others_changed(game, seat)
        assert changed.hands[seat] == game.hands[seat]
        assert all(changed.progress_hands[q] != game.progress_hands[q] for q in swapped)
        assert without_moves(page) == without_moves(said(seat_page(changed, seat)))
        assert (page["decision"] is not None) == (
            game.prompt.player == seat and game.prompt.kind in PHONE_PROMPTS
        )


def test_a_decision_lists_exactly_the_legal_answers_of_its_seat() -> None:
    config, actions = play_until(lambda g: g.prompt.kind is PromptKind.DISCARD, seed=3)
    game = Game.replay(config, actions)
    seat = game.prompt.player
    d = said(decision(game, seat))
    assert d is not None
    held = {k for k, n in game.view_for(seat)["hands"][seat].items() if n}
    assert [c["action"]["card"] for c in d["choices"]] == [
        a.card.label for a in game.legal_actions()
    ]
    assert all(c["action"]["card"] in held for c in d["choices"])
    assert all(said(decision(game, q)) is None for q in range(game.player_count) if q != seat)


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
    parts = said(vp_parts(points))
    assert sum(n for _, n in parts) == points.total == 16
    assert parts[1] == ["3 cities", 6] and parts[2] == ["1 metropolis", 2]


def test_s7_s9_the_page_carries_the_forecast_and_the_castles_by_name() -> None:
    game = game_after(5, 900)  # Blue at trade 3, politics 2, science 1; a tie for Defender
    page = said(seat_page(game, 0))
    names = game.config.names
    f = game.barbarian_forecast()
    forecast = page["barbarians"]["forecast"]
    assert forecast["spaces"] == game.config.barbarian_track_length - game.barbarian_position
    assert forecast["rolls"] == 2 * forecast["spaces"]
    assert (forecast["strength"], forecast["defence"]) == (f.strength, f.total_defence)
    assert forecast["losers"] == [names[p] for p in f.losers]
    assert forecast["tied"] == [names[p] for p in f.tied] and forecast["defender"] is None
    assert f.tied and any(game.improvements[1])
    castles = {c["track"]: c["draws"] for c in page["castles"]}
    for track, by_red in game.castle_table().items():
        assert castles[track.value] == [[names[p] for p in seats] for seats in by_red]
        for red, seats in enumerate(by_red, start=1):
            assert set(seats) == {
                p
                for p in range(game.player_count)
                if 1 <= game.improvements[p][track.index] >= red - 1
            }
