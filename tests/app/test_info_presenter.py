"""The information screens' values without a window: VP breakdowns, privacy of the hands, the
improvement chart, the barbarian attack, statistics, the end of the game, undo words."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "rules"))

from builders import make_game

from companion_app.game_stats import Fairness, GameStatistics, Luck
from companion_app.journal import GameSummary, JournalStep
from companion_app.presenters import info_presenter as I
from companion_app.presenters import journal_words as J
from companion_app.rules.actions import BuildRoad, EventDie, Roll
from companion_app.rules.cards import ProgressCard, Track, hand_of
from companion_app.rules.config import GameConfig
from companion_app.rules.game import (
    Game,
    VictoryPoints,
)
from companion_app.rules.pieces import NOBODY
from companion_app.rules.randomplay import choose_random_action, play_random_game
from companion_app.rules.rng import SplitMix64
from companion_app.rules.state import BarbarianAttack

A, B, C, D = 0, 2, 7, 10


@pytest.fixture(scope="module")
def finished():
    game = play_random_game(11, max_turns=400).game
    assert game.is_over
    return game


def test_vp_words_name_every_source() -> None:
    points = VictoryPoints(2, 2, 1, False, 1, False, 0)
    assert I.vp_words(points) == "9 VP: 2 settl., 2 cities, metropolis, Defender"
    assert I.vp_words(VictoryPoints(1, 1, 2, True, 3, True, 2)) == (
        "15 VP: 1 settl., 1 city, 2 metropolises, longest road, 3 Defenders, merchant, 2 VP cards"
    )
    assert I.vp_words(VictoryPoints(0, 0, 0, False, 0, False, 0)) == "0 VP"


def test_panel_lines_show_counts_and_never_a_hand() -> None:
    game = make_game(
        buildings={A: (0, "city"), B: (1, "settlement")},
        hands={0: hand_of(brick=2, ore=3, coin=1), 1: hand_of(wool=1)},
        progress={0: (ProgressCard.SPY, ProgressCard.CRANE)},
        knights={17: (0, 2, True), 19: (0, 1, False)},
        improvements={0: (1, 2, 0)},
    )
    lines = I.panel_lines(game)
    red = lines[0]
    assert (red.cards, red.progress, red.victory_points) == (6, 2, 2)
    assert red.vp == "2/13 VP: 1 city"  # §11: out of the target set on New game
    assert red.counts == "6 cards · 2 progress · knights 2, strength 2 · trade 1, politics 2"
    assert lines[1].counts == "1 card · 0 progress · no knights · no improvements"
    text = json.dumps([line.vp + line.counts for line in lines])
    for secret in ("brick", "ore", "coin", "wool", "Spy", "Crane", "spy", "crane"):
        assert secret not in text
    assert [line.deciding for line in lines] == [True, False, False, False]


def test_hand_view_is_the_owners_view() -> None:
    game = make_game(
        buildings={A: (0, "city")},
        hands={0: hand_of(brick=2, ore=3, coin=1), 1: hand_of(wool=1)},
        progress={0: (ProgressCard.SPY,)},
        revealed={0: (ProgressCard.PRINTER,)},
        walls=(A,),
    )
    hand = I.hand_view(game, 0)
    assert hand.resources == (("brick", 2), ("lumber", 0), ("wool", 0), ("grain", 0), ("ore", 3))
    assert hand.commodities == (("cloth", 0), ("coin", 1), ("paper", 0))
    assert (hand.progress, hand.vp_cards, hand.total, hand.limit) == (
        ("Spy",),
        ("Printer",),
        6,
        9,  # 7 + 2 for the wall (§3.4)
    )
    assert I.hand_summary(hand) == (
        "Red: 6 cards (a 7 makes you discard above 9) · 1 progress card · revealed: Printer"
    )
    assert I.hand_view(game, 1).resources[2] == ("wool", 1)
    assert I.cover_words(game, 1) == "Hand the tablet to Blue — tap to show Blue's cards"


@pytest.mark.parametrize(
    ("level", "numbers", "words"),
    [
        (0, (), "no draws"),
        (1, (1, 2), "red 1–2"),
        (3, (1, 2, 3, 4), "red 1–4"),
        (5, (1, 2, 3, 4, 5, 6), "red any"),
    ],
)
def test_s9_red_die_numbers_that_draw(level: int, numbers: tuple[int, ...], words: str) -> None:
    assert I.draw_numbers(level) == numbers
    assert I.red_words(level) == words


def test_s9_improvement_chart() -> None:
    game = make_game(
        buildings={A: (0, "city"), B: (1, "city")},
        improvements={0: (2, 4, 0), 1: (0, 3, 1)},
        metropolis={"politics": A},
    )
    trade, politics, science = I.improvement_chart(game, 0)
    assert [c.building for c in politics.cells] == [
        "Town Hall",
        "Church",
        "Fortress",
        "Cathedral",
        "High Assembly",
    ]
    assert [c.cost for c in politics.cells] == ["1 coin", "2 coin", "3 coin", "4 coin", "5 coin"]
    assert [c.reached for c in politics.cells] == [True, True, True, True, False]
    assert politics.cells[2].note == "promote strong knights to mighty"
    assert politics.metropolis == f"metropolis: Red (intersection {A})"
    assert trade.metropolis == "no metropolis yet" and trade.level == 2
    assert science.everyone == "Red 0 · Blue 1 · White 0 · Orange 0"
    assert science.cells[0].draws == "red 1–2"
    assert trade.title == "Trade (cloth)"
    # Castles (§9), active seat 0 first: trade Red 2 (red 1–3); politics Red 4 (1–5), Blue 3
    # (1–4); science Blue 1 (1–2).
    assert trade.castle == "castle, red 1–3: Red · 4–6: nobody"
    assert politics.castle == "castle, red 1–4: Red, Blue · 5: Red · 6: nobody"
    assert science.castle == "castle, red 1–2: Blue · 3–6: nobody"


def test_s9_castle_words_a_level_5_draws_on_every_red() -> None:
    names = ("Anna", "Bo", "Cleo")
    assert I.castle_words([(1, 0)] * 6, names) == "castle, red 1–6: Bo, Anna"
    assert I.castle_words([()] * 6, names) == "castle, red 1–6: nobody"


def test_s7_attack_view_defender() -> None:
    game = make_game(buildings={A: (0, "city"), B: (1, "city")})
    attack = BarbarianAttack(3, 2, (2, 1, 0, 0), defender=0)
    view = I.attack_view(game, attack)
    assert view is not None
    assert view.title == "Barbarian attack 3"
    assert view.headline == "Barbarians 2 against defence 3"
    assert view.outcome == "Catan is defended. Red is the Defender of Catan."
    assert [(r.name, r.defence, r.result) for r in view.rows][:2] == [
        ("Red", 2, "Defender of Catan: +1 VP"),
        ("Blue", 1, "—"),
    ]


def test_s7_attack_view_losers_and_ties() -> None:
    game = make_game()
    lost = I.attack_view(game, BarbarianAttack(1, 4, (0, 0, 1, 0), losers=(0, 1, 3)))
    assert lost is not None and not lost.defended
    assert lost.outcome == "The barbarians win. Red, Blue and Orange lose a city."
    assert lost.rows[3].result == "loses a city (chooses which)"
    tie = I.attack_view(game, BarbarianAttack(1, 2, (2, 2, 0, 0), tied=(1, 0)))
    assert tie is not None
    assert tie.outcome == "Catan is defended. Blue and Red tie: each draws a progress card."
    assert I.attack_view(game) is None  # no attack yet


def test_statistics_view_matches_the_counts(finished) -> None:
    stats = GameStatistics.from_game(finished)
    view = I.statistics_view(finished, stats)
    assert [b.label for b in view.sums] == [str(s) for s in range(2, 13)]
    assert [b.observed for b in view.sums] == list(stats.dice.sums)
    n = stats.dice.production_rolls
    assert view.sums[5].expected == pytest.approx(n / 6)  # a 7: 6 of 36
    assert view.sums[0].expected == pytest.approx(n / 36)
    assert [b.observed for b in view.events] == list(stats.dice.events)
    assert view.events[0].label == "ship" and view.events[0].expected == pytest.approx(
        stats.dice.event_rolls / 2
    )
    assert [r.total for r in view.production] == [sum(h) for h in stats.production]
    assert len(view.attacks) == finished.barbarian_attacks
    assert view.p_value == pytest.approx(stats.dice.sum_fairness().p_value)
    assert view.verdict is stats.dice.overall()
    assert f"{view.rolls} rolls" in view.fairness


def test_statistics_of_a_young_game_say_too_few_rolls() -> None:
    game = Game.new(GameConfig.for_players(3, seed=5))
    rng = SplitMix64(5)
    while not game.awaiting_roll:
        game.apply(choose_random_action(game, rng))
    game.apply(Roll(game.active, 2, 4, EventDie.SCIENCE))
    view = I.statistics_view(game)
    assert view.verdict is Fairness.TOO_FEW_ROLLS
    # No p-value yet: with a roll or two any p reads as a verdict.
    assert view.fairness == "Too few rolls to judge the dice yet (1 roll)"
    assert view.attacks == ()


def test_game_over_view(finished) -> None:
    view = I.game_over_view(finished)
    assert view.winner == finished.config.names[finished.winner]
    assert view.ranking[0].winner and view.ranking[0].seat == finished.winner
    vps = [r.victory_points for r in view.ranking[1:]]
    assert vps == sorted(vps, reverse=True)
    for row in view.ranking:
        assert row.vp.startswith(f"{finished.victory_points(row.seat)} VP")
    assert view.headline == f"{view.winner} wins with {finished.victory_points(finished.winner)} VP"
    with pytest.raises(ValueError, match="not over"):
        I.game_over_view(make_game())


def test_game_over_shows_each_players_luck_against_fair_dice(finished) -> None:
    """Each row's luck is the cards the dice paid minus fair 2d6's average for the same
    buildings (one formula, ``game_stats.luck_figure``); the rolls counted are the rolls of
    the game not fixed by an Alchemist."""
    view = I.game_over_view(finished)
    luck = Luck.from_game(finished)
    for row in view.ranking:
        seat = row.seat
        figure = luck.produced[seat] - luck.expected_36[seat] / 36
        assert row.luck == f"luck {figure:+.1f}"
    rolls = sum(isinstance(a, Roll) for a in finished.history)
    assert 0 < luck.rolls <= rolls
    assert view.summary[-1].startswith("Luck: cards the dice gave")
    assert f"over {luck.rolls} rolls" in view.summary[-1]
    # The seats' figures are not all alike: a random game has lucky and unlucky players.
    assert len({row.luck for row in view.ranking}) > 1


def test_undo_words() -> None:
    game = make_game()
    step = JournalStep(40, Roll(1, 3, 4, EventDie.SHIP))
    assert J.step_words(game, step) == "Blue's roll 3 + 4 = 7, ship"
    assert J.undo_question(game, step).startswith("Undo Blue's roll 3 + 4 = 7, ship?")
    assert J.step_words(game, JournalStep(3, BuildRoad(2, 5))) == "White's build road"


def test_seat_order_starts_with_the_deciding_player() -> None:
    game = make_game(active=2)
    assert I.seat_order(game) == [2, 3, 0, 1]
    assert NOBODY not in I.seat_order(game)
    assert Track.TRADE in I.TRACK_COLOURS


def _summary(game_id: int, actions: int) -> GameSummary:
    return GameSummary(
        id=game_id,
        players=("Red", "Blue", "White"),
        seed=1,
        created_at="2026-11-23T20:00:00Z",
        updated_at=f"2026-11-23T20:{game_id:02d}:00Z",
        finished=False,
        winner=None,
        action_count=actions,
        redo_count=0,
    )


def test_resume_offers_an_empty_game_only_while_it_is_the_latest() -> None:
    # Most recent first: game 5 (empty, latest), 4 (played), 3 (empty), 2 (played), 1 (empty).
    games = [_summary(5, 0), _summary(4, 12), _summary(3, 0), _summary(2, 1), _summary(1, 0)]
    assert [g.id for g in J.resume_entries(games, limit=8)] == [5, 4, 2]
    assert [g.id for g in J.resume_entries(games[1:], limit=8)] == [4, 2]
    assert [g.id for g in J.resume_entries(games, limit=2)] == [5, 4]
    assert J.resume_entries([], limit=8) == []


def test_resume_and_delete_words() -> None:
    game = _summary(7, 1)
    assert J.resume_words(game) == "Red, Blue, White\n1 action  ·  2026-11-23 20:07"
    assert J.delete_question(game) == (
        "Delete the game of Red, Blue, White (1 action)? "
        "Its export is saved first, so it can be imported again."
    )


def test_statistics_name_the_dice_mode_and_judge_by_it() -> None:
    from companion_app.game_stats import DiceCounts, GameStatistics

    game = Game.new(GameConfig.for_players(3, seed=5, dice_mode="deck"))
    # six shuffles of the card deck, as even as a deck is (186 rolls)
    sums = (5, 10, 15, 21, 26, 32, 26, 21, 15, 10, 5)
    dice = DiceCounts(sums, (31,) * 6, (31,) * 6, (93, 31, 31, 31), "deck")
    stats = GameStatistics(dice, ((0,) * 8,) * 3, 0)
    view = I.statistics_view(game, stats)
    assert view.dice_mode == "deck" and "card deck" in view.sums_title
    assert view.fairness == "The dice behave as a card deck (sums p = 1.00, 186 rolls)"
    assert view.verdict is Fairness.LOOKS_FAIR
    balanced = DiceCounts(sums, (31,) * 6, (31,) * 6, (93, 31, 31, 31), "balanced", 40)
    words = I.statistics_view(game, GameStatistics(balanced, ((0,) * 8,) * 3, 0)).fairness
    assert words.startswith("The dice behave as balanced dice (sums p = 1.00, 186 rolls)")
    assert words.endswith("40 repeats in 5 rolls, fair dice ~80")
    fair = I.statistics_view(Game.new(GameConfig.for_players(3, seed=5)))
    assert fair.sums_title == "Dice sums: bars rolled, white lines what fair dice give"
