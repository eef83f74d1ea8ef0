"""Why not: every kind of action's reason, in the table's words, with worked examples from the
rules reference (§3 the turn, §4 a 7, §5 costs, §6 knights, §7 attacks, §8 the robber, §9
improvements and progress cards, §10 the cards); and the privacy of the reasons: a reason
called public reads the same whatever the hands hold."""

from __future__ import annotations

import random

from builders import e, make_game
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rules_properties import random_prefix

from companion_app.i18n import SOURCE, catalogue
from companion_app.rules import registry, whynot
from companion_app.rules.actions import (
    AcceptTrade,
    ActivateKnight,
    BankTrade,
    BuildCity,
    BuildCityWall,
    BuildKnight,
    BuildRoad,
    BuildSettlement,
    BuyImprovement,
    ChaseRobber,
    DiscardCard,
    DisplaceKnight,
    EndTurn,
    HarborExchange,
    MoveKnight,
    OfferTrade,
    PlayProgress,
    PromoteKnight,
    Roll,
)
from companion_app.rules.cards import CARD_KINDS, ProgressCard, hand_of
from companion_app.rules.game import Game
from companion_app.rules.whynot import WHY_NOT, Kind, Reason

ENGLISH = catalogue(SOURCE)
# Player 0 (Red): settlement on 8, roads 8-13-18-23; player 1: settlement on 30, roads 30-24-18.
P0_ROADS = {e(8, 13): 0, e(13, 18): 0, e(18, 23): 0}
P1_ROADS = {e(30, 24): 1, e(24, 18): 1}
BASE = {8: (0, "settlement"), 30: (1, "settlement")}


def board(**kw: object) -> Game:
    return make_game(buildings=BASE, roads=P0_ROADS | P1_ROADS, **kw)  # type: ignore[arg-type]


def said(reason: Reason | None) -> tuple[str, str, bool]:
    """The reason in English: its text, the rule under it, whether it is private."""
    assert reason is not None
    rule = ENGLISH.render(reason.rule) if reason.rule is not None else ""
    return ENGLISH.render(reason.text), rule, reason.private


# (kind, game, player) -> (text, rule, private): one or more worked examples per kind.
WORKED: list[tuple[Kind, Game, int, tuple[str, str, bool]]] = [
    # §5 costs: what the hand lacks is private; the board and the supply are public.
    (
        BuildCity,
        board(hands={0: hand_of(grain=1)}),
        0,
        ("A city needs 2 grain and 3 ore: you have 1 grain.", "", True),
    ),
    (
        BuildCity,
        make_game(buildings={8: (0, "city")}, hands={0: hand_of(grain=2, ore=3)}),
        0,
        ("A city is made of one of your settlements: you have none.", "", False),
    ),
    (
        BuildRoad,
        board(),
        0,
        ("A road needs 1 brick and 1 lumber: you have none.", "", True),
    ),
    (
        BuildSettlement,
        board(hands={0: hand_of(brick=1, lumber=1, ore=2)}),
        0,
        (
            "A settlement needs 1 brick, 1 lumber, 1 wool and 1 grain: "
            "you have 1 brick and 1 lumber.",
            "",
            True,
        ),
    ),
    (
        BuildSettlement,
        make_game(buildings=BASE, hands={0: hand_of(brick=1, lumber=1, wool=1, grain=1)}),
        0,
        (
            "No free intersection at the end of your roads is two edges from every building.",
            "",
            False,
        ),
    ),
    (
        BuildCityWall,
        board(hands={0: hand_of(brick=2)}),
        0,
        ("A city wall goes under one of your cities: you have none.", "", False),
    ),
    (
        BuildCityWall,
        make_game(buildings={8: (0, "city")}, hands={0: hand_of(brick=1)}),
        0,
        ("A city wall needs 2 brick: you have 1 brick.", "", True),
    ),
    # §6 knights: the board is public (a knight's side too); the price is the hand's.
    (
        BuildKnight,
        board(knights={13: (0, 1, False), 23: (0, 1, False)}, hands={0: hand_of(wool=1, ore=1)}),
        0,
        ("Both your basic knights are on the board.", "", False),
    ),
    (
        ActivateKnight,
        board(hands={0: hand_of(grain=1)}),
        0,
        ("You have no knight on the board.", "", False),
    ),
    (
        ActivateKnight,
        board(knights={13: (0, 1, False)}),
        0,
        ("Activating a knight needs 1 grain: you have none.", "", True),
    ),
    (
        PromoteKnight,
        board(knights={13: (0, 1, True)}, hands={0: hand_of(wool=1)}),
        0,
        ("Promoting a knight needs 1 wool and 1 ore: you have 1 wool.", "", True),
    ),
    (
        MoveKnight,
        board(knights={13: (0, 1, False)}),
        0,
        (
            "None of your knights can act now: a knight acts once a turn, when active, "
            "and not in the turn it was activated (§6).",
            "",
            False,
        ),
    ),
    (
        DisplaceKnight,
        board(knights={13: (0, 1, True)}),
        0,
        ("No weaker knight of an opponent stands along your roads (§6).", "", False),
    ),
    # §8: the robber stays on the desert until the first attack.
    (
        ChaseRobber,
        board(knights={23: (0, 1, True)}),
        0,
        ("The robber stays on the desert until the first attack (§8).", "", False),
    ),
    (
        ChaseRobber,
        board(knights={13: (0, 1, True)}, robber_unlocked=True),
        0,
        ("None of your knights that can act stands next to the robber.", "", False),
    ),
    # §9 improvements: level n costs n of the track's commodity.
    (
        BuyImprovement,
        make_game(
            buildings={8: (0, "city")}, improvements={0: (1, 0, 2)}, hands={0: hand_of(paper=2)}
        ),
        0,
        (
            "The next level of each track costs 2 cloth, 1 coin and 3 paper: you have 2 paper.",
            "",
            True,
        ),
    ),
    (
        BuyImprovement,
        board(hands={0: hand_of(cloth=3)}),
        0,
        ("City improvements need a city on the board (§9).", "", False),
    ),
    # §3 trade.
    (
        BankTrade,
        board(hands={0: hand_of(brick=3, ore=1)}),
        0,
        (
            "A bank trade gives 4 cards of one kind, or 3 or 2 at your harbours, for 1: "
            "you have 3 brick and 1 ore.",
            "",
            True,
        ),
    ),
    (BankTrade, board(), 0, ("You hold no cards to trade.", "", False)),
    (OfferTrade, board(), 0, ("You hold no cards to offer.", "", False)),
    (
        HarborExchange,
        board(hands={0: hand_of(ore=1)}),
        0,
        (
            "Commercial Harbor exchanges follow the card in its turn, one per opponent (§10).",
            "",
            False,
        ),
    ),
    # §3 the turn's order: whose turn, the roll first, one roll a turn.
    (
        BuildRoad,
        board(hands={1: hand_of(brick=1, lumber=1)}),
        1,
        ("It is Red's turn.", "Roads are built on your own turn, after the roll (§5).", False),
    ),
    (
        EndTurn,
        board(prompt="roll"),
        0,
        ("Roll the dice first.", "The player on turn ends the turn after the roll (§3).", False),
    ),
    (
        Roll,
        board(),
        0,
        (
            "The dice are already rolled this turn.",
            "The player on turn rolls once, at the start of the turn (§3).",
            False,
        ),
    ),
    # §4: a discard is asked by a 7, not taken.
    (
        DiscardCard,
        board(hands={0: hand_of(ore=9)}),
        0,
        (
            "After a 7, whoever holds more cards than their limit discards half of them (§4).",
            "",
            False,
        ),
    ),
    # §9, §10 progress cards: holding one is private; a VP card is never played.
    (
        ProgressCard.BISHOP,
        board(),
        0,
        ("The robber stays on the desert until the first attack (§8).", "", False),
    ),
    (
        ProgressCard.BISHOP,
        board(robber_unlocked=True, progress={0: (ProgressCard.SPY,)}),
        0,
        ("You hold no Bishop.", "", True),
    ),
    (ProgressCard.SPY, board(), 0, ("You hold no progress cards.", "", False)),
    (
        ProgressCard.DESERTER,
        board(progress={0: (ProgressCard.DESERTER,)}),
        0,
        ("The Deserter needs an opponent with a knight on the board.", "", True),
    ),
    (
        ProgressCard.DIPLOMAT,
        make_game(buildings=BASE, progress={0: (ProgressCard.DIPLOMAT,)}),
        0,
        ("The Diplomat needs an open road to remove.", "", True),
    ),
    (
        ProgressCard.MEDICINE,
        board(progress={0: (ProgressCard.MEDICINE,)}, hands={0: hand_of(ore=1, grain=1)}),
        0,
        (
            "Medicine makes a settlement a city for 2 ore and 1 grain: you have not that much.",
            "",
            True,
        ),
    ),
    (
        ProgressCard.PRINTER,
        board(),
        0,
        ("A victory point card is shown when drawn and never played (§9).", "", False),
    ),
    (
        ProgressCard.ALCHEMIST,
        board(progress={0: (ProgressCard.ALCHEMIST,)}),
        0,
        (
            "The dice are already rolled this turn.",
            "The Alchemist is played on your own turn, before the roll (§9).",
            False,
        ),
    ),
    (
        PlayProgress,
        board(progress={0: (ProgressCard.ALCHEMIST,)}),
        0,
        ("None of your progress cards can be played now.", "", True),
    ),
]


def test_every_action_type_and_every_progress_card_has_its_declaration() -> None:
    assert set(WHY_NOT) == set(registry.RULES) | set(ProgressCard)
    for declared in WHY_NOT.values():
        text = ENGLISH.render(declared.when)
        assert text.endswith(")."), text  # each rule names its section


def test_worked_examples_give_each_reason_in_the_tables_words() -> None:
    wrong = [
        (kind, reason, expected)
        for kind, game, player, expected in WORKED
        if (reason := game.why_not(kind, player)) is None or said(reason) != expected
    ]
    assert wrong == []


def test_an_offer_answered_without_the_cards_asked_for_says_so_privately() -> None:
    # §3: Red offers Blue 1 brick for 1 ore; Blue holds no ore.
    game = board(hands={0: hand_of(brick=1), 1: hand_of(wool=2)})
    game.apply(OfferTrade(0, 1, hand_of(brick=1), hand_of(ore=1)))
    assert said(game.why_not(AcceptTrade, 1)) == ("You do not hold the cards asked for.", "", True)
    assert game.why_not(AcceptTrade, 0) == Reason(
        whynot.msg("An offer is answered by the player it is made to (§3).")
    )


def test_every_kind_not_possible_has_a_reason_at_every_moment() -> None:
    """At the turn, before the roll, for the player on turn and another: a kind with no legal
    action has a reason (the rule's words at least); a legal one has none."""
    for game in (board(hands={0: hand_of(brick=1, lumber=1)}), board(prompt="roll")):
        legal = {type(a) for a in game.legal_actions()}
        for kind in WHY_NOT:
            for player in (0, 1):
                reason = game.why_not(kind, player)
                if isinstance(kind, type) and kind in legal and player == 0:
                    assert reason is None, kind
                elif isinstance(kind, type) and kind is not OfferTrade:
                    assert reason is not None and ENGLISH.render(reason.text), (kind, player)


def test_a_possible_kind_has_no_reason_and_every_legal_type_is_possible() -> None:
    game = board(hands={0: hand_of(brick=1, lumber=1)})
    assert game.why_not(BuildRoad, 0) is None
    assert {type(a) for a in game.legal_actions()} <= {
        k for k in WHY_NOT if game.why_not(k, 0) is None
    }


def test_the_game_over_answers_every_kind() -> None:
    game = board()
    game.prompt = type(game.prompt)(registry.PromptKind.GAME_OVER, 0)
    assert said(game.why_not(BuildRoad, 0)) == ("The game is over.", "", False)


# ---- privacy: a public reason does not depend on what the hands hold ----------------------------


def shuffled_hands(game: Game, rnd: random.Random) -> Game:
    """The same game with every hand dealt again: each player keeps their number of resource
    and commodity cards and of progress cards (what the table sees), not the cards."""
    other = Game.from_json(game.to_json())
    for p in range(other.player_count):
        count = other.card_count(p)
        hand = [0] * CARD_KINDS
        for _ in range(count):
            hand[rnd.randrange(CARD_KINDS)] += 1
        other.hands[p][:] = hand
        held = len(other.progress_hands[p])
        playable = [c for c in ProgressCard if not c.is_vp]
        other.progress_hands[p][:] = [rnd.choice(playable) for _ in range(held)]
    other.rebuild_indexes()
    return other


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    steps=st.integers(min_value=0, max_value=300),
    deal=st.integers(min_value=0, max_value=2**32),
)
def test_a_public_reason_reads_the_same_whatever_the_hands_hold(
    seed: int, steps: int, deal: int
) -> None:
    game = random_prefix(seed, steps)
    other = shuffled_hands(game, random.Random(deal))
    for kind in WHY_NOT:
        for p in range(game.player_count):
            reason = game.why_not(kind, p)
            if reason is not None and not reason.private:
                assert other.why_not(kind, p) == reason, (kind, p, said(reason))


def test_the_privacy_check_sees_a_reason_that_reads_a_hand() -> None:
    """The property above fails on a reason that names cards yet is called public."""
    game = board(hands={0: hand_of(grain=1)})
    reason = game.why_not(BuildCity, 0)
    assert reason is not None and reason.private
    rnd = random.Random(3)
    texts = {said(shuffled_hands(game, rnd).why_not(BuildCity, 0))[0] for _ in range(20)}
    assert len(texts) > 1  # the text reads the hand: public, it would tell the table
