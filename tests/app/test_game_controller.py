"""The game screen's interaction state without a window: the covered card picker for every
"choose several cards" decision (what it counts, what Confirm applies, what Undo restores),
one-option choices taken at once (never a private one, never the player's own turn), and the
state closing whenever the game moves on by any path."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from companion_app.app.tour.plan import PLAN_SEED, SCENARIO_PLAN_SEEDS, make_plan
from companion_app.game_log import GameLog
from companion_app.presenters import game_controller as GC
from companion_app.presenters.choices import HARBOR_KEY, PROGRESS_KEY, action_bar
from companion_app.presenters.game_controller import GameController
from companion_app.presenters.wording import prompt_view
from companion_app.rules.actions import (
    DiscardCard,
    EventDie,
    MoveRobber,
    OfferTrade,
    PlayMasterMerchant,
    PlayProgress,
    PlaySpy,
    Roll,
    StealFrom,
    TakeCard,
    TakeProgressCard,
)
from companion_app.rules.cards import Card, ProgressCard, hand_of
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from companion_app.rules.registry import ALWAYS_ASKED, PICKER_PROMPTS, PRIVATE_PROMPTS
from tests.rules.builders import corner, make_game, robber_beside_one_victim
from tests.said import said


def _seven() -> Game:
    """Blue holds 8 cards (discards 4), White 9 (discards 4); Red rolls a 7."""
    game = make_game(
        hands={1: hand_of(brick=4, ore=3, wool=1), 2: hand_of(grain=5, lumber=2, coin=2)},
        prompt="roll",
        robber_unlocked=True,
    )
    game.apply(Roll(0, 3, 4, EventDie.TRADE))
    return game


# ---- the covered card picker through the controller ----------------------------------------


def test_a_seven_with_two_discards_worked_through_the_controller() -> None:
    game = _seven()
    control = GameController()
    control.follow(game)
    # Covered first: nothing chosen, nothing of the hand open, until Blue uncovers.
    assert control.covered(game) and control.picking(game) and control.picker is None
    covered = prompt_view(game, revealed=control.revealed)
    assert "Blue" in covered.headline
    assert not any(word in covered.details for word in ("brick", "ore", "wool"))
    control.reveal(game)
    assert prompt_view(game, revealed=control.revealed).details == (
        "Your cards: 4 brick, 1 wool, 3 ore"
    )
    picker = control.picker
    assert picker is not None and picker.player == 1 and picker.count == 4
    assert [(r.label, r.held, r.chosen) for r in picker.rows] == [
        ("brick", 4, 3),
        ("wool", 1, 0),
        ("ore", 3, 1),
    ]
    assert picker.title == "Blue: discard 4 cards · 4 of 4 chosen"
    # Blue keeps a brick and gives the wool instead: − on brick, + on wool.
    control.remove(0)
    assert picker.confirm_words == "Choose 1 more" and control.confirm(game) == []
    control.add(1)
    assert picker.confirm_words == "Discard 2 brick, 1 wool, 1 ore"
    blue = control.confirm(game)
    assert blue == [DiscardCard(1, Card.BRICK)] * 2 + [
        DiscardCard(1, Card.WOOL),
        DiscardCard(1, Card.ORE),
    ]
    assert control.picker is None and not control.revealed  # covered again for the next one
    for action in blue:
        game.apply(action)
    assert game.hand(1)[Card.BRICK] == 2 and game.hand(1)[Card.WOOL] == 0
    assert game.hand(1)[Card.ORE] == 2 and game.card_count(1) == 4
    # The tablet goes to White: a new decision, covered again.
    assert control.follow(game) and control.covered(game)
    control.reveal(game)
    assert control.picker is not None and control.picker.player == 2
    # 5 grain, 2 lumber, 2 coin: the suggestion takes grain three times (5, 4, 3 left),
    # then the first of three kinds with 2 left (lumber); Confirm goes row by row.
    white = control.confirm(game)
    assert white == [DiscardCard(2, Card.LUMBER)] + [DiscardCard(2, Card.GRAIN)] * 3
    for action in white:
        game.apply(action)
    assert game.prompt.kind is PromptKind.MOVE_ROBBER
    # One Undo takes back White's whole choice (4 cards), the next Blue's.
    assert GC.undo_span(game) == list(reversed(white))
    for _ in white:
        game.undo()
    assert game.hand(2)[Card.GRAIN] == 5 and game.card_count(2) == 9
    assert game.prompt.kind is PromptKind.DISCARD and game.prompt.player == 2
    assert GC.undo_span(game) == list(reversed(blue))
    # Redo takes the whole choice again.
    assert GC.redo_span(game, white) == 4


def test_the_spy_and_the_master_merchant_show_the_victims_cards_to_the_player_only() -> None:
    game = make_game(
        hands={0: hand_of(ore=1), 1: hand_of(brick=2, cloth=1)},
        progress={0: (ProgressCard.SPY, ProgressCard.MASTER_MERCHANT), 1: (ProgressCard.BISHOP,)},
        buildings={corner(4, 0): (1, "city"), corner(8, 0): (1, "city")},
    )
    control = GameController()
    game.apply(PlaySpy(0, 1))
    assert control.follow(game) and control.covered(game)
    control.reveal(game)
    spy = control.picker
    assert spy is not None and spy.count == 1
    assert [(r.label, r.held, r.chosen) for r in spy.rows] == [("Bishop", 1, 0)]  # no suggestion
    assert spy.title == "Red: take 1 progress card from Blue's hand · 0 of 1 chosen"
    control.add(0)
    taken = control.confirm(game)
    assert taken == [TakeProgressCard(0, ProgressCard.BISHOP)]
    game.apply(taken[0])
    assert ProgressCard.BISHOP in game.progress_hand(0) and not game.progress_hand(1)
    game.apply(PlayMasterMerchant(0, 1))
    control.follow(game)
    control.reveal(game)
    merchant = control.picker
    assert merchant is not None and merchant.count == 2
    assert [(r.label, r.held) for r in merchant.rows] == [("brick", 2), ("cloth", 1)]
    control.add(0)
    control.add(1)
    taken = control.confirm(game)
    assert taken == [TakeCard(0, Card.BRICK), TakeCard(0, Card.CLOTH)]
    for action in taken:
        game.apply(action)
    assert game.hand(0)[Card.BRICK] == 1 and game.hand(0)[Card.CLOTH] == 1
    assert game.card_count(1) == 1
    # Undo takes both cards back at once; what brought them (the card play) stays.
    span = GC.undo_span(game)
    assert span == list(reversed(taken))
    for _ in span:
        game.undo()
    assert game.prompt.kind is PromptKind.MASTER_MERCHANT and game.card_count(1) == 3


@pytest.fixture(scope="module")
def planned_decisions() -> dict[PromptKind, list[Game]]:
    """Every card decision the planned games (the tour's and the UI scenarios' island game, the
    New Shores tour's 4-player game with its gold choices) stand at."""
    sea = make_plan(SCENARIO_PLAN_SEEDS[("new_shores", 4)], 4, scenario="new_shores")
    found: dict[PromptKind, list[Game]] = {}
    for plan in (make_plan(PLAN_SEED), sea):
        game = Game.new(plan.config)
        last = None
        for action in plan.actions:
            prompt = game.prompt
            going_on = last is not None and (last.kind, last.player, last.count - 1) == (
                prompt.kind,
                prompt.player,
                prompt.count,
            )
            if prompt.kind in PICKER_PROMPTS and not going_on:  # a decision's start only
                found.setdefault(prompt.kind, []).append(copy.deepcopy(game))
            last = prompt
            game.apply(action)
    return found


def test_the_planned_game_reaches_every_card_decision(planned_decisions: dict) -> None:
    assert set(planned_decisions) == PICKER_PROMPTS


@pytest.mark.parametrize("kind", sorted(PICKER_PROMPTS, key=lambda k: k.value))
def test_every_card_decision_confirms_whole_and_undoes_whole(
    kind: PromptKind, planned_decisions: dict[PromptKind, list[Game]]
) -> None:
    for start in planned_decisions[kind][:6]:
        game = copy.deepcopy(start)
        decider = game.prompt.player
        hands = [tuple(game.hand(p)) for p in range(game.player_count)]
        progress = [Counter(game.progress_hand(p)) for p in range(game.player_count)]
        control = GameController()
        bank = tuple(game.bank)
        control.follow(game)
        # Covered until shown; a gold field's choice from the bank hides nothing (§13.5).
        assert control.covered(game) is (kind is not PromptKind.GOLD) and control.picker is None
        control.reveal(game)
        picker = control.picker
        assert picker is not None and picker.player == decider
        owner = (
            game.card_target if kind in (PromptKind.SPY, PromptKind.MASTER_MERCHANT) else decider
        )
        # The rows are the cards the hand holds, each with its count in that hand.
        for row in picker.rows:
            if isinstance(row.key, ProgressCard):
                assert row.held == game.progress_hand(owner).count(row.key) >= 1
            elif kind is PromptKind.GOLD:
                assert row.key.is_resource and row.held == game.bank[row.key] >= 1
            else:
                assert row.held == game.hand(owner)[row.key] >= 1
        # Fill from the last row up, whatever was suggested.
        for i in range(len(picker.rows)):
            while picker.rows[i].chosen:
                control.remove(i)
        while not picker.ready:
            control.add(next(i for i in reversed(range(len(picker.rows))) if picker.can_add(i)))
        count = picker.count
        expected = [picker.action_for(r.key) for r in picker.rows for _ in range(r.chosen)]
        actions = control.confirm(game)
        assert actions == expected and len(actions) == count >= 1
        for action in actions:
            game.apply(action)
        assert not (
            game.prompt.kind is kind
            and game.prompt.player == decider
            and kind is not PromptKind.DISCARD
        )
        # One Undo restores every hand as it was before the Confirm.
        span = GC.undo_span(game)
        assert span == list(reversed(actions))
        for _ in span:
            game.undo()
        assert [tuple(game.hand(p)) for p in range(game.player_count)] == hands
        assert [Counter(game.progress_hand(p)) for p in range(game.player_count)] == progress
        assert tuple(game.bank) == bank


def test_the_state_closes_whenever_the_game_moves_on() -> None:
    game = _seven()
    control = GameController()
    control.follow(game)
    control.reveal(game)
    assert control.picker is not None and control.still_due(game)
    # The game moved on without the controller (a direct change: the tour, a phone, undo).
    game.apply(DiscardCard(1, Card.ORE))
    assert not control.still_due(game)
    assert control.confirm(game) == []  # a stale choice is never applied
    assert control.follow(game)
    assert control.picker is None and not control.revealed and control.covered(game)


def test_the_bar_and_its_steps_close_when_the_game_moves_on() -> None:
    game = make_game(hands={0: hand_of(brick=1, lumber=1, ore=4)}, prompt="turn")
    control = GameController()
    control.follow(game)
    assert not control.pick_bar(game, "bank_trade")
    assert control.bar_key == "bank_trade" and len(control.steps) == 1
    step = control.current_step(game)
    assert step is not None and step.buttons
    assert control.choose(game, step.buttons[0]) is None  # opens "give 4 ore for..."
    assert len(control.steps) == 2
    game.apply(OfferTrade(0, 1, hand_of(brick=1), hand_of(ore=1)))
    assert control.follow(game) and control.bar_key == "" and control.steps == []


def test_progress_cards_stay_covered_until_their_holder_uncovers_them() -> None:
    game = make_game(
        hands={0: hand_of(brick=1)}, progress={0: (ProgressCard.BISHOP,)}, prompt="turn"
    )
    control = GameController()
    control.follow(game)
    control.pick_bar(game, PROGRESS_KEY)
    assert control.covered(game)
    assert not control.uncovered(game)
    control.reveal(game)
    assert not control.covered(game) and control.picker is None  # not a card decision
    # Shown by buttons: "Cover my cards" hides them again, nothing chosen, the bar still open.
    assert control.uncovered(game)
    control.cover()
    assert control.covered(game) and not control.uncovered(game)
    assert control.bar_key == PROGRESS_KEY
    control.reveal(game)
    game.apply(OfferTrade(0, 1, hand_of(brick=1), hand_of(ore=1)))
    control.follow(game)
    assert control.bar_key == "" and not control.revealed


# ---- one-option choices ----------------------------------------------------------------------


def test_the_only_victim_is_stolen_from_at_once_and_one_undo_takes_back_the_robber_too() -> None:
    game = robber_beside_one_victim()
    log = GameLog.from_position(game)
    game.apply(MoveRobber(0, 4))
    assert game.prompt.kind is PromptKind.CHOOSE_VICTIM
    action = GC.only_choice(game)
    assert action == StealFrom(0, 1)
    game.apply(action)
    log.sync(game.history)
    assert log.entries[-1].automatic
    assert said(log.entries[-1].text) == "Red steals a card from Blue (the only choice)"
    # Undoing the steal alone would have it taken again at once: one Undo takes back the
    # robber's move with it, back where Red chose; one Redo takes both again.
    span = GC.undo_span(game)
    assert span == [StealFrom(0, 1), MoveRobber(0, 4)]
    for _ in span:
        game.undo()
    assert game.prompt.kind is PromptKind.MOVE_ROBBER and GC.only_choice(game) is None
    assert GC.redo_span(game, list(reversed(span))) == 2


def test_two_victims_are_asked() -> None:
    game = make_game(
        buildings={corner(4, 0): (1, "settlement"), corner(4, 3): (2, "settlement")},
        hands={1: hand_of(ore=1), 2: hand_of(wool=1)},
        prompt="move_robber",
        robber_unlocked=True,
    )
    game.apply(MoveRobber(0, 4))
    assert GC.only_choice(game) is None


def test_a_private_decision_is_never_taken_for_its_player() -> None:
    # Blue holds 8 ore: a discard of 4 has one legal action (ore), but it is Blue's to make,
    # and the log does not call it "the only choice" (that would tell the table the hand).
    game = make_game(hands={1: hand_of(ore=8)}, prompt="roll")
    log = GameLog.from_position(game)
    game.apply(Roll(0, 3, 4, EventDie.TRADE))
    assert game.prompt.kind is PromptKind.DISCARD
    assert game.legal_actions() == [DiscardCard(1, Card.ORE)]
    assert GC.only_choice(game) is None
    game.apply(DiscardCard(1, Card.ORE))
    log.sync(game.history)
    assert not any(e.automatic for e in log.entries)


def test_the_turn_and_an_offer_to_answer_are_always_asked() -> None:
    game = make_game(hands={0: hand_of(brick=1)}, prompt="turn")
    assert GC.only_choice(game) is None
    offer = OfferTrade(0, 1, hand_of(brick=1), hand_of(ore=1))
    game.apply(offer)
    assert game.prompt.kind is PromptKind.TRADE_RESPONSE
    assert len(game.legal_actions()) == 1  # Blue has no ore: only Decline
    assert GC.only_choice(game) is None


def test_every_hidden_card_decision_is_always_asked() -> None:
    # A gold field's choice hides nothing (§13.5): with one resource left in the bank it is
    # taken at once.
    assert PRIVATE_PROMPTS | (PICKER_PROMPTS - {PromptKind.GOLD}) <= ALWAYS_ASKED
    assert PromptKind.GOLD in PICKER_PROMPTS and PromptKind.GOLD not in ALWAYS_ASKED
    assert PromptKind.HARBOR_ANSWER in ALWAYS_ASKED


def test_taken_at_once_in_the_planned_game_matches_the_log(
    planned_decisions: dict[PromptKind, list[Game]],
) -> None:
    """Replaying the planned game: every action the app would have taken at once is the one
    the plan took there, and the log marks exactly those."""
    plan = make_plan(PLAN_SEED)
    game = Game.new(plan.config)
    log = GameLog.from_position(game)
    taken = 0
    for action in plan.actions:
        only = GC.only_choice(game)
        if only is not None:
            assert only == action
            taken += 1
        game.apply(action)
    log.sync(game.history)
    assert taken > 0
    assert sum(1 for e in log.entries if e.automatic) <= taken


def test_a_commercial_harbor_offer_waits_behind_the_cover() -> None:
    # The offers name the resources Red holds: buttons only after Red's "Show my cards".
    game = make_game(
        hands={0: hand_of(brick=1, ore=2), 1: hand_of(cloth=1)},
        progress={0: (ProgressCard.COMMERCIAL_HARBOR,)},
    )
    game.apply(PlayProgress(0, ProgressCard.COMMERCIAL_HARBOR))
    assert game.prompt.kind is PromptKind.TURN  # the exchanges are part of the turn (§10)
    assert HARBOR_KEY in {b.key for b in action_bar(game)}
    control = GameController()
    control.follow(game)
    control.pick_bar(game, HARBOR_KEY)
    assert control.covered(game) and not control.picking(game)
    covered = prompt_view(game, revealed=False).details
    assert "brick" not in covered and "ore" not in covered
    control.reveal(game)
    assert not control.covered(game) and control.picker is None
    assert control.uncovered(game)  # "Cover my cards" is offered under the offers
    offers = [c.label for c in control.steps[-1].choices]
    assert offers == [
        "Offer 1 brick to Blue", "Offer 1 ore to Blue",
        "Offer 1 brick to White", "Offer 1 ore to White",
        "Offer 1 brick to Orange", "Offer 1 ore to Orange",
    ]  # fmt: skip
    assert GC.only_choice(game) is None


def test_the_harbor_button_does_not_tell_whether_a_resource_is_held() -> None:
    game = make_game(
        hands={0: hand_of(cloth=2), 1: hand_of(cloth=1)},
        progress={0: (ProgressCard.COMMERCIAL_HARBOR,)},
    )
    game.apply(PlayProgress(0, ProgressCard.COMMERCIAL_HARBOR))
    assert HARBOR_KEY in {b.key for b in action_bar(game)}
    control = GameController()
    control.follow(game)
    control.pick_bar(game, HARBOR_KEY)
    assert control.covered(game)
    control.reveal(game)
    assert control.steps[-1].choices == ()
