"""The turn's display logic without a window: the action bar offers exactly the legal kinds of
action, every legal action is reachable through its button's choices (and nothing else is),
prompts name the player who decides, hidden cards wait for that player, offers carry the rules
core's words. Rules references (§) are to the project's rules reference."""

from __future__ import annotations

import pytest

from companion_app.app.tour.plan import (
    ISLAND_PROMPTS,
    ISLAND_TYPES,
    LARGE_GAME_PROMPTS,
    LARGE_GAME_TYPES,
    MIN_TURNS,
    PLAN_SEED,
    make_plan,
)
from companion_app.presenters import board_picture as B
from companion_app.presenters import choices as C
from companion_app.presenters import wording as W
from companion_app.rules.actions import (
    Action,
    BankTrade,
    CommitKnights,
    EndTurn,
    OfferTrade,
    Roll,
)
from companion_app.rules.cards import Card, hand_of
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64
from tests.said import said


def _leaves(step: C.ChoiceStep) -> list[Action]:
    found: list[Action] = []
    for choice in step.choices:
        if choice.action is not None:
            found.append(choice.action)
        if choice.then is not None:
            found.extend(_leaves(choice.then))
    return found


def _random_states(seed: int, actions: int) -> list[Game]:
    """Snapshots of a random game (every 3rd action) with evil barbarians, so commits occur."""
    game = Game.new(GameConfig.for_players(3, seed=seed, evil_barbarians=True))
    rng = SplitMix64(seed)
    states = []
    for i in range(actions):
        if game.is_over:
            break
        if i % 3 == 0:
            states.append(Game.replay(game.config, game.history))
        game.apply(choose_random_action(game, rng))
    return states


STATES = [g for seed in (3, 11) for g in _random_states(seed, 900)]


def test_the_random_states_reach_turns_prompts_and_cards() -> None:
    kinds = {g.prompt.kind for g in STATES}
    assert {PromptKind.TURN, PromptKind.ROLL, PromptKind.DISCARD} <= kinds
    assert any(C.PROGRESS_KEY in {b.key for b in C.action_bar(g)} for g in STATES)


@pytest.mark.parametrize("index", range(0, len(STATES), 7))
def test_the_bar_offers_exactly_the_legal_kinds(index: int) -> None:
    game = STATES[index]
    offered = set().union(*(b.types for b in C.action_bar(game))) if C.action_bar(game) else set()
    expected: set[str] = set()
    if game.prompt.kind in (PromptKind.TURN, PromptKind.ROLL):
        expected = {a.type_name for a in game.legal_actions() if not isinstance(a, Roll | EndTurn)}
        if game.prompt.kind is PromptKind.TURN and game.may_offer_trade():
            expected.add("offer_trade")
        if game.progress_hand(game.prompt.player) and not any(
            t.startswith("play_") for t in expected
        ):
            # Cards held but none playable: the button is there all the same (covered).
            expected.add(C.PROGRESS_KEY)
    assert offered == expected


def test_the_progress_button_does_not_tell_whether_a_card_is_playable() -> None:
    """The bar shows "Progress card" exactly when the decider holds some (a public count)."""
    seen_unplayable = False
    for game in STATES:
        if game.prompt.kind not in (PromptKind.TURN, PromptKind.ROLL):
            continue
        keys = {b.key for b in C.action_bar(game)}
        holds = bool(game.progress_hand(game.prompt.player))
        assert (C.PROGRESS_KEY in keys) == holds
        if holds and not any(a.type_name.startswith("play_") for a in game.legal_actions()):
            seen_unplayable = True
            step = C.bar_step(game, C.PROGRESS_KEY)
            assert step.choices == ()
            assert step.title == "None of your progress cards can be played now"
    assert seen_unplayable


@pytest.mark.parametrize("index", range(0, len(STATES), 5))
def test_every_legal_action_is_one_path_through_the_choices(index: int) -> None:
    game = STATES[index]
    legal = [a for a in game.legal_actions() if not isinstance(a, Roll | EndTurn | CommitKnights)]
    reached: list[Action] = []
    if game.in_setup:
        reached.extend(B.spots_for(legal).values())
    elif game.prompt.kind in (PromptKind.TURN, PromptKind.ROLL):
        for button in C.action_bar(game):
            if button.key != C.OFFER_KEY:
                reached.extend(_leaves(C.bar_step(game, button.key)))
    else:
        step = C.prompt_step(game)
        if step is not None:
            reached.extend(_leaves(step))
    # Every legal action, nothing that is not legal; once each, except the Inventor's swap,
    # which either of its two hexes starts.
    assert set(reached) == set(legal)
    once = [a for a in reached if a.type_name != "play_inventor"]
    assert len(once) == len(set(once))


@pytest.mark.parametrize("index", range(0, len(STATES), 5))
def test_spots_in_a_step_are_distinct_and_a_tap_finds_the_choice(index: int) -> None:
    game = STATES[index]
    steps = [C.prompt_step(game)] + [
        C.bar_step(game, b.key) for b in C.action_bar(game) if b.key != C.OFFER_KEY
    ]
    for step in filter(None, steps):
        spotted = [c for c in step.choices if c.spot is not None]
        assert len({c.spot for c in spotted}) == len(spotted), step.title


def test_the_banner_names_who_decides_and_asks_to_pass_the_tablet() -> None:
    for game in STATES:
        view = W.prompt_view(game)
        name = game.config.names[game.prompt.player]
        assert view.words == said(game.describe_prompt())
        if game.is_over:
            continue
        last = game.history[-1].player if game.history else game.prompt.player
        if last != game.prompt.player:
            assert view.headline == f"Pass the tablet to {name}"
        elif game.prompt.kind is PromptKind.TURN:
            assert view.headline == f"{name}: your turn"
        else:
            assert view.headline in (f"{name}: your turn", f"{name} decides")


def test_the_tablet_goes_to_a_discarding_player_and_comes_back() -> None:
    """A 7 (§3): the roller passes the tablet to each player who discards, then gets it back."""
    game = next(
        g
        for g in STATES
        if g.prompt.kind is PromptKind.DISCARD and g.history[-1].player != g.prompt.player
    )
    names = game.config.names
    assert W.prompt_view(game).headline == f"Pass the tablet to {names[game.prompt.player]}"
    rng = SplitMix64(1)
    while game.prompt.kind is PromptKind.DISCARD:
        game.apply(choose_random_action(game, rng))
    if game.prompt.player != game.history[-1].player:
        assert W.prompt_view(game).headline == f"Pass the tablet to {names[game.prompt.player]}"


def test_nobody_is_told_to_pass_the_tablet_to_a_player_answering_on_their_phone() -> None:
    """A 7 (§3) with the discarding player's phone connected: the banner names who decides, and
    the screen adds "Waiting for …'s phone"; the covered cards stay covered."""
    game = next(
        g
        for g in STATES
        if g.prompt.kind is PromptKind.DISCARD and g.history[-1].player != g.prompt.player
    )
    name = game.config.names[game.prompt.player]
    view = W.prompt_view(game, on_phone=True)
    assert view.headline == f"{name} decides"
    assert view.details == W.prompt_view(game).details
    assert "Your cards" not in view.details


def test_once_the_decider_opens_something_the_banner_stops_asking_to_pass_the_tablet() -> None:
    """After another player's action it is the turn's player's again (§3): "Pass the tablet to
    Red" until Red opens a button of the bar, then "Red: your turn"."""
    game = next(
        g
        for g in STATES
        if g.prompt.kind is PromptKind.TURN and g.history[-1].player != g.prompt.player
    )
    name = game.config.names[game.prompt.player]
    assert W.prompt_view(game).headline == f"Pass the tablet to {name}"
    assert W.prompt_view(game, in_hand=True).headline == f"{name}: your turn"


def test_discarding_on_a_seven_shows_the_cards_only_after_the_tap() -> None:
    game = next(g for g in STATES if g.prompt.kind is PromptKind.DISCARD)
    p = game.prompt.player
    hidden = W.prompt_view(game)
    shown = W.prompt_view(game, revealed=True)
    assert hidden.hides_cards and "cards:" not in hidden.details
    count = game.prompt.count
    assert hidden.details == f"discard {count} card" + ("" if count == 1 else "s")
    assert shown.details == f"Your cards: {W.hand_words(game.hand(p))}"
    # One discard button per kind of card held (§3: one card per action).
    step = C.prompt_step(game)
    assert step is not None
    assert len(step.buttons) == sum(1 for n in game.hand(p) if n)


def test_bank_trade_words_carry_the_rate_the_rules_core_computes() -> None:
    game = next(
        g
        for g in STATES
        if any(isinstance(a, BankTrade) for a in g.legal_actions())
        and g.prompt.kind is PromptKind.TURN
    )
    step = C.bar_step(game, "bank_trade")
    for choice in step.choices:
        assert choice.then is not None
        trade = choice.then.choices[0].action
        assert isinstance(trade, BankTrade)
        rate = game.trade_rate(trade.player, trade.give)
        assert choice.label.startswith(f"Give {rate} {trade.give.label}")
        assert rate in (2, 3, 4)


def test_an_offer_reads_as_words_or_as_the_rules_cores_objection() -> None:
    game = next(g for g in STATES if g.prompt.kind is PromptKind.TURN and g.may_offer_trade())
    p = game.active
    held = next(c for c in Card if game.hands[p][c])
    to = game.next_seat(p)
    offer = OfferTrade(
        p, to, hand_of(**{held.label: 1}), hand_of(wool=1) if held != Card.WOOL else hand_of(ore=1)
    )
    words = W.offer_words(game, offer)
    assert words.startswith(f"To {game.config.names[to]}: give 1 {held.label}")
    too_much = OfferTrade(p, to, hand_of(**{held.label: 30}), hand_of(ore=1))
    assert W.offer_words(game, too_much) == said(game.illegal_reason(too_much))


def test_commit_knights_are_chosen_one_by_one_and_sent_as_the_legal_action() -> None:
    games = [g for g in STATES if g.prompt.kind is PromptKind.COMMIT_KNIGHTS]
    assert games, "no commit_knights prompt in the random states"
    for game in games:
        knights = C.commit_knights(game)
        assert knights is not None
        nodes = [k.node for k in knights]
        everyone = C.commit_action(game, reversed(nodes))
        assert isinstance(everyone, CommitKnights)
        assert everyone.nodes == tuple(sorted(nodes))
        assert C.commit_action(game, []) == CommitKnights(game.prompt.player, ())


def test_the_planned_long_game_reaches_everything_and_ends() -> None:
    """The game the touch-driven test replays (test_long_game_ui): every action type, every
    prompt, at least 40 turns, a winner at the VP target. Its rolls are dice the box can show."""
    plan = make_plan(PLAN_SEED)
    assert plan.missing == (set(), set())
    # Three players: everything but the special build phase of five or six (§12).
    assert plan.types == set(ISLAND_TYPES - LARGE_GAME_TYPES)
    assert plan.prompts == set(ISLAND_PROMPTS - LARGE_GAME_PROMPTS)
    assert plan.turns >= MIN_TURNS and plan.winner is not None
    game = Game.replay(plan.config, plan.actions)
    assert game.is_over and game.victory_points(plan.winner) >= plan.config.vp_target
    lines = plan.dice_script().splitlines()
    assert len(lines) == len(plan.rolls) >= MIN_TURNS
    assert all(1 <= r.yellow <= 6 and 1 <= r.red <= 6 for r in plan.rolls)
