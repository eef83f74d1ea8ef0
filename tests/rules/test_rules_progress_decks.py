"""The progress decks (§1, §9): composition, seeded shuffle, the castle draw table, draw order,
empty decks, played cards under their deck, tied defenders' draws (§7.3), the hand limit in and
out of turn, VP cards revealed at once, the Alchemist's dice (§3.1), hidden information, and
JSON / replay with cards in play."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter

import pytest
from builders import make_game
from hypothesis import given, settings
from hypothesis import strategies as st

from companion_app.rules import progress
from companion_app.rules.actions import (
    ChooseProgressDeck,
    DiscardProgressCard,
    EndTurn,
    EventDie,
    PlayAlchemist,
    PlayMerchantFleet,
    PlayProgress,
    PlaySpy,
    Roll,
    action_from_json,
)
from companion_app.rules.cards import (
    PROGRESS_CARD_TOTAL,
    TRACKS,
    Card,
    ProgressCard,
    Track,
    deck_composition,
    hand_of,
)
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import IllegalActionError
from companion_app.rules.game import Game
from companion_app.rules.invariants import violations
from companion_app.rules.progress import PLAY_TYPES, card_of
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import play_random_game
from tests.said import said

PC = ProgressCard
SCIENCE, POLITICS, TRADE = Track.SCIENCE, Track.POLITICS, Track.TRADE
# A city for player 0 on 12 (mountains 10, fields 12, hills 6) and settlements for the others.
TOWN = {12: (0, "city"), 30: (1, "settlement"), 20: (2, "settlement"), 48: (3, "settlement")}


def roll_for(red: int) -> int:
    """A yellow die that keeps the total off 7 (no robber business in draw tests)."""
    return 1 if red != 6 else 2


# ---- §1, §10: the decks ----------------------------------------------------------------------


def test_s1_s10_54_cards_18_per_colour_25_kinds_with_the_almanac_counts() -> None:
    assert len(ProgressCard) == 25
    assert sum(c.count for c in ProgressCard) == PROGRESS_CARD_TOTAL == 54
    for track in TRACKS:
        assert len(deck_composition(track)) == 18
    science = Counter(deck_composition(SCIENCE))
    politics = Counter(deck_composition(POLITICS))
    trade = Counter(deck_composition(TRADE))
    assert science == {
        PC.ALCHEMIST: 2, PC.CRANE: 2, PC.ENGINEER: 1, PC.INVENTOR: 2, PC.IRRIGATION: 2,
        PC.MEDICINE: 2, PC.MINING: 2, PC.PRINTER: 1, PC.ROAD_BUILDING: 2, PC.SMITH: 2,
    }  # fmt: skip
    assert politics == {
        PC.BISHOP: 2, PC.CONSTITUTION: 1, PC.DESERTER: 2, PC.DIPLOMAT: 2, PC.INTRIGUE: 2,
        PC.SABOTEUR: 2, PC.SPY: 3, PC.WARLORD: 2, PC.WEDDING: 2,
    }  # fmt: skip
    assert trade == {
        PC.COMMERCIAL_HARBOR: 2, PC.MASTER_MERCHANT: 2, PC.MERCHANT: 6, PC.MERCHANT_FLEET: 2,
        PC.RESOURCE_MONOPOLY: 4, PC.TRADE_MONOPOLY: 2,
    }  # fmt: skip
    assert {c for c in PC if c.is_vp} == {PC.PRINTER, PC.CONSTITUTION}


def test_s10_the_decks_are_built_from_each_cards_declaration_in_its_decks_module() -> None:
    # Every card is declared once, in the module of its deck, with the reference's count.
    modules = {SCIENCE: progress.science, POLITICS: progress.politics, TRADE: progress.trade}
    for track, module in modules.items():
        assert {c.track for c in module.CARDS} == {track} == {module.DECK}
        assert Counter(deck_composition(track)) == {c.card: c.count for c in module.CARDS}
    assert sorted(c.card.value for c in progress.CARDS) == sorted(c.value for c in PC)
    # A card's deck is its declaration's, whatever the order of the declarations or of the
    # ProgressCard enum: reversing them changes no card's deck or count.
    reordered = progress.deck_entries(tuple(reversed(progress.CARDS)))
    assert reordered == progress.deck_entries(progress.CARDS)
    assert list(reordered) == [c.card for c in reversed(progress.CARDS)]
    # One more science card (a second Smith declaration stands in for it) is refused,
    # and declaring a card in another deck moves that card alone.
    with pytest.raises(ValueError, match="Smith is declared twice"):
        progress.deck_entries((*progress.CARDS, progress.science.SMITH))
    moved = dataclasses.replace(progress.science.SMITH, track=POLITICS)
    entries = progress.deck_entries([moved if c.card is PC.SMITH else c for c in progress.CARDS])
    changed = {c for c in PC if entries[c] != progress.deck_entries(progress.CARDS)[c]}
    assert changed == {PC.SMITH} and entries[PC.SMITH].track is POLITICS


def test_s9_deck_colours_green_science_blue_politics_yellow_trade() -> None:
    # Colour mix-ups are a classic bug: the Alchemist is green, the Spy blue, the Merchant yellow.
    assert PC.ALCHEMIST.track is SCIENCE and PC.PRINTER.track is SCIENCE
    assert PC.SPY.track is POLITICS and PC.CONSTITUTION.track is POLITICS
    assert PC.MERCHANT.track is TRADE and PC.MERCHANT_FLEET.track is TRADE
    # The castle face of each colour draws from that deck.
    assert {e.value for e in EventDie} - {"ship"} == {t.value for t in TRACKS}


def test_s2_decks_are_shuffled_from_the_seed_and_differ_between_seeds() -> None:
    a = Game.new(GameConfig.for_players(4, seed=1))
    b = Game.new(GameConfig.for_players(4, seed=1))
    c = Game.new(GameConfig.for_players(4, seed=2))
    assert a.decks == b.decks
    assert a.decks != c.decks
    for track in TRACKS:
        assert Counter(a.decks[track.index]) == Counter(deck_composition(track))
        assert a.decks[track.index] != list(deck_composition(track))  # shuffled


# ---- §9: the draw table ----------------------------------------------------------------------

# Reds that draw a card at each improvement level (level 0 never draws).
DRAWING_REDS = {0: set(), 1: {1, 2}, 2: {1, 2, 3}, 3: {1, 2, 3, 4}, 4: {1, 2, 3, 4, 5}}
DRAWING_REDS[5] = {1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize("track", TRACKS, ids=lambda t: t.value)
@pytest.mark.parametrize("level", range(6))
def test_s9_castle_draw_table_every_level_every_red(track: Track, level: int) -> None:
    for red in range(1, 7):
        levels = [0, 0, 0]
        levels[track.index] = level
        game = make_game(
            buildings=TOWN,
            prompt="roll",
            improvements={1: tuple(levels)},  # type: ignore[dict-item]
        )
        top = game.decks[track.index][0]
        game.apply(Roll(0, roll_for(red), red, EventDie(track.value)))
        drew = bool(game.progress_hands[1] or game.revealed_vp[1])
        assert drew == (red in DRAWING_REDS[level]), (track, level, red)
        if drew:
            assert [*game.progress_hands[1], *game.revealed_vp[1]] == [top]
        assert game.progress_hands[0] == [] and game.progress_hands[2] == []
        assert violations(game) == []


def test_s9_a_ship_draws_nothing_and_another_colour_draws_nothing() -> None:
    game = make_game(buildings=TOWN, prompt="roll", improvements={0: (5, 5, 0)})
    game.apply(Roll(0, 2, 3, EventDie.SCIENCE))
    assert game.progress_hands[0] == []
    game = make_game(buildings=TOWN, prompt="roll", improvements={0: (5, 5, 5)})
    game.apply(Roll(0, 2, 3, EventDie.SHIP))
    assert game.progress_hands[0] == []


def test_s9_draw_order_active_player_first_then_seat_order() -> None:
    tops = (PC.SMITH, PC.CRANE, PC.MINING, PC.INVENTOR)
    game = make_game(
        buildings=TOWN,
        prompt="roll",
        active=2,
        improvements={p: (0, 0, 5) for p in range(4)},
        deck_tops={"science": tops},
    )
    game.apply(Roll(2, 1, 6, EventDie.SCIENCE))
    assert [game.progress_hands[p] for p in (2, 3, 0, 1)] == [[c] for c in tops]


def test_s9_an_empty_deck_gives_nothing() -> None:
    game = make_game(
        buildings=TOWN,
        prompt="roll",
        improvements={0: (5, 0, 0), 1: (5, 0, 0)},
        progress={0: deck_composition(TRADE)},
    )
    assert game.decks[TRADE.index] == []
    game.apply(Roll(0, 1, 2, EventDie.TRADE))
    assert game.progress_hands[1] == [] and len(game.progress_hands[0]) == 18
    assert game.prompt.kind is PromptKind.TURN
    assert violations(game) == []


def test_s9_played_cards_go_under_their_deck() -> None:
    game = make_game(buildings=TOWN, progress={0: (PC.WARLORD,)})
    size = len(game.decks[POLITICS.index])
    game.apply(PlayProgress(0, PC.WARLORD))
    assert game.decks[POLITICS.index][-1] is PC.WARLORD
    assert len(game.decks[POLITICS.index]) == size + 1
    assert game.progress_hands[0] == []


# ---- §7.3: tied defenders draw from a deck of their choice -----------------------------------


def tied_attack_game(**kw: object) -> Game:
    # One city (strength 1) against three active basic knights of players 0, 1, 2: all tied.
    return make_game(
        buildings=TOWN,
        prompt="roll",
        knights={17: (0, 1, True), 35: (1, 1, True), 45: (2, 1, True)},
        barbarian_position=6,
        **kw,  # type: ignore[arg-type]
    )


def test_s7_tied_defenders_each_draw_from_the_deck_they_choose() -> None:
    game = tied_attack_game(deck_tops={"trade": (PC.MERCHANT,), "politics": (PC.SPY,)})
    game.apply(Roll(0, 2, 3, EventDie.SHIP))
    assert game.prompt == game.pending[0]
    assert [p.player for p in game.pending] == [0, 1, 2]
    assert set(game.legal_actions()) == {ChooseProgressDeck(0, t) for t in TRACKS}
    game.apply(ChooseProgressDeck(0, TRADE))
    game.apply(ChooseProgressDeck(1, POLITICS))
    game.apply(ChooseProgressDeck(2, TRADE))
    assert game.progress_hands[0] == [PC.MERCHANT]
    assert game.progress_hands[1] == [PC.SPY]
    assert len(game.progress_hands[2]) == 1 and game.progress_hands[2][0].track is TRADE
    assert game.defender_cards == [0, 0, 0, 0]
    assert game.prompt.kind is PromptKind.TURN
    assert violations(game) == []


def test_s9_a_tied_defenders_5th_card_is_discarded_before_the_next_choice() -> None:
    four = (PC.SPY, PC.SPY, PC.WARLORD, PC.BISHOP)
    game = tied_attack_game(progress={1: four}, deck_tops={"trade": (PC.MERCHANT,)})
    game.apply(Roll(0, 2, 3, EventDie.SHIP))
    game.apply(ChooseProgressDeck(0, SCIENCE))
    game.apply(ChooseProgressDeck(1, TRADE))
    assert game.prompt.kind is PromptKind.PROGRESS_DISCARD and game.prompt.player == 1
    assert set(game.legal_actions()) == {
        DiscardProgressCard(1, c) for c in (PC.SPY, PC.WARLORD, PC.BISHOP, PC.MERCHANT)
    }
    game.apply(DiscardProgressCard(1, PC.BISHOP))
    assert game.prompt.kind is PromptKind.CHOOSE_PROGRESS_DECK and game.prompt.player == 2
    assert game.decks[POLITICS.index][-1] is PC.BISHOP


# ---- §9: the hand limit ----------------------------------------------------------------------

FOUR = (PC.SPY, PC.WARLORD, PC.BISHOP, PC.DIPLOMAT)


def test_s9_a_5th_card_outside_ones_turn_is_discarded_at_once() -> None:
    game = make_game(
        buildings=TOWN,
        prompt="roll",
        improvements={1: (0, 5, 0)},
        progress={1: FOUR},
        deck_tops={"politics": (PC.SABOTEUR,)},
    )
    game.apply(Roll(0, 3, 3, EventDie.POLITICS))
    assert game.prompt == game.pending[0]
    assert (game.prompt.kind, game.prompt.player, game.prompt.count) == (
        PromptKind.PROGRESS_DISCARD,
        1,
        1,
    )
    with pytest.raises(IllegalActionError, match="not possible now"):
        game.apply(EndTurn(0))
    game.apply(DiscardProgressCard(1, PC.SABOTEUR))
    assert game.progress_hands[1] == sorted(FOUR, key=lambda c: c.order)
    assert game.decks[POLITICS.index][-1] is PC.SABOTEUR
    assert game.prompt.kind is PromptKind.TURN and game.prompt.player == 0
    assert violations(game) == []


def test_s9_on_ones_own_turn_5_cards_are_held_until_the_end_of_the_turn() -> None:
    game = make_game(
        buildings=TOWN,
        prompt="roll",
        improvements={0: (0, 5, 0)},
        progress={0: FOUR},
        deck_tops={"politics": (PC.SABOTEUR,)},
    )
    game.apply(Roll(0, 3, 3, EventDie.POLITICS))
    assert len(game.progress_hands[0]) == 5
    assert game.prompt.kind is PromptKind.TURN
    game.apply(EndTurn(0))
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.PROGRESS_DISCARD, 0)
    assert game.active == 0
    game.apply(DiscardProgressCard(0, PC.SABOTEUR))
    assert game.active == 1 and game.prompt.kind is PromptKind.ROLL
    assert len(game.progress_hands[0]) == 4
    assert violations(game) == []


def test_s9_playing_down_to_4_before_the_end_needs_no_discard() -> None:
    game = make_game(buildings=TOWN, progress={0: (*FOUR, PC.WARLORD)})
    game.apply(PlayProgress(0, PC.WARLORD))
    game.apply(EndTurn(0))
    assert game.active == 1 and game.prompt.kind is PromptKind.ROLL


def test_s9_vp_cards_are_revealed_at_once_outside_the_turn_and_not_counted_in_the_limit() -> None:
    game = make_game(
        buildings=TOWN,
        prompt="roll",
        improvements={1: (0, 5, 0)},
        progress={1: FOUR},
        deck_tops={"politics": (PC.CONSTITUTION,)},
    )
    before = game.victory_points(1)
    game.apply(Roll(0, 3, 3, EventDie.POLITICS))
    assert game.revealed_vp[1] == [PC.CONSTITUTION]
    assert PC.CONSTITUTION not in game.progress_hands[1]
    assert game.victory_points(1) == before + 1
    assert game.prompt.kind is PromptKind.TURN  # no discard: VP cards don't count
    assert violations(game) == []
    with pytest.raises(IllegalActionError, match="VP card: revealed when drawn, never played"):
        game.apply(PlayProgress(0, PC.CONSTITUTION))


def test_s11_a_vp_card_on_ones_own_turn_can_win_at_once() -> None:
    game = make_game(
        buildings={12: (0, "city"), 10: (0, "city"), 30: (1, "settlement")},
        prompt="roll",
        improvements={0: (0, 0, 5)},
        deck_tops={"science": (PC.PRINTER,)},
        config=GameConfig.for_players(4, seed=42, vp_target=5),
    )
    assert game.victory_points(0) == 4
    game.apply(Roll(0, 3, 3, EventDie.SCIENCE))
    assert game.winner == 0 and game.prompt.kind is PromptKind.GAME_OVER


# ---- §3, §9: when cards are played -----------------------------------------------------------


def test_s9_cards_other_than_the_alchemist_wait_for_the_roll() -> None:
    game = make_game(buildings=TOWN, prompt="roll", progress={0: (PC.WARLORD, PC.ALCHEMIST)})
    assert said(game.illegal_reason(PlayProgress(0, PC.WARLORD))) == (
        "progress cards are played after the roll; only the Alchemist before (§9)"
    )
    plays = [a for a in game.legal_actions() if isinstance(a, PLAY_TYPES)]
    assert len(plays) == 36 and all(isinstance(a, PlayAlchemist) for a in plays)


def test_s3_alchemist_fixes_the_production_dice_and_the_roll_obeys() -> None:
    game = make_game(buildings=TOWN, prompt="roll", progress={0: (PC.ALCHEMIST,)})
    assert game.alchemist_dice is None and game.awaiting_roll
    game.apply(PlayAlchemist(0, 4, 2))
    assert game.alchemist_dice == (4, 2)
    assert game.awaiting_roll and game.prompt.kind is PromptKind.ROLL
    assert set(game.legal_actions()) == {Roll(0, 4, 2, e) for e in EventDie}
    reason = said(game.illegal_reason(Roll(0, 3, 3, EventDie.SHIP)))
    assert reason is not None and "Alchemist fixed the dice at yellow 4, red 2" in reason
    game.apply(Roll(0, 4, 2, EventDie.TRADE))
    assert game.alchemist_dice is None
    assert game.last_roll == Roll(0, 4, 2, EventDie.TRADE)
    # 6 was rolled: player 0's city on 12 touches hills 6 and takes 2 brick.
    assert game.hands[0][Card.BRICK] == 2


def test_s3_alchemist_is_not_played_after_the_roll() -> None:
    game = make_game(buildings=TOWN, progress={0: (PC.ALCHEMIST,)})
    assert said(game.illegal_reason(PlayAlchemist(0, 3, 3))) == (
        "the Alchemist is played before the roll (§3, §10)"
    )
    assert not any(isinstance(a, PlayAlchemist) for a in game.legal_actions())


def test_s9_cards_may_be_played_the_turn_they_are_drawn() -> None:
    game = make_game(
        buildings=TOWN,
        prompt="roll",
        improvements={0: (0, 5, 0)},
        deck_tops={"politics": (PC.WARLORD,)},
    )
    game.apply(Roll(0, 3, 3, EventDie.POLITICS))
    assert PlayProgress(0, PC.WARLORD) in game.legal_actions()


# ---- hidden information ----------------------------------------------------------------------


def test_view_for_shows_own_cards_and_only_counts_of_the_others() -> None:
    game = make_game(
        buildings=TOWN,
        hands={0: hand_of(ore=2), 1: hand_of(wool=1, cloth=2)},
        progress={0: (PC.SPY,), 1: (PC.MERCHANT, PC.WARLORD)},
        revealed={1: (PC.PRINTER,)},
    )
    view = game.view_for(0)
    assert view["hands"][0]["ore"] == 2
    assert view["hands"][1] == {"cards": 3}
    assert view["progress_hands"][0] == ["spy"]
    assert view["progress_hands"][1] == {"cards": 2}
    assert view["revealed_vp"][1] == ["printer"]
    assert view["decks"] == {
        t.value: len(game.decks[t.index]) for t in TRACKS
    }  # sizes, not the order
    assert "rng" not in view and "seed" not in view["config"]
    text = json.dumps(view)
    assert "merchant_fleet" not in text and '"warlord"' not in text
    other = game.view_for(1)
    assert other["progress_hands"][1] == ["warlord", "merchant"]  # almanac order
    assert other["progress_hands"][0] == {"cards": 1}
    assert other["hands"][0] == {"cards": 2}


def test_view_for_shows_the_spied_hand_to_the_spy_only() -> None:
    game = make_game(buildings=TOWN, progress={0: (PC.SPY,), 1: (PC.MERCHANT, PC.WARLORD)})
    game.apply(PlaySpy(0, 1))
    assert sorted(game.view_for(0)["shown"]) == ["merchant", "warlord"]
    assert "shown" not in game.view_for(2)


# ---- JSON, replay, random games --------------------------------------------------------------


def test_json_round_trip_in_the_middle_of_a_card_effect() -> None:
    game = make_game(
        buildings=TOWN,
        progress={0: (PC.SPY, PC.MERCHANT_FLEET), 1: (PC.WARLORD,)},
        merchant=(3, 0),
    )
    game.apply(PlayMerchantFleet(0, Card.WOOL))
    game.apply(PlaySpy(0, 1))
    data = json.loads(json.dumps(game.to_json()))
    again = Game.from_json(data)
    assert again.to_json() == game.to_json()
    assert again.legal_actions() == game.legal_actions()
    assert again.trade_rate(0, Card.WOOL) == 2 and again.trade_rate(0, Card.GRAIN) == 2
    assert again.victory_points(0) == game.victory_points(0)


def test_replay_of_a_random_game_with_cards_played_is_exact() -> None:
    result = play_random_game(3, players=4, max_turns=300)
    game = result.game
    assert game is not None
    plays = [a for a in game.history if isinstance(a, PLAY_TYPES)]
    assert len(plays) >= 10
    actions = [action_from_json(json.loads(json.dumps(a.to_json()))) for a in game.history]
    assert Game.replay(game.config, actions).to_json() == game.to_json()


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), n=st.sampled_from([3, 4]))
def test_random_games_with_progress_cards_keep_all_invariants(seed: int, n: int) -> None:
    result = play_random_game(seed, players=n, max_turns=120, check=True)
    assert result.violation is None


@pytest.mark.slow
def test_random_games_over_40_seeds_end_with_a_winner_or_the_cap_and_play_every_card() -> None:
    played: set[ProgressCard] = set()
    for seed in range(40):
        result = play_random_game(seed, players=3 + seed % 2, max_turns=500, check=True)
        assert result.violation is None, (seed, result.violation)
        game = result.game
        assert game is not None
        assert result.winner is not None or game.turn == 500
        played.update(card_of(a) for a in game.history if isinstance(a, PLAY_TYPES))
    assert played == {c for c in ProgressCard if not c.is_vp}


def test_invariants_catch_a_lost_or_duplicated_card_and_a_hidden_vp_card() -> None:
    game = make_game(buildings=TOWN, progress={1: (PC.SPY,)})
    assert violations(game) == []
    game.decks[POLITICS.index].append(PC.SPY)
    assert "55 progress cards in play, not 54" in violations(game)
    game.decks[POLITICS.index].pop()
    game.progress_hands[1].append(PC.PRINTER)
    game.decks[SCIENCE.index].remove(PC.PRINTER)
    assert "player 1 holds a VP card unrevealed" in violations(game)
