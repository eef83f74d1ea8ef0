"""Properties of random games: invariants after every action, legality agreeing with the
legal-action list, rejected actions leaving the state untouched, JSON and replay round-trips,
undo giving the prefix state. (§2-§5, §8, §11 through random play.)"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion_app.rules.actions import (
    ACTION_TYPES,
    AcceptTrade,
    Action,
    ActivateKnight,
    BankTrade,
    BuildCity,
    BuildCityWall,
    BuildKnight,
    BuildRoad,
    BuildSettlement,
    BuildShip,
    BuyImprovement,
    ChasePirate,
    ChaseRobber,
    ChooseProgressDeck,
    CommitKnights,
    DeclineTrade,
    DiscardCard,
    DiscardProgressCard,
    DisplaceKnight,
    EndSpecialBuild,
    EndTurn,
    EventDie,
    GiveCard,
    HarborExchange,
    LoseCity,
    MoveKnight,
    MovePirate,
    MoveRobber,
    MoveShip,
    NobodyBuilds,
    OfferTrade,
    PlaceDeserter,
    PlaceMetropolis,
    PlayAlchemist,
    PlayBishop,
    PlayCrane,
    PlayDeserter,
    PlayDiplomat,
    PlayEngineer,
    PlayIntrigue,
    PlayInventor,
    PlayMasterMerchant,
    PlayMedicine,
    PlayMerchant,
    PlayMerchantFleet,
    PlayProgress,
    PlayResourceMonopoly,
    PlaySpy,
    PlayTradeMonopoly,
    PromoteKnight,
    RelocateKnight,
    RemoveKnight,
    Roll,
    StartSpecialBuild,
    StealFrom,
    StopEffect,
    TakeCard,
    TakeGold,
    TakeProgressCard,
    TakeResource,
    action_from_json,
)
from companion_app.rules.cards import Card, ProgressCard, Track
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import IllegalActionError, MalformedActionError
from companion_app.rules.game import Game, NothingToUndoError
from companion_app.rules.invariants import violations
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import choose_random_action, play_random_game
from companion_app.rules.rng import SplitMix64
from tests.said import said


def random_prefix(seed: int, steps: int, players: int = 4) -> Game:
    """A game after ``steps`` random legal actions from ``seed`` (fewer if it ends)."""
    game = Game.new(GameConfig.for_players(players, seed=seed))
    rng = SplitMix64(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(choose_random_action(game, rng))
    return game


seeds = st.integers(min_value=0, max_value=2**32)
players = st.sampled_from([3, 4])
seat = st.integers(min_value=-1, max_value=4)
cards = st.sampled_from(list(Card))
hands = st.tuples(*[st.integers(min_value=0, max_value=2)] * 8)
any_action = st.one_of(
    st.builds(BuildRoad, seat, st.integers(min_value=-2, max_value=75)),
    st.builds(BuildSettlement, seat, st.integers(min_value=-2, max_value=56)),
    st.builds(BuildCity, seat, st.integers(min_value=-2, max_value=56)),
    st.builds(
        Roll,
        seat,
        st.integers(min_value=0, max_value=7),
        st.integers(min_value=0, max_value=7),
        st.sampled_from(list(EventDie)),
    ),
    st.builds(DiscardCard, seat, cards),
    st.builds(MoveRobber, seat, st.integers(min_value=-1, max_value=20)),
    st.builds(StealFrom, seat, seat),
    st.builds(BankTrade, seat, cards, cards),
    st.builds(AcceptTrade, seat),
    st.builds(DeclineTrade, seat),
    st.builds(EndTurn, seat),
    st.builds(BuildCityWall, seat, nodes := st.integers(min_value=-1, max_value=55)),
    st.builds(BuildKnight, seat, nodes),
    st.builds(ActivateKnight, seat, nodes),
    st.builds(PromoteKnight, seat, nodes),
    st.builds(MoveKnight, seat, nodes, nodes),
    st.builds(DisplaceKnight, seat, nodes, nodes),
    st.builds(RelocateKnight, seat, nodes),
    st.builds(ChaseRobber, seat, nodes),
    st.builds(BuyImprovement, seat, st.sampled_from(list(Track))),
    st.builds(PlaceMetropolis, seat, nodes),
    st.builds(LoseCity, seat, nodes),
    st.builds(ChooseProgressDeck, seat, st.sampled_from(list(Track))),
    st.builds(TakeResource, seat, cards),
    st.builds(PlayProgress, seat, progress := st.sampled_from(list(ProgressCard))),
    st.builds(PlayAlchemist, seat, st.integers(0, 7), st.integers(0, 7)),
    st.builds(PlayCrane, seat, st.sampled_from(list(Track))),
    st.builds(PlayEngineer, seat, nodes),
    st.builds(PlayInventor, seat, hexes := st.integers(min_value=-1, max_value=19), hexes),
    st.builds(PlayMedicine, seat, nodes),
    st.builds(PlayBishop, seat, hexes),
    st.builds(PlayDeserter, seat, seat),
    st.builds(PlayDiplomat, seat, st.integers(min_value=-1, max_value=72)),
    st.builds(PlayIntrigue, seat, nodes),
    st.builds(PlaySpy, seat, seat),
    st.builds(PlayMasterMerchant, seat, seat),
    st.builds(PlayMerchant, seat, hexes),
    st.builds(PlayMerchantFleet, seat, cards),
    st.builds(PlayResourceMonopoly, seat, cards),
    st.builds(PlayTradeMonopoly, seat, cards),
    st.builds(DiscardProgressCard, seat, progress),
    st.builds(TakeProgressCard, seat, progress),
    st.builds(GiveCard, seat, cards),
    st.builds(TakeCard, seat, cards),
    st.builds(HarborExchange, seat, seat, cards),
    st.builds(RemoveKnight, seat, nodes),
    st.builds(PlaceDeserter, seat, nodes),
    st.builds(StopEffect, seat),
)


@given(seed=seeds, n=players)
def test_invariants_hold_after_every_action_of_random_games(seed: int, n: int) -> None:
    result = play_random_game(seed, players=n, max_turns=60, check=True)
    assert result.violation is None
    assert result.game is not None and result.game.turn <= 60


@pytest.mark.slow
def test_invariants_over_long_random_games_until_a_winner_or_the_cap() -> None:
    for seed in range(8):
        result = play_random_game(seed, players=3 + seed % 2, max_turns=400, check=True)
        assert result.violation is None, result.violation
        game = result.game
        assert game is not None
        if result.winner is not None:
            assert game.victory_points(result.winner) >= game.config.vp_target
            assert game.prompt.kind is PromptKind.GAME_OVER


@given(seed=seeds, steps=st.integers(min_value=0, max_value=400), action=any_action)
def test_an_action_is_legal_exactly_when_listed_and_rejection_changes_nothing(
    seed: int, steps: int, action: Action
) -> None:
    game = random_prefix(seed, steps)
    listed = action in game.legal_actions()
    assert game.is_legal(action) == listed
    if listed:
        return
    before = json.dumps(game.to_json(), sort_keys=True)
    history = list(game.history)
    with pytest.raises(IllegalActionError):
        game.apply(action)
    assert json.dumps(game.to_json(), sort_keys=True) == before
    assert game.history == history


@given(seed=seeds, steps=st.integers(min_value=0, max_value=400))
def test_every_listed_action_is_legal_and_applies(seed: int, steps: int) -> None:
    game = random_prefix(seed, steps)
    for action in game.legal_actions():
        assert said(game.illegal_reason(action)) is None, action
    for action in game.legal_actions()[:25]:
        copy = Game.from_json(game.to_json())
        copy.apply(action)
        assert violations(copy) == []


@given(seed=seeds, steps=st.integers(min_value=0, max_value=300))
def test_state_json_round_trips(seed: int, steps: int) -> None:
    game = random_prefix(seed, steps)
    data = json.loads(json.dumps(game.to_json()))
    again = Game.from_json(data)
    assert again.to_json() == game.to_json()
    assert again.legal_actions() == game.legal_actions()


@given(seed=seeds, steps=st.integers(min_value=1, max_value=300))
def test_replaying_the_actions_from_json_gives_the_identical_state(seed: int, steps: int) -> None:
    game = random_prefix(seed, steps)
    actions_json = json.loads(json.dumps([a.to_json() for a in game.history]))
    replayed = Game.replay(game.config, [action_from_json(a) for a in actions_json])
    assert replayed.to_json() == game.to_json()


@given(seed=seeds, steps=st.integers(min_value=1, max_value=200), back=st.integers(1, 5))
def test_undo_gives_the_state_of_the_prefix(seed: int, steps: int, back: int) -> None:
    game = random_prefix(seed, steps)
    taken = len(game.history)
    back = min(back, taken)
    expected = Game.replay(game.config, game.history[: taken - back]).to_json()
    undone = [game.undo() for _ in range(back)]
    assert game.to_json() == expected
    assert len(undone) == back


def test_undo_with_nothing_to_undo_is_a_clear_error() -> None:
    game = Game.new(GameConfig.for_players(3))
    with pytest.raises(NothingToUndoError, match="nothing to undo"):
        game.undo()


def test_undo_of_a_roll_takes_back_its_production() -> None:
    game = random_prefix(5, 400)
    while game.prompt.kind is not PromptKind.ROLL:
        game.apply(choose_random_action(game, SplitMix64(1)))
    before = game.to_json()
    game.apply(Roll(game.active, 4, 4, EventDie.SHIP))
    assert game.undo() == Roll(game.active, 4, 4, EventDie.SHIP)
    assert game.to_json() == before


@pytest.mark.parametrize(
    "data, message",
    [
        ("roll", "an action is a JSON object"),
        ({"type": "fly"}, "unknown action type 'fly'"),
        ({"type": "roll", "player": 0, "yellow": 3, "red": 4}, "needs the field 'event'"),
        (
            {"type": "roll", "player": 0, "yellow": 3, "red": 4, "event": "dragon"},
            "event must be one of",
        ),
        ({"type": "build_road", "player": 0, "edge": "7"}, "edge must be an integer"),
        ({"type": "build_road", "player": True, "edge": 7}, "player must be an integer"),
        ({"type": "end_turn", "player": 0, "extra": 1}, "unexpected fields: extra"),
        ({"type": "discard", "player": 0, "card": "gold"}, "card must be a card name"),
        (
            {"type": "offer_trade", "player": 0, "to": 1, "give": {"gold": 1}, "take": {}},
            "'gold' is not a card",
        ),
        (
            {"type": "offer_trade", "player": 0, "to": 1, "give": {"ore": -1}, "take": {}},
            "must be >= 0",
        ),
    ],
)
def test_malformed_action_json_is_rejected_naming_the_problem(data: object, message: str) -> None:
    game = Game.new(GameConfig.for_players(4))
    before = game.to_json()
    with pytest.raises(MalformedActionError, match=message):
        game.apply_json(data)
    assert game.to_json() == before


def test_every_action_type_round_trips_through_json() -> None:
    examples = [
        BuildRoad(1, 5),
        BuildSettlement(2, 9),
        BuildCity(0, 3),
        BuildShip(1, 40),
        MoveShip(2, 40, 41),
        Roll(3, 6, 1, EventDie.SCIENCE),
        DiscardCard(1, Card.PAPER),
        MoveRobber(0, 18),
        StealFrom(0, 2),
        BankTrade(1, Card.COIN, Card.ORE),
        OfferTrade(0, 1, (1, 0, 0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 2, 0, 0)),
        AcceptTrade(1),
        DeclineTrade(1),
        EndTurn(2),
        BuildCityWall(0, 8),
        BuildKnight(1, 12),
        ActivateKnight(1, 12),
        PromoteKnight(1, 12),
        MoveKnight(2, 12, 17),
        DisplaceKnight(2, 12, 17),
        RelocateKnight(3, 40),
        ChaseRobber(0, 23),
        BuyImprovement(1, Track.POLITICS),
        PlaceMetropolis(1, 8),
        LoseCity(2, 9),
        ChooseProgressDeck(3, Track.SCIENCE),
        CommitKnights(0, (3, 17)),
        TakeResource(2, Card.GRAIN),
        PlayProgress(0, ProgressCard.SMITH),
        PlayAlchemist(1, 3, 5),
        PlayCrane(1, Track.SCIENCE),
        PlayEngineer(2, 10),
        PlayInventor(3, 4, 11),
        PlayMedicine(0, 20),
        PlayBishop(1, 7),
        PlayDeserter(2, 0),
        PlayDiplomat(3, 33),
        PlayIntrigue(0, 14),
        PlaySpy(1, 2),
        PlayMasterMerchant(2, 3),
        PlayMerchant(3, 9),
        PlayMerchantFleet(0, Card.CLOTH),
        PlayResourceMonopoly(1, Card.WOOL),
        PlayTradeMonopoly(2, Card.COIN),
        DiscardProgressCard(3, ProgressCard.SPY),
        TakeProgressCard(0, ProgressCard.WARLORD),
        GiveCard(1, Card.BRICK),
        TakeCard(2, Card.ORE),
        HarborExchange(3, 1, Card.LUMBER),
        RemoveKnight(0, 30),
        PlaceDeserter(1, 31),
        StopEffect(2),
        StartSpecialBuild(4, 5),
        NobodyBuilds(5),
        EndSpecialBuild(3),
        MovePirate(1, 55),
        ChasePirate(2, 53),
        TakeGold(3, Card.GRAIN),
    ]
    assert {type(a) for a in examples} == set(ACTION_TYPES.values())
    for action in examples:
        assert action_from_json(json.loads(json.dumps(action.to_json()))) == action
