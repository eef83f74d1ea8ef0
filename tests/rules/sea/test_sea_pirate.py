"""Worked examples: the pirate (§13.4) on a 7 and chased by a knight (§13.7 item 8).

Rules reference §13.4 (the pirate), §13.7 item 8 (the chase), §13.9 (the Alchemist), rulings
R5 (any sea hex or frame cell), R7 (not before the first attack), R8 (a knight moves only the
piece it is next to), R9 (a chased pirate robs as on a 7), R16 (the Bishop moves the robber only),
R26 (the pirate does not block knights). Map ids: ``sea_builders.NS4``.
"""

from __future__ import annotations

from companion_app.rules.actions import (
    ActivateKnight,
    ChasePirate,
    ChaseRobber,
    EventDie,
    MoveKnight,
    MovePirate,
    MoveRobber,
    PlayAlchemist,
    Roll,
    StealFrom,
)
from companion_app.rules.cards import Card, ProgressCard, hand_of
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.invariants import violations
from companion_app.rules.prompts import PromptKind
from companion_app.rules.robber import cell_corners
from companion_app.rules.whynot import why_not, why_not_now
from tests.rules.builders import make_game
from tests.rules.sea.ck_builders import NS4, ck_sea_game
from tests.said import said

PIRATE_START = 55  # frame cell east of gold 10 (hex 23): edges 70, 77, 91
SEA_CELLS = NS4.board.topology.sea_cells  # 14 sea hexes + 26 frame cells
LAND = NS4.board.topology.land_hexes  # 28


def roll_seven(game: Game, player: int = 0) -> None:
    game.apply(Roll(player, 3, 4, EventDie.POLITICS))


def test_the_start_cell_is_a_frame_cell_whose_corners_are_where_knights_chase_it() -> None:
    topology = NS4.board.topology
    assert topology.hex_count <= PIRATE_START and len(SEA_CELLS) == 40
    assert cell_corners(topology, PIRATE_START) == (46, 53, 60, 68)
    assert cell_corners(topology, 22) == topology.hex_nodes[22]  # a sea hex: its six corners


def test_before_the_first_attack_a_seven_moves_neither_robber_nor_pirate() -> None:
    """§13.4 item 2, R7: a 7 only forces discards; the pirate stays on its start."""
    game = ck_sea_game(prompt="roll", hands={1: hand_of(ore=9)})
    roll_seven(game)
    assert game.prompt.kind is PromptKind.DISCARD and game.prompt.count == 4
    for _ in range(4):
        game.apply(next(a for a in game.legal_actions() if a.player == 1))
    assert game.prompt.kind is PromptKind.TURN
    assert game.pirate_cell == PIRATE_START and game.robber_hex == 26
    assert not any(isinstance(a, MovePirate | ChasePirate) for a in game.legal_actions())
    assert violations(game) == []


def test_after_the_first_attack_a_seven_moves_the_robber_or_the_pirate() -> None:
    """§13.4 item 3: one choice among the legal actions: 27 robber moves (every other land hex)
    and 39 pirate moves (every other sea hex or frame cell, R5)."""
    game = ck_sea_game(prompt="roll", robber_unlocked=True)
    roll_seven(game)
    assert game.prompt.kind is PromptKind.MOVE_ROBBER_OR_PIRATE and game.prompt.player == 0
    legal = game.legal_actions()
    robber = [a.hex for a in legal if isinstance(a, MoveRobber)]
    pirate = [a.cell for a in legal if isinstance(a, MovePirate)]
    assert sorted(robber) == sorted(h for h in LAND if h != 26) and len(robber) == 27
    assert sorted(pirate) == [c for c in SEA_CELLS if c != PIRATE_START] and len(pirate) == 39
    assert said(game.describe_prompt()) == "Red: move the robber or the pirate"


def test_moving_the_pirate_leaves_the_robber_and_robs_no_coastal_building() -> None:
    """§13.4 item 3: the pirate robs only ship owners; Blue's coastal settlement on 44, a corner
    of sea hex 22, is not robbed; with nobody to rob, nothing is stolen."""
    game = ck_sea_game(
        prompt="move_robber_or_pirate",
        robber_unlocked=True,
        buildings={44: (1, "settlement")},
        hands={1: hand_of(ore=2)},
    )
    game.apply(MovePirate(0, 22))
    assert game.pirate_cell == 22 and game.robber_hex == 26
    assert game.prompt.kind is PromptKind.TURN
    assert game.hands[1][Card.ORE] == 2 and game.hands[0][Card.ORE] == 0
    assert violations(game) == []


def test_the_robber_moved_instead_robs_as_ever_and_the_pirate_stays() -> None:
    """§13.4 item 3, "not both": moving the robber ends the choice."""
    game = ck_sea_game(
        prompt="move_robber_or_pirate",
        robber_unlocked=True,
        buildings={44: (1, "settlement")},  # a corner of hex 16 (forest 9) too
        hands={1: hand_of(ore=1)},
    )
    game.apply(MoveRobber(0, 16))
    assert game.prompt.kind is PromptKind.CHOOSE_VICTIM
    game.apply(next(iter(game.legal_actions())))
    assert game.hands[0][Card.ORE] == 1 and game.pirate_cell == PIRATE_START
    assert game.prompt.kind is PromptKind.TURN


def test_the_pirate_moves_only_to_another_sea_hex_or_frame_cell() -> None:
    game = ck_sea_game(prompt="move_robber_or_pirate", robber_unlocked=True)
    reasons = {
        cell: said(game.illegal_reason(MovePirate(0, cell))) for cell in (PIRATE_START, 23, 68, -1)
    }
    assert reasons[PIRATE_START] == "the pirate must move to another sea hex or frame cell (§13.4)"
    assert reasons[23] == "the pirate sails the sea: hex 23 is land (§13.4)"
    assert reasons[68] == "cell 68 does not exist (cells are 0-67)"
    assert reasons[-1] == "cell -1 does not exist (cells are 0-67)"
    assert game.is_legal(MovePirate(0, 67)) and game.is_legal(MovePirate(0, 2))


def test_the_alchemists_seven_lets_the_roller_move_the_pirate() -> None:
    """§13.9: the Alchemist's chosen 7 is a 7 as §13.4 item 3 says."""
    game = ck_sea_game(prompt="roll", robber_unlocked=True, progress={0: (ProgressCard.ALCHEMIST,)})
    game.apply(PlayAlchemist(0, 3, 4))
    game.apply(Roll(0, 3, 4, EventDie.TRADE))
    assert game.prompt.kind is PromptKind.MOVE_ROBBER_OR_PIRATE
    game.apply(MovePirate(0, 42))  # the frame's north-west corner cell
    assert game.pirate_cell == 42 and game.prompt.kind is PromptKind.TURN


def test_an_island_game_still_moves_only_the_robber_on_a_seven() -> None:
    game = make_game(prompt="roll", robber_unlocked=True)
    roll_seven(game)
    assert game.prompt.kind is PromptKind.MOVE_ROBBER
    assert not any(isinstance(a, MovePirate) for a in game.legal_actions())
    assert "pirate" not in game.to_json()


# ---- the knight's chase (§13.7 item 8) -----------------------------------------------------------

# Red's knight on 53: a corner of gold hex 23 and of the pirate's frame cell 55. Red's settlement
# on 45 and road 45-53 link it (§13.7 item 6).
RED = {45: (0, "settlement")}


def knight_by_the_pirate(**kw: object) -> Game:
    topology = NS4.board.topology
    roads = {topology.edge_between[(45, 53)]: 0}
    return ck_sea_game(buildings=RED, roads=roads, knights={53: (0, 1, True)}, **kw)  # type: ignore[arg-type]


def test_a_knight_next_to_the_pirate_chases_it_and_its_owner_moves_it_anywhere_at_sea() -> None:
    """§13.7 item 8, R9: the knight turns inactive; the pirate goes to any other sea hex or frame
    cell (no number token needed, unlike the robber's chase)."""
    game = knight_by_the_pirate(robber_unlocked=True)
    legal = game.legal_actions()
    assert ChasePirate(0, 53) in legal and ChaseRobber(0, 53) not in legal  # R8
    game.apply(ChasePirate(0, 53))
    assert game.prompt.kind is PromptKind.MOVE_PIRATE and not game.knight_active[53]
    moves = game.legal_actions()
    assert all(isinstance(a, MovePirate) for a in moves) and len(moves) == 39
    game.apply(MovePirate(0, 2))  # a sea hex by the north-west islet
    assert game.pirate_cell == 2 and game.prompt.kind is PromptKind.TURN
    assert ChasePirate(0, 53) not in game.legal_actions()
    assert violations(game) == []


def test_a_knight_next_to_both_chases_the_one_its_owner_picks() -> None:
    """R8: the robber on gold 23 and the pirate on cell 55 both touch intersection 53; chasing
    the robber moves only the robber."""
    game = knight_by_the_pirate(robber_unlocked=True, robber_hex=23)
    legal = game.legal_actions()
    assert ChasePirate(0, 53) in legal and ChaseRobber(0, 53) in legal
    game.apply(ChaseRobber(0, 53))
    assert game.prompt.kind is PromptKind.MOVE_ROBBER
    assert not any(isinstance(a, MovePirate) for a in game.legal_actions())


def test_no_chase_before_the_first_attack_or_by_a_knight_activated_this_turn() -> None:
    """§13.7 item 8: both chases need the first attack; a knight activated this turn cannot."""
    early = knight_by_the_pirate()
    assert ChasePirate(0, 53) not in early.legal_actions()
    assert said(early.illegal_reason(ChasePirate(0, 53))) == (
        "the pirate stays on its start until the first barbarian attack (§13.4)"
    )
    reason = why_not(early, ChasePirate, 0, early.legal_actions())
    assert reason is not None
    assert said(reason.text) == "The pirate stays on its start until the first attack (§13.4)."
    topology = NS4.board.topology
    fresh = ck_sea_game(
        buildings=RED,
        roads={topology.edge_between[(45, 53)]: 0},
        knights={53: (0, 1, False)},
        robber_unlocked=True,
        hands={0: hand_of(grain=1)},
    )
    fresh.apply(ActivateKnight(0, 53))
    assert said(fresh.illegal_reason(ChasePirate(0, 53))) == (
        "a knight activated this turn cannot act this turn (§6)"
    )


def test_a_knight_elsewhere_is_told_it_stands_away_from_the_pirate() -> None:
    game = knight_by_the_pirate(robber_unlocked=True, pirate=2)
    assert said(game.illegal_reason(ChasePirate(0, 53))) == (
        "the knight must stand next to the pirate's hex or frame cell (§13.7)"
    )
    reason = why_not(game, ChasePirate, 0, game.legal_actions())
    assert reason is not None
    assert said(reason.text) == "None of your knights that can act stands next to the pirate."
    assert "Chase pirate" in [
        said(title) for title, _ in why_not_now(game, 0, game.legal_actions())
    ]


def test_the_island_games_why_not_lists_no_pirate() -> None:
    game = make_game(prompt="turn")
    titles = [said(title) for title, _ in why_not_now(game, 0, game.legal_actions())]
    assert "Chase pirate" not in titles and "Chase robber" in titles
    assert "Ship" not in titles and "Move ship" not in titles


def test_a_sea_boards_why_not_asks_about_ships_too() -> None:
    """§13.3: the ship and its move are kinds of the turn on a sea board, asked like the rest."""
    game = knight_by_the_pirate(robber_unlocked=True, pirate=2)
    titles = [said(title) for title, _ in why_not_now(game, 0, game.legal_actions())]
    legal = {type(a).__name__ for a in game.legal_actions()}
    for kind, title in (("BuildShip", "Ship"), ("MoveShip", "Move ship")):
        assert (title in titles) == (kind not in legal), (kind, titles)


def test_with_quick_knights_the_pirate_is_chased_before_the_roll() -> None:
    """§13.7 item 8: "with the quick knights variant the pirate may be chased before the roll"."""
    quick = GameConfig.for_players(4, scenario="new_shores", seed=1, quick_knights=True)
    topology = quick.board.topology
    game = ck_sea_game(
        config=quick,
        prompt="roll",
        buildings=RED,
        roads={topology.edge_between[(45, 53)]: 0},
        knights={53: (0, 1, True)},
        robber_unlocked=True,
    )
    game.apply(ChasePirate(0, 53))
    game.apply(MovePirate(0, 30))
    assert game.prompt.kind is PromptKind.ROLL and game.pirate_cell == 30


def test_the_pirate_does_not_block_knights() -> None:
    """R26: a knight moves along its roads past the pirate's cell; the pirate on 55 touches 53."""
    topology = NS4.board.topology
    game = ck_sea_game(
        buildings=RED,
        roads={topology.edge_between[(45, 53)]: 0, topology.edge_between[(53, 60)]: 0},
        knights={53: (0, 1, True)},
        robber_unlocked=True,
    )
    assert MoveKnight(0, 53, 60) in game.legal_actions()
    game.apply(MoveKnight(0, 53, 60))  # 60 is a corner of cell 55 too
    assert game.knight_owner[60] == 0 and violations(game) == []


# ---- the steal from ship owners (§13.4 item 3) -------------------------------------------------

# Round sea hex 22: Blue's settlement on 44 and ship on edge 66 (44-51), Orange's settlement on 59
# and ship on edge 88 (59-66), White's coastal settlement on 58 with no ship.
ROUND_22 = {44: (1, "settlement"), 59: (3, "settlement"), 58: (2, "settlement")}
SHIPS_22 = {66: 1, 88: 3}


def test_the_pirate_robs_a_ship_owner_on_its_new_hex_not_a_coastal_building() -> None:
    """§13.4 item 3: moved to hex 22, the pirate robs Blue (a ship there, cards); Orange has a
    ship but no card, White cards but no ship: neither may be chosen."""
    game = ck_sea_game(
        prompt="move_robber_or_pirate",
        robber_unlocked=True,
        buildings=ROUND_22,
        ships=SHIPS_22,
        hands={1: hand_of(wool=1), 2: hand_of(ore=3)},
    )
    assert violations(game) == []
    game.apply(MovePirate(0, 22))
    assert game.prompt.kind is PromptKind.CHOOSE_VICTIM and game.victims == (1,)
    assert game.legal_actions() == [StealFrom(0, 1)]
    assert said(game.illegal_reason(StealFrom(0, 2))) == (
        "player 2 has no building next to the robber, no ship next to the pirate, or no cards"
    )
    game.apply(StealFrom(0, 1))
    assert game.hands[0][Card.WOOL] == 1 and game.hands[1][Card.WOOL] == 0
    assert game.hands[2][Card.ORE] == 3 and game.prompt.kind is PromptKind.TURN
    assert violations(game) == []


def test_the_roller_chooses_among_the_ship_owners() -> None:
    """§13.4 item 3: "from one other player of the roller's choice": Blue and Orange both hold
    cards and ships round hex 22; Red robs Orange."""
    game = ck_sea_game(
        prompt="move_robber_or_pirate",
        robber_unlocked=True,
        buildings=ROUND_22,
        ships=SHIPS_22,
        hands={1: hand_of(wool=1), 3: hand_of(cloth=1)},
    )
    game.apply(MovePirate(0, 22))
    assert game.legal_actions() == [StealFrom(0, 1), StealFrom(0, 3)]
    game.apply(StealFrom(0, 3))
    assert game.hands[0][Card.CLOTH] == 1  # a commodity may be stolen too


def test_a_chased_pirate_robs_as_on_a_seven() -> None:
    """R9: Red's knight on 53 chases the pirate to hex 22 and Red robs Blue's ship there."""
    topology = NS4.board.topology
    game = ck_sea_game(
        buildings=RED | ROUND_22,
        roads={topology.edge_between[(45, 53)]: 0},
        ships=SHIPS_22,
        knights={53: (0, 1, True)},
        robber_unlocked=True,
        hands={1: hand_of(grain=2)},
    )
    game.apply(ChasePirate(0, 53))
    game.apply(MovePirate(0, 22))
    assert game.prompt.kind is PromptKind.CHOOSE_VICTIM
    game.apply(StealFrom(0, 1))
    assert game.hands[0][Card.GRAIN] == 1 and game.prompt.kind is PromptKind.TURN
