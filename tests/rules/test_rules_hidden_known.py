"""What a seat learnt and no longer sees, kept by the redraw (rules/known.py, rules/hidden.py):
a card taken from it (§8), a trade (§3.5), a bank trade, a Spy's and a Master Merchant's look
(§10), lowered by every card the holder may have spent since."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion_app.rules.actions import (
    AcceptTrade,
    BankTrade,
    EndTurn,
    EventDie,
    GiveCard,
    HarborExchange,
    MoveRobber,
    OfferTrade,
    PlayMasterMerchant,
    PlayProgress,
    PlayResourceMonopoly,
    PlaySpy,
    PromoteKnight,
    Roll,
    StealFrom,
    TakeCard,
    TakeProgressCard,
)
from companion_app.rules.cards import EMPTY_HAND, Card, Hand, ProgressCard, Track, hand_of
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.hidden import hidden_seats, redraw_hidden
from companion_app.rules.invariants import violations
from companion_app.rules.known import Bottom, known_for
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64
from tests.rules.builders import corner, make_game
from tests.rules.test_rules_hidden import CHI2_LIMIT_DF5

SETTLED = {
    corner(4, 0): (0, "settlement"),
    corner(10, 0): (1, "settlement"),
    corner(14, 0): (2, "settlement"),
    corner(16, 2): (3, "settlement"),
}


BRICK = hand_of(brick=1)


def blue_steals_reds_ore(blue: Hand = BRICK) -> Game:
    """Blue moves the robber next to Red, who holds one ore, and steals it (§8)."""
    game = make_game(
        buildings=SETTLED,
        hands={0: hand_of(ore=1), 1: blue, 2: hand_of(wool=1), 3: hand_of(lumber=1)},
        prompt="move_robber",
        active=1,
        robber_unlocked=True,
    )
    game.apply(MoveRobber(1, 4))
    game.apply(StealFrom(1, 0))
    assert game.hands[1] == [a + (c == Card.ORE) for c, a in enumerate(blue)]
    return game


def test_s8_the_card_taken_from_the_seat_stays_with_the_thief_in_every_redraw() -> None:
    game = blue_steals_reds_ore(hand_of(brick=1, grain=1))
    assert known_for(game, 0).hands[1] == hand_of(ore=1)
    assert known_for(game, 2).hands[1] == EMPTY_HAND  # White saw a card go, not which
    for seed in range(200):
        assert redraw_hidden(game, 0, seed).hands[1][Card.ORE] == 1
    # White cannot tell: Blue's 3 cards are any 3 of brick, grain, ore, lumber.
    white = Counter(redraw_hidden(game, 2, seed).hands[1][Card.ORE] for seed in range(200))
    assert set(white) == {0, 1}
    assert 25 <= white[0] <= 75  # one deal in 4 leaves the ore out


def test_s6_the_stolen_card_stays_known_until_the_thief_may_have_spent_it() -> None:
    """Blue promotes a knight with the stolen ore and its wool (§6: wool + ore): Red no longer
    knows of an ore in Blue's hand, and Blue's redraws may hold none."""
    game = make_game(
        buildings=SETTLED,
        hands={0: hand_of(ore=1), 1: hand_of(wool=1, grain=1), 2: hand_of(ore=1)},
        prompt="move_robber",
        active=1,
        robber_unlocked=True,
        knights={corner(10, 3): (1, 1, False)},
    )
    game.apply(MoveRobber(1, 4))
    game.apply(StealFrom(1, 0))
    assert known_for(game, 0).hands[1] == hand_of(ore=1)
    game.apply(PromoteKnight(1, corner(10, 3)))
    assert game.hands[1] == list(hand_of(grain=1))
    assert known_for(game, 0).hands[1] == EMPTY_HAND
    blue = Counter(redraw_hidden(game, 0, seed).hands[1][Card.ORE] for seed in range(100))
    assert set(blue) == {0, 1}  # Blue's one card is the grain or White's ore


def test_with_a_known_card_every_deal_consistent_with_it_is_drawn_as_often() -> None:
    """Blue holds the stolen ore and one unseen card; White and Orange one each: the unseen
    brick, wool and lumber are dealt in 6 ways, the ore always Blue's."""
    game = blue_steals_reds_ore()
    n = 600
    deals = Counter(
        tuple(tuple(redraw_hidden(game, 0, seed).hands[p]) for p in (1, 2, 3)) for seed in range(n)
    )
    assert len(deals) == 6
    assert all(blue[Card.ORE] == 1 for blue, _, _ in deals)
    chi2 = sum((count - n / 6) ** 2 / (n / 6) for count in deals.values())
    assert chi2 < CHI2_LIMIT_DF5


def test_s8_a_theft_the_seat_does_not_see_makes_every_known_card_uncertain_by_one() -> None:
    """White rolls a 7 and steals from Blue: whichever card it took, Red is no longer sure of
    the ore (Blue may have lost it); Blue knows which card White holds now."""
    game = blue_steals_reds_ore(hand_of(brick=1, grain=1))
    game.apply(EndTurn(1))
    game.apply(Roll(2, 3, 4, EventDie.SHIP))
    game.apply(MoveRobber(2, 10))
    game.apply(StealFrom(2, 1))
    assert known_for(game, 0).hands[1] == EMPTY_HAND
    assert known_for(game, 3).hands[1] == EMPTY_HAND
    stolen = [c for c in Card if game.hands[2][c] > (c == Card.WOOL)]
    assert len(stolen) == 1
    assert known_for(game, 1).hands[2] == tuple(int(c == stolen[0]) for c in Card)
    assert Counter(redraw_hidden(game, 0, seed).hands[1][Card.ORE] for seed in range(100))[0] > 0


def test_a_trade_and_a_bank_trade_are_known_to_everyone_until_spent() -> None:
    """Blue gives Red 1 brick for 2 wool (§3.5): everyone knows Blue holds 2 wool; Blue then
    trades 4 wool for 1 ore at the bank: the wool may be gone, the ore is certain."""
    game = make_game(
        buildings=SETTLED,
        hands={0: hand_of(wool=2), 1: hand_of(brick=1, wool=2, grain=1), 2: hand_of(ore=2)},
        active=1,
    )
    game.apply(OfferTrade(1, 0, hand_of(brick=1), hand_of(wool=2)))
    game.apply(AcceptTrade(0))
    for seat in (0, 2, 3):
        assert known_for(game, seat).hands[1] == hand_of(wool=2)
    assert known_for(game, 2).hands[0] == hand_of(brick=1)
    for seed in range(50):
        assert redraw_hidden(game, 2, seed).hands[1][Card.WOOL] >= 2
        assert redraw_hidden(game, 2, seed).hands[0][Card.BRICK] == 1
    game.apply(BankTrade(1, Card.WOOL, Card.ORE))
    assert game.hands[1] == list(hand_of(grain=1, ore=1))
    for seat in (0, 2, 3):
        assert known_for(game, seat).hands[1] == hand_of(ore=1)


def test_s10_the_master_merchant_shows_the_hand_and_what_is_left_stays_known() -> None:
    """Red looks at Orange's 2 ore and 1 coin and takes the coin and one ore: Orange's last
    ore is certain for Red, unknown to Blue."""
    game = make_game(
        buildings={**SETTLED, corner(16, 4): (3, "city")},
        hands={2: hand_of(ore=1), 3: hand_of(ore=2, coin=1)},
        progress={0: (ProgressCard.MASTER_MERCHANT,)},
    )
    game.apply(PlayMasterMerchant(0, 3))
    assert known_for(game, 0).hands[3] == hand_of(ore=2, coin=1)
    game.apply(TakeCard(0, Card.COIN))
    game.apply(TakeCard(0, Card.ORE))
    assert known_for(game, 0).hands[3] == hand_of(ore=1)
    assert known_for(game, 1).hands[3] == EMPTY_HAND
    for seed in range(50):
        assert redraw_hidden(game, 0, seed).hands[3] == [0, 0, 0, 0, 1, 0, 0, 0]


def test_s10_the_spy_shows_the_progress_cards_and_the_one_left_stays_known() -> None:
    """Red's Spy looks at Blue's Warlord and Merchant and takes the Merchant: the Warlord
    stays Blue's in every redraw of Red's; Blue knows Red holds the Merchant."""
    game = make_game(
        buildings={**SETTLED, corner(10, 2): (1, "city")},
        progress={0: (ProgressCard.SPY,), 1: (ProgressCard.WARLORD, ProgressCard.MERCHANT)},
    )
    game.apply(PlaySpy(0, 1))
    game.apply(TakeProgressCard(0, ProgressCard.MERCHANT))
    assert known_for(game, 0).progress[1] == (ProgressCard.WARLORD,)
    assert known_for(game, 1).progress[0] == (ProgressCard.MERCHANT,)
    assert known_for(game, 2).progress[1] == ()
    for seed in range(50):
        assert redraw_hidden(game, 0, seed).progress_hands[1] == [ProgressCard.WARLORD]
        assert redraw_hidden(game, 1, seed).progress_hands[0] == [ProgressCard.MERCHANT]


def test_s9_a_played_card_lies_under_its_deck_in_every_redraw_until_drawn() -> None:
    """The Spy played goes under the politics deck (§9), seen by all: every seat's redraw keeps
    it last while the other cards of the deck are shuffled."""
    game = make_game(
        buildings={**SETTLED, corner(10, 2): (1, "city")},
        progress={0: (ProgressCard.SPY,), 1: (ProgressCard.WARLORD, ProgressCard.MERCHANT)},
    )
    game.apply(PlaySpy(0, 1))
    game.apply(TakeProgressCard(0, ProgressCard.MERCHANT))
    politics = Track.POLITICS.index
    assert game.decks[politics][-1] is ProgressCard.SPY
    for seat in range(4):
        assert known_for(game, seat).bottoms[politics] == (ProgressCard.SPY,)
    tops = set()
    for seed in range(50):
        deck = redraw_hidden(game, 2, seed).decks[politics]
        assert deck[-1] is ProgressCard.SPY and len(deck) == len(game.decks[politics])
        tops.add(deck[0])
    assert len(tops) > 3


def holds(hand: list[int], known: Hand) -> bool:
    return all(k <= h for k, h in zip(known, hand, strict=True))


def holds_progress(cards: list[ProgressCard], known: tuple[ProgressCard, ...]) -> bool:
    return not Counter(known) - Counter(cards)


def lies_under(deck: list[ProgressCard], bottom: Bottom) -> bool:
    """The deck ends with the known bottom's cards where it knows them."""
    if len(bottom) > len(deck):
        return False
    return all(
        c is None or c == d for c, d in zip(bottom, deck[len(deck) - len(bottom) :], strict=True)
    )


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(min_value=1, max_value=10_000),
    players=st.integers(min_value=3, max_value=6),
    sea=st.booleans(),
)
def test_the_record_is_always_true_and_every_redraw_keeps_it_and_the_view(
    seed: int, players: int, sea: bool
) -> None:
    """On random games (trades, thefts, Spies, discards...), at every step each seat's record
    is held by the real hands; every 25th step, each seat's redraw deals it and the seat's
    view stays the same."""
    scenario = "new_shores" if sea and players <= 4 else None
    game = Game.new(GameConfig.for_players(players, seed=seed, scenario=scenario))
    rng = SplitMix64(seed)
    known_cards = 0
    for step in range(400):
        if game.is_over:
            break
        game.apply(choose_random_action(game, rng))
        for seat in range(players):
            known = known_for(game, seat)
            hands, progress = known.hands, known.progress
            for p in range(players):
                if p != seat:
                    assert holds(game.hands[p], hands[p]), (step, seat, p)
                    assert holds_progress(game.progress_hands[p], progress[p]), (step, seat, p)
                    known_cards += sum(hands[p]) + len(progress[p])
            for deck, bottom in zip(game.decks, known.bottoms, strict=True):
                assert lies_under(deck, bottom), (step, seat)
            if step % 25 == 0:
                view = game.view_for(seat)
                sample = redraw_hidden(game, seat, step)
                assert sample.view_for(seat) == view
                card_seats, progress_seats = hidden_seats(game, seat)
                for p in card_seats:
                    assert holds(sample.hands[p], hands[p])
                for p in progress_seats:
                    assert holds_progress(sample.progress_hands[p], progress[p])
                for deck, bottom in zip(sample.decks, known.bottoms, strict=True):
                    assert lies_under(deck, bottom)
    assert known_cards > 0


def test_s10_a_commercial_harbor_exchange_is_known_to_its_two_players_only() -> None:
    """Blue takes a cloth from Orange in a trade (everyone knows Blue holds one); then Red gives
    Blue a brick and Blue answers with a cloth: Red knows Blue holds the brick, Blue knows Red
    holds the cloth; Orange saw one card go each way, knows nothing of them, and the cloth it
    was sure of may be the one Blue gave."""
    game = make_game(
        buildings={12: (0, "city"), 16: (0, "settlement"), 30: (1, "city"), 40: (1, "settlement")},
        hands={0: hand_of(brick=2, lumber=1), 1: hand_of(cloth=1, coin=1), 3: hand_of(cloth=1)},
        progress={0: (ProgressCard.COMMERCIAL_HARBOR,)},
        active=1,
    )
    game.apply(OfferTrade(1, 3, hand_of(coin=1), hand_of(cloth=1)))
    game.apply(AcceptTrade(3))
    game.apply(EndTurn(1))
    game.apply(Roll(2, 1, 2, EventDie.SHIP))
    game.apply(EndTurn(2))
    game.apply(Roll(3, 1, 2, EventDie.SHIP))
    game.apply(EndTurn(3))
    game.apply(Roll(0, 1, 2, EventDie.SHIP))
    assert known_for(game, 3).hands[1] == hand_of(cloth=1)
    assert known_for(game, 0).hands[1] == hand_of(cloth=1)
    game.apply(PlayProgress(0, ProgressCard.COMMERCIAL_HARBOR))
    game.apply(HarborExchange(0, 1, Card.BRICK))
    game.apply(GiveCard(1, Card.CLOTH))
    assert known_for(game, 0).hands[1] == hand_of(brick=1)
    assert known_for(game, 1).hands[0] == hand_of(cloth=1)
    assert known_for(game, 3).hands[1] == EMPTY_HAND
    assert known_for(game, 3).hands[0] == EMPTY_HAND
    for seed in range(50):
        assert redraw_hidden(game, 0, seed).hands[1][Card.BRICK] >= 1
        assert redraw_hidden(game, 1, seed).hands[0][Card.CLOTH] == 1


@pytest.mark.parametrize(("seed", "players"), [(7, 4), (14, 5), (18, 5)])
def test_a_look_ahead_on_the_deciders_redraw_stays_a_valid_game(seed: int, players: int) -> None:
    """The decider's look-ahead plays on its redraw: every action the copy allows keeps the
    game whole (an open offer's or a Commercial Harbor's cards stay with their offerer). Its
    actions may be impossible with the real cards (a card the copy dealt): redrawn again, the
    record then knows nothing and the redraw still keeps each seat's view."""
    game = Game.new(GameConfig.for_players(players, seed=seed))
    rng = SplitMix64(seed)
    for step in range(500):
        if game.is_over:
            break
        game.apply(choose_random_action(game, rng))
        if step % 50 != 49:
            continue
        for k in range(3):
            ahead = redraw_hidden(game, game.prompt.player, k)
            for _ in range(12):
                if not ahead.is_over:
                    ahead.apply(choose_random_action(ahead, rng))
                    assert violations(ahead) == [], (step, ahead.history[-1])
            for seat in range(players):
                view = ahead.view_for(seat)
                assert redraw_hidden(ahead, seat, k).view_for(seat) == view
    # An earlier position of the same game reads its own step of the record.
    earlier = Game.replay(game.config, game.history[:150])
    for seat in range(players):
        hands = known_for(earlier, seat).hands
        assert all(holds(earlier.hands[p], hands[p]) for p in range(players) if p != seat)


def test_s10_a_monopoly_moves_cards_in_the_open() -> None:
    """Red's Resource Monopoly on wool takes 2 of Blue's 3 and White's 1: every seat knows Red
    holds 3 wool; Blue's last wool stays unknown (the view showed only what moved)."""
    game = make_game(
        buildings=SETTLED,
        hands={1: hand_of(wool=3), 2: hand_of(wool=1, ore=2), 3: hand_of(ore=5)},
        progress={0: (ProgressCard.RESOURCE_MONOPOLY,)},
    )
    game.apply(PlayResourceMonopoly(0, Card.WOOL))
    for seat in (1, 2, 3):
        assert known_for(game, seat).hands[0] == hand_of(wool=3)
        assert known_for(game, seat).hands[1] == EMPTY_HAND
    for seed in range(30):
        assert redraw_hidden(game, 3, seed).hands[0] == list(hand_of(wool=3))


def test_s3_an_open_offer_shows_the_offerer_holds_what_it_gives() -> None:
    """Blue offers Red 2 wool for 1 brick: an offer is legal only with those cards in hand, so
    every redraw of Red's (who answers) deals Blue the 2 wool and accepting stays possible."""
    game = make_game(
        buildings=SETTLED,
        hands={0: hand_of(brick=1), 1: hand_of(wool=2, ore=1), 2: hand_of(grain=3)},
        active=1,
    )
    game.apply(OfferTrade(1, 0, hand_of(wool=2), hand_of(brick=1)))
    assert known_for(game, 0).hands[1] == hand_of(wool=2)
    for seed in range(40):
        sample = redraw_hidden(game, 0, seed)
        assert sample.hands[1][Card.WOOL] == 2
        sample.apply(AcceptTrade(0))
        assert sample.hands[0] == list(hand_of(wool=2))


def test_s10_a_commercial_harbor_resource_stays_with_its_offerer_until_answered() -> None:
    """Red offers Blue a brick (the view shows it while Blue answers): every redraw of Blue's
    deals Red that brick, so Blue's answer gives and takes cards that are there."""
    game = make_game(
        buildings={12: (0, "city"), 16: (0, "settlement"), 30: (1, "city"), 40: (1, "settlement")},
        hands={0: hand_of(brick=1, lumber=1), 1: hand_of(cloth=1), 2: hand_of(wool=2)},
        progress={0: (ProgressCard.COMMERCIAL_HARBOR,)},
    )
    game.apply(PlayProgress(0, ProgressCard.COMMERCIAL_HARBOR))
    game.apply(HarborExchange(0, 1, Card.BRICK))
    assert known_for(game, 1).hands[0] == hand_of(brick=1)
    assert known_for(game, 2).hands[0] == hand_of(brick=1)
    for seed in range(40):
        sample = redraw_hidden(game, 1, seed)
        assert sample.hands[0][Card.BRICK] >= 1
        sample.apply(GiveCard(1, Card.CLOTH))
        assert sample.hands[1] == list(hand_of(brick=1))
