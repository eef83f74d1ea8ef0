"""The robber (§3.4, §8) and the pirate (§13.4): a 7's discards, moving either, stealing a card.

Until the first barbarian attack the robber stays in the desert (on a sea board the pirate on
its start too, R7) and a 7 only makes players over their limit discard (§8). After it, a 7 on a
sea board lets the roller move the robber or the pirate: one choice among the same legal
actions (``move_robber_or_pirate``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from companion_app.rules import operations as ops
from companion_app.rules import turnflow
from companion_app.rules.actions import Action, DiscardCard, MovePirate, MoveRobber, StealFrom
from companion_app.rules.cards import CARD_KINDS, Card
from companion_app.rules.config import MAX_PLAYERS
from companion_app.rules.declare import ActionRule, CardPick, Options, PickedHand, PromptRule
from companion_app.rules.events import Steal
from companion_app.rules.messages import N_, Msg, Nn_, msg
from companion_app.rules.pieces import NOBODY
from companion_app.rules.prompts import Prompt, PromptKind, Stage
from companion_app.rules.seamap import MAX_CELLS, MAX_HEXES
from companion_app.rules.state import ALL_CARDS, BOARD_MARKS, GameState
from companion_app.rules.topology import Topology
from companion_app.rules.words import Line, LineKind, Telling, cell_words, hex_words, steal_lines

_MAX_SEATS = MAX_PLAYERS
_CARDS = tuple(Card)
_DISCARD = [[DiscardCard(p, c) for c in _CARDS] for p in range(_MAX_SEATS)]
_ROBBER = [[MoveRobber(p, h) for h in range(MAX_HEXES)] for p in range(_MAX_SEATS)]
_STEAL = [[StealFrom(p, v) for v in range(_MAX_SEATS)] for p in range(_MAX_SEATS)]
_PIRATE = [[MovePirate(p, c) for c in range(MAX_CELLS)] for p in range(_MAX_SEATS)]


def start_seven(game: GameState) -> None:
    """On a 7: discards over the limit, in seat order from the roller (§3.4)."""
    game.last_production = ()
    for p in game.seat_order():
        count = game.card_count(p)
        if count > game.discard_limit(p):
            game.pending.append(Prompt(PromptKind.DISCARD, p, count // 2))
    game.stage = Stage.DISCARD
    turnflow.next_prompt(game)


def robbable(game: GameState, hex_: int) -> list[int]:
    """The other players, in seat order from the active one, with a building on ``hex_``
    and cards to lose (§8)."""
    corners = game.topology.hex_nodes[hex_]
    owner = game.node_owner
    return [
        q
        for q in game.seat_order()[1:]
        if game.card_count(q) and any(owner[node] == q for node in corners)
    ]


def cell_corners(topology: Topology, cell: int) -> tuple[int, ...]:
    """The intersections on a hex's or a frame cell's edges: where a knight stands next to the
    pirate there (§13.7 item 8; a frame cell has no corner of its own off the board)."""
    known = _CORNERS.get(id(topology))
    if known is None or known[0] is not topology:  # made once per topology (a turn asks it)
        edge_nodes = topology.edge_nodes
        corners = tuple(
            tuple(sorted({n for e in edges for n in edge_nodes[e]}))
            if c >= topology.hex_count
            else topology.hex_nodes[c]
            for c, edges in enumerate(topology.cell_edges)
        )
        known = _CORNERS[id(topology)] = (topology, corners)
    return known[1][cell]


_CORNERS: dict[int, tuple[Topology, tuple[tuple[int, ...], ...]]] = {}


def pirate_unlocked(game: GameState) -> bool:
    """The pirate sails on a sea board once the first attack happened (§13.4, R7)."""
    return game.robber_unlocked and game.pirate_cell != NOBODY


def ship_owners_at(game: GameState, cell: int) -> frozenset[int]:
    """The players with a ship on an edge of ``cell``: whom the pirate there may rob (§13.4)."""
    ship_owner = game.ship_owner
    return frozenset(ship_owner[e] for e in game.topology.cell_edges[cell]) - {NOBODY}


def pirate_victims(game: GameState, cell: int) -> list[int]:
    """The other players, in seat order from the active one, with a ship on an edge of
    ``cell`` and cards to lose (§13.4 item 3): coastal buildings are not robbed."""
    owners = ship_owners_at(game, cell)
    return [q for q in game.seat_order()[1:] if q in owners and game.card_count(q)]


def pirate_targets(game: GameState) -> list[int]:
    """Every other sea hex or frame cell (§13.4, R5, R9)."""
    topology = game.topology
    known = _SEA_CELLS.get(id(topology))
    if known is None or known[0] is not topology:  # made once per topology (every 7 asks it)
        known = _SEA_CELLS[id(topology)] = (topology, topology.sea_cells)
    pirate = game.pirate_cell
    return [c for c in known[1] if c != pirate]


_SEA_CELLS: dict[int, tuple[Topology, tuple[int, ...]]] = {}


def steal_random(game: GameState, victim: int, thief: int) -> Card:
    """One random resource/commodity card (seeded): progress cards are never stolen (§8)."""
    hand = game.hands[victim]
    pick = game.rng.below(sum(hand))
    for c in range(CARD_KINDS):
        if pick < hand[c]:
            hand[c] -= 1
            game.hands[thief][c] += 1
            card = Card(c)
            game.events.append(Steal(thief, victim, card))
            return card
        pick -= hand[c]
    raise AssertionError("unreachable: pick is below the hand's size")  # pragma: no cover


def check_discard(game: GameState, a: DiscardCard) -> Msg | None:
    if game.hands[a.player][a.card] == 0:
        return msg("you hold no {card} to discard", card=a.card.words)
    return None


def check_move_robber(game: GameState, a: MoveRobber) -> Msg | None:
    last = game.topology.hex_count - 1
    if not 0 <= a.hex <= last:
        return msg("hex {hex} does not exist (hexes are 0-{last})", hex=a.hex, last=last)
    if a.hex == game.robber_hex:
        return msg("the robber must move to another hex")
    if game.topology.hex_island[a.hex] is None:
        return msg("the robber stays on land; the sea has the pirate (§13.4)")
    if a.hex not in ops.robber_targets(game):
        return msg("a knight chases the robber to a hex with a number token (§6)")
    return None


def check_move_pirate(game: GameState, a: MovePirate) -> Msg | None:
    topology = game.topology
    last = topology.cell_count - 1
    if not 0 <= a.cell <= last:
        return msg("cell {cell} does not exist (cells are 0-{last})", cell=a.cell, last=last)
    if a.cell == game.pirate_cell:
        return msg("the pirate must move to another sea hex or frame cell (§13.4)")
    if a.cell < topology.hex_count and topology.hex_island[a.cell] is not None:
        return msg("the pirate sails the sea: hex {hex} is land (§13.4)", hex=a.cell)
    return None


def check_steal(game: GameState, a: StealFrom) -> Msg | None:
    if a.victim not in game.victims:
        if game.pirate_cell != NOBODY:
            return msg(
                "player {victim} has no building next to the robber, no ship next to the pirate,"
                " or no cards",
                victim=a.victim,
            )
        return msg(
            "player {victim} has no building next to the robber or no cards", victim=a.victim
        )
    return None


def do_discard(game: GameState, a: DiscardCard) -> None:
    game.hands[a.player][a.card] -= 1
    game.bank[a.card] += 1
    turnflow.pending_step_done(game)


def do_move_robber(game: GameState, a: MoveRobber) -> None:
    game.robber_hex = a.hex
    game.victims = tuple(robbable(game, a.hex))
    game.robber_by_knight = False
    if game.victims:
        game.prompt = Prompt(PromptKind.CHOOSE_VICTIM, game.active)
    else:
        turnflow.next_prompt(game)


def do_move_pirate(game: GameState, a: MovePirate) -> None:
    game.pirate_cell = a.cell
    game.board_mark = next(BOARD_MARKS)
    game.victims = tuple(pirate_victims(game, a.cell))
    game.robber_by_knight = False
    if game.victims:
        game.prompt = Prompt(PromptKind.CHOOSE_VICTIM, game.active)
    else:
        turnflow.next_prompt(game)


def do_steal(game: GameState, a: StealFrom) -> None:
    steal_random(game, a.victim, a.player)
    game.victims = ()
    turnflow.next_prompt(game)


def discard_options(game: GameState, p: int) -> list[Action]:
    hand = game.hands[p]
    return [_DISCARD[p][c] for c in ALL_CARDS if hand[c]]


def robber_options(game: GameState, p: int) -> list[Action]:
    """After a 7 every other land hex: those moves made once per board, seat and robber hex
    (a sea board's many hexes made them anew at every 7); a knight's chase lists its own."""
    if game.robber_by_knight:
        return [_ROBBER[p][h] for h in ops.robber_targets(game)]
    return _moves_once(_ROBBER_MOVES, game, p, game.robber_hex, ops.robber_targets, _ROBBER)[:]


def pirate_options(game: GameState, p: int) -> list[Action]:
    return _pirate_moves(game, p)[:]


def robber_or_pirate_options(game: GameState, p: int) -> list[Action]:
    """A 7 on a sea board: every robber move, then every pirate move (§13.4 item 3)."""
    return robber_options(game, p) + _pirate_moves(game, p)


def _pirate_moves(game: GameState, p: int) -> list[Action]:
    """The pirate moves of ``p`` from where it is (:func:`pirate_targets`), made once per
    board, seat and cell (every 7 after the first attack asks them); never changed."""
    return _moves_once(_PIRATE_MOVES, game, p, game.pirate_cell, pirate_targets, _PIRATE)


KeptMoves = dict[tuple[int, int, int], tuple[Topology, list[Action]]]
"""Moves by board, seat and where the piece stands, with the board they were made on (an id
alone may name a board made anew at the same address)."""


def _moves_once(
    kept: KeptMoves,
    game: GameState,
    p: int,
    at: int,
    targets: Callable[[GameState], Iterable[int]],
    actions: Sequence[Sequence[Action]],
) -> list[Action]:
    """``p``'s moves of a piece standing at ``at`` to each of ``targets``, made once per board
    (``kept``, emptied when full); never changed by a caller."""
    topology = game.topology
    key = id(topology), p, at
    known = kept.get(key)
    if known is None or known[0] is not topology:
        if len(kept) >= _MOVES_KEPT:
            kept.clear()
        known = kept[key] = (topology, [actions[p][t] for t in targets(game)])
    return known[1]


_PIRATE_MOVES: KeptMoves = {}
_MOVES_KEPT = 1024
_ROBBER_MOVES: KeptMoves = {}


def victim_options(game: GameState, p: int) -> list[Action]:
    return [_STEAL[p][v] for v in game.victims]


def discard_told(t: Telling, a: DiscardCard) -> list[Line]:
    """Discards go face up to the bank: public."""
    return [
        Line(
            LineKind.DISCARD,
            msg("{player} discarded {card}", player=t.who(a.player), card=a.card.counted(1)),
        )
    ]


def move_robber_told(t: Telling, a: MoveRobber) -> list[Line]:
    text = msg(
        "{player} moves the robber to {hex}", player=t.who(a.player), hex=hex_words(t.game, a.hex)
    )
    return [Line(LineKind.ROBBER, text)]


def move_pirate_told(t: Telling, a: MovePirate) -> list[Line]:
    text = msg(
        "{player} moves the pirate to {place}",
        player=t.who(a.player),
        place=cell_words(t.game, a.cell),
    )
    return [Line(LineKind.ROBBER, text)]


RULES = (
    ActionRule(
        DiscardCard,
        check_discard,
        do_discard,
        (PromptKind.DISCARD,),
        msg("discard a card"),
        button=lambda g, a, names: msg("Discard {card}", card=a.card.counted(1)),
        told=discard_told,
    ),
    ActionRule(
        MoveRobber,
        check_move_robber,
        do_move_robber,
        (PromptKind.MOVE_ROBBER, PromptKind.MOVE_ROBBER_OR_PIRATE),
        msg("move the robber"),
        button=lambda g, a, names: msg("Move the robber at hex {hex}", hex=a.hex),
        told=move_robber_told,
    ),
    ActionRule(
        MovePirate,
        check_move_pirate,
        do_move_pirate,
        (PromptKind.MOVE_PIRATE, PromptKind.MOVE_ROBBER_OR_PIRATE),
        msg("move the pirate"),
        button=lambda g, a, names: msg("Move the pirate to cell {cell}", cell=a.cell),
        told=move_pirate_told,
        sea=True,
    ),
    ActionRule(
        StealFrom,
        check_steal,
        do_steal,
        (PromptKind.CHOOSE_VICTIM,),
        msg("steal a card"),
        button=lambda g, a, names: msg("Steal from {victim}", victim=names[a.victim]),
        told=lambda t, a: steal_lines(t),
    ),
)
OPTIONS: dict[PromptKind, Options] = {
    PromptKind.DISCARD: discard_options,
    PromptKind.MOVE_ROBBER: robber_options,
    PromptKind.CHOOSE_VICTIM: victim_options,
    PromptKind.MOVE_PIRATE: pirate_options,
    PromptKind.MOVE_ROBBER_OR_PIRATE: robber_or_pirate_options,
}
PROMPTS = (
    PromptRule(
        PromptKind.DISCARD,  # a 7, or a Saboteur
        Nn_("discard {count} card", "discard {count} cards"),
        private=True,
        phone=True,
        picker=CardPick(
            PickedHand.OWN,
            Nn_("{player}: discard {count} card", "{player}: discard {count} cards"),
            N_("Discard {cards}"),
            suggested=True,
        ),
        shown=N_("Your cards: {cards}"),
        phone_details=Nn_("You hold {count} card.", "You hold {count} cards."),
    ),
    PromptRule(PromptKind.MOVE_ROBBER, N_("move the robber")),
    PromptRule(PromptKind.CHOOSE_VICTIM, N_("choose whom to steal from")),
    PromptRule(PromptKind.MOVE_ROBBER_OR_PIRATE, N_("move the robber or the pirate"), sea=True),
    PromptRule(PromptKind.MOVE_PIRATE, N_("move the pirate"), sea=True),
)
