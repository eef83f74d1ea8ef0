"""Knights (§6): building, activating, promoting, moving, displacing, chasing the robber (and on
a sea board the pirate, §13.7 item 8).

A knight stands on an intersection at the end of its owner's roads (on a sea board roads or
ships, at sea only on a ship, §13.7), blocks opponents' roads like a building, and acts once per
turn when active (and not activated this turn).
"""

from __future__ import annotations

from bisect import insort

from companion_app.rules import operations as ops
from companion_app.rules import robber, turnflow
from companion_app.rules.actions import (
    Action,
    ActivateKnight,
    BuildKnight,
    ChasePirate,
    ChaseRobber,
    DisplaceKnight,
    MoveKnight,
    PromoteKnight,
    RelocateKnight,
    reused,
)
from companion_app.rules.cards import ABILITY_LEVEL, COSTS, Build, Track
from companion_app.rules.declare import ActionRule, Options, PromptRule
from companion_app.rules.events import KnightDisplaced
from companion_app.rules.messages import N_, Msg, Value, msg
from companion_app.rules.pieces import (
    ACTED,
    ACTIVATED,
    KNIGHT_NAMES,
    KNIGHTS_PER_LEVEL,
    MAX_KNIGHT_LEVEL,
    NOBODY,
    PROMOTED,
)
from companion_app.rules.prompts import Prompt, PromptKind
from companion_app.rules.state import BOARD_MARKS, GameState, holds, needs_of
from companion_app.rules.topology import NodeKind
from companion_app.rules.words import Line, LineKind, Telling, place_words

POLITICS = Track.POLITICS.index


def along_roads(game: GameState, p: int, start: int) -> list[int]:
    """Intersections reachable from ``start`` along ``p``'s roads (on a sea board roads and
    ships, §13.7). Opponents' pieces end a path (they can be reached, not passed)."""
    edge_owner = game.edge_owner
    if game.topology.has_sea:
        if game.roads_of[p] and game.ships_of[p]:
            return _along_roads_and_ships(game, p, start)
        if not game.roads_of[p]:  # ships only (or nothing): the same walk along them
            edge_owner = game.ship_owner
    seen = {start}
    stack = [start]
    found: list[int] = []
    node_edges, edge_nodes = game.topology.node_edges, game.topology.edge_nodes
    node_owner, knight_owner = game.node_owner, game.knight_owner
    while stack:
        node = stack.pop()
        if node != start:  # ops.blocks: an opponent's building or knight ends the path
            owner = node_owner[node]
            if owner != NOBODY and owner != p:
                continue
            owner = knight_owner[node]
            if owner != NOBODY and owner != p:
                continue
        for e in node_edges[node]:
            if edge_owner[e] != p:
                continue
            a, b = edge_nodes[e]
            nxt = b if a == node else a
            if nxt not in seen:
                seen.add(nxt)
                found.append(nxt)
                stack.append(nxt)
    return found


_Kinds = tuple[tuple[list[int], int], ...]
"""The kinds of piece a knight's path goes on by from an intersection: each kind's owners by
edge, and 0 for roads, 1 for ships."""


def _along_roads_and_ships(game: GameState, p: int, start: int) -> list[int]:
    """A knight's paths on a sea board (§13.7 item 2, R10): along the player's roads and ships,
    from a road to a ship or back only at the player's settlement or city; the first piece any
    road or ship at ``start``. A sea intersection is reached only by a ship (item 3)."""
    links = game.topology.node_links
    node_owner, knight_owner = game.node_owner, game.knight_owner
    roads, ships = game.edge_owner, game.ship_owner
    # A step is an intersection and the kind of piece it was reached by: node * 2 + 1 by a
    # ship, node * 2 by a road. Walked depth first, roads before ships where both may go on.
    by_road: _Kinds = ((roads, 0),)
    by_ship: _Kinds = ((ships, 1),)
    both: _Kinds = (roads, 0), (ships, 1)
    seen = {start * 2, start * 2 + 1}
    stack = [start * 2 + 1]
    reached = {start}
    found: list[int] = []
    while stack:
        step = stack.pop()
        node = step >> 1
        if node == start:
            kinds = both
        else:  # ops.blocks: an opponent's building or knight ends the path
            here = node_owner[node]
            if here != NOBODY and here != p:
                continue
            owner = knight_owner[node]
            if owner != NOBODY and owner != p:
                continue
            kinds = both if here == p else by_ship if step & 1 else by_road
        for owners, kind in kinds:
            for e, other in links[node]:
                if owners[e] == p:
                    nxt = other * 2 + kind
                    if nxt not in seen:
                        seen.add(nxt)
                        stack.append(nxt)
                        if other not in reached:
                            reached.add(other)
                            found.append(other)
    return found


def is_linked(game: GameState, p: int, node: int) -> bool:
    """The knight of ``p`` on ``node`` is linked to a settlement or city of theirs through their
    roads and ships, changing between them only at their settlements and cities; other players'
    pieces are ignored (§13.7 item 6, R11)."""
    topology = game.topology
    node_edges, edge_nodes = topology.node_edges, topology.edge_nodes
    node_owner = game.node_owner
    pieces = (game.edge_owner, game.ship_owner)
    seen = {(node, 0), (node, 1)}
    stack = [(node, 0), (node, 1)]
    while stack:
        at, kind = stack.pop()
        if node_owner[at] == p:
            return True
        owners = pieces[kind]
        for e in node_edges[at]:
            if owners[e] == p:
                a, b = edge_nodes[e]
                nxt = (b if a == at else a, kind)
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    return False


def piece_ends(game: GameState, p: int) -> tuple[int, ...]:
    """Intersections at an end of one of the player's roads, on a sea board ships too (§13.7
    item 1, §13.9 Intrigue), in id order."""
    ends = game.road_ends(p)
    if not game.topology.has_sea or not game.ships_of[p]:
        return ends
    edge_nodes = game.topology.edge_nodes
    return tuple(sorted({*ends, *(n for e in game.ships_of[p] for n in edge_nodes[e])}))


def on_piece_end(game: GameState, p: int, node: int) -> bool:
    """One of the player's roads (or on a sea board ships) ends on ``node``."""
    return game.has_road_at(p, node) or (game.topology.has_sea and ops.has_ship_at(game, p, node))


def knight_spots(game: GameState, p: int) -> list[int]:
    """Free intersections at the end of one of the player's roads (no distance rule); on a sea
    board roads or ships, never a sea intersection (§13.7 item 1, R20)."""
    owner, knight = game.node_owner, game.knight_owner
    if not game.topology.has_sea:
        return [n for n in game.road_ends(p) if owner[n] == NOBODY and knight[n] == NOBODY]
    kinds, sea = game.topology.node_kinds, NodeKind.SEA  # one pass, no tuple between
    return [
        n
        for n in piece_ends(game, p)
        if kinds[n] is not sea and owner[n] == NOBODY and knight[n] == NOBODY
    ]


def may_act(game: GameState, node: int) -> bool:
    """Active, and neither activated nor acted this turn (§6)."""
    return game.knight_active[node] and not game.knight_flags[node] & (ACTIVATED | ACTED)


_PROMOTED_THIS_TURN = msg("a knight is promoted at most once per turn (§6)")
_MIGHTY = msg("a mighty knight cannot be promoted further")
_NEEDS_FORTRESS = msg("promoting to a mighty knight needs the Fortress (politics level 3, §6)")
_BOTH_ON_BOARD = {
    level: msg("both your {level} knights are on the board", level=name)
    for level, name in KNIGHT_NAMES.items()
}
"""Per knight level, why no knight can be promoted to it (made once: asked on every listing)."""


def promotion_reason(game: GameState, p: int, node: int) -> Msg | None:
    level = game.knight_level[node]
    if game.knight_flags[node] & PROMOTED:
        return _PROMOTED_THIS_TURN
    if level >= MAX_KNIGHT_LEVEL:
        return _MIGHTY
    if level == 2 and game.improvements[p][POLITICS] < ABILITY_LEVEL:
        return _NEEDS_FORTRESS
    if game.knights_at_level(p, level + 1) >= KNIGHTS_PER_LEVEL:
        return _BOTH_ON_BOARD[level + 1]
    return None


_BUILD = reused(BuildKnight)
_ACTIVATE = reused(ActivateKnight)
_PROMOTE = reused(PromoteKnight)
_MOVE = reused(MoveKnight)
_DISPLACE = reused(DisplaceKnight)
_CHASE = reused(ChaseRobber)
_CHASE_PIRATE = reused(ChasePirate)
_KNIGHT_NEEDS = needs_of(COSTS[Build.KNIGHT])
_ACTIVATE_NEEDS = needs_of(COSTS[Build.ACTIVATE_KNIGHT])
_PROMOTE_NEEDS = needs_of(COSTS[Build.PROMOTE_KNIGHT])


def knight_build_actions(game: GameState, p: int) -> list[Action]:
    """Building, activating and promoting knights: what the special build phase allows of
    them too (§12)."""
    actions: list[Action] = []
    hand = game.hands[p]
    if holds(hand, _KNIGHT_NEEDS) and game.knights_at_level(p, 1) < KNIGHTS_PER_LEVEL:
        key = game.board_mark, p, 0  # level 0: no knight's moves, the player's builds
        builds = _KNIGHT_MOVES.get(key)
        if builds is None:
            if len(_KNIGHT_MOVES) >= _KNIGHT_MOVES_KEPT:
                _KNIGHT_MOVES.clear()
            builds = _KNIGHT_MOVES[key] = [_BUILD(p, n) for n in knight_spots(game, p)]
        actions.extend(builds)
    knights = game.knights_of[p]  # kept in id order
    if not knights:
        return actions
    if holds(hand, _ACTIVATE_NEEDS):
        active = game.knight_active
        actions.extend(_ACTIVATE(p, n) for n in knights if not active[n])
    if holds(hand, _PROMOTE_NEEDS):
        flags, level = game.knight_flags, game.knight_level
        at_level = [0] * (MAX_KNIGHT_LEVEL + 1)
        for n in knights:
            at_level[level[n]] += 1
        fortress = game.improvements[p][POLITICS] >= ABILITY_LEVEL
        actions.extend(
            _PROMOTE(p, n)
            for n in knights
            if not flags[n] & PROMOTED  # promotion_reason's conditions, the counts made once
            and level[n] < MAX_KNIGHT_LEVEL
            and (level[n] != 2 or fortress)
            and at_level[level[n] + 1] < KNIGHTS_PER_LEVEL
        )
    return actions


_KNIGHT_MOVES: dict[tuple[int, int, int], list[Action]] = {}
"""Per board mark (:attr:`~state.GameState.board_mark`), knight and level, the knight's moves
and displacements, and per mark, player and level 0 the player's knight builds: they follow
from the board (which the mark follows), asked after every action of a turn. Never changed."""
_KNIGHT_MOVES_KEPT = 1024


def knight_turn_actions(game: GameState, p: int) -> list[Action]:
    actions = knight_build_actions(game, p)
    knight_owner, knight_level = game.knight_owner, game.knight_level
    active, flags = game.knight_active, game.knight_flags
    robber_corners: tuple[int, ...] | None = None  # asked once a knight may act
    pirate_corners: tuple[int, ...] = ()
    for node in game.knights_of[p]:
        if not active[node] or flags[node] & (ACTIVATED | ACTED):  # may_act
            continue
        if robber_corners is None:
            robber_corners = (
                game.topology.hex_nodes[game.robber_hex] if game.robber_unlocked else ()
            )
            pirate_corners = _pirate_corners(game)
        level = knight_level[node]
        key = game.board_mark, node, level
        moves = _KNIGHT_MOVES.get(key)
        if moves is None:
            moves = []
            for target in along_roads(game, p, node):
                owner = knight_owner[target]
                if owner == NOBODY:
                    if game.node_owner[target] == NOBODY:
                        moves.append(_MOVE(p, node, target))
                elif owner != p and knight_level[target] < level:
                    moves.append(_DISPLACE(p, node, target))
            if len(_KNIGHT_MOVES) >= _KNIGHT_MOVES_KEPT:
                _KNIGHT_MOVES.clear()
            _KNIGHT_MOVES[key] = moves
        actions.extend(moves)
        if node in robber_corners:
            actions.append(_CHASE(p, node))
        if node in pirate_corners:
            actions.append(_CHASE_PIRATE(p, node))
    return actions


def _pirate_corners(game: GameState) -> tuple[int, ...]:
    """Where a knight stands next to the pirate, once it may be chased (§13.7 item 8, R7)."""
    if not robber.pirate_unlocked(game):
        return ()
    return robber.cell_corners(game.topology, game.pirate_cell)


def chase_actions(game: GameState, p: int) -> list[Action]:
    """Knights that may chase the robber, or on a sea board the pirate, now (also before the
    roll with quick knights). A knight next to both may chase either (R8)."""
    if not game.robber_unlocked:
        return []
    corners = game.topology.hex_nodes[game.robber_hex]
    pirate_corners = _pirate_corners(game)
    actions: list[Action] = []
    for n in sorted(game.knights_of[p]):
        if not may_act(game, n):
            continue
        if n in corners:
            actions.append(ChaseRobber(p, n))
        if n in pirate_corners:
            actions.append(ChasePirate(p, n))
    return actions


def _own_knight_reason(game: GameState, p: int, node: int) -> Msg | None:
    if not ops.on_board(game, node):
        return msg("intersection {node} does not exist", node=node)
    if game.knight_owner[node] != p:
        return msg("you have no knight on intersection {node}", node=node)
    return None


def check_build_knight(game: GameState, a: BuildKnight) -> Msg | None:
    p, node = a.player, a.node
    if not ops.on_board(game, node):
        return msg("intersection {node} does not exist", node=node)
    if not ops.is_free(game, node):
        return msg("intersection {node} is occupied", node=node)
    if game.topology.has_sea:
        if game.topology.node_kinds[node] is NodeKind.SEA:
            return msg("no knight is built at sea; it may only move there (§13.7, R20)")
        if not on_piece_end(game, p, node):
            return msg(
                "a knight is placed at the end of one of your roads or ships; {node} is not"
                " (§13.7)",
                node=node,
            )
    elif not game.has_road_at(p, node):
        return msg(
            "a knight is placed at the end of one of your roads; {node} is not (§6)", node=node
        )
    if game.knights_at_level(p, 1) >= KNIGHTS_PER_LEVEL:
        return msg("both your basic knights are on the board")
    if not game.affords(p, COSTS[Build.KNIGHT]):
        return msg("a knight costs 1 wool + 1 ore (§5)")
    return None


def check_activate(game: GameState, a: ActivateKnight) -> Msg | None:
    reason = _own_knight_reason(game, a.player, a.node)
    if reason:
        return reason
    if game.knight_active[a.node]:
        return msg("this knight is already active")
    if not game.affords(a.player, COSTS[Build.ACTIVATE_KNIGHT]):
        return msg("activating a knight costs 1 grain (§5)")
    return None


def check_promote(game: GameState, a: PromoteKnight) -> Msg | None:
    reason = _own_knight_reason(game, a.player, a.node)
    if reason:
        return reason
    smith = game.prompt.kind is PromptKind.SMITH
    if not smith and not game.affords(a.player, COSTS[Build.PROMOTE_KNIGHT]):
        return msg("promoting a knight costs 1 wool + 1 ore (§5)")
    return promotion_reason(game, a.player, a.node)


def _action_reason(game: GameState, p: int, node: int) -> Msg | None:
    reason = _own_knight_reason(game, p, node)
    if reason:
        return reason
    if not game.knight_active[node]:
        return msg("only an active knight can act (§6)")
    if game.knight_flags[node] & ACTIVATED:
        return msg("a knight activated this turn cannot act this turn (§6)")
    if game.knight_flags[node] & ACTED:
        return msg("this knight already acted this turn (§6)")
    return None


def _not_connected(game: GameState, to: int) -> Msg:
    if game.topology.has_sea:
        return msg(
            "intersection {to} is not connected to the knight by your roads and ships (they"
            " join only at your settlement or city, §13.7)",
            to=to,
        )
    return msg("intersection {to} is not connected to the knight by your roads", to=to)


def check_move(game: GameState, a: MoveKnight) -> Msg | None:
    reason = _action_reason(game, a.player, a.node)
    if reason:
        return reason
    if not ops.on_board(game, a.to) or not ops.is_free(game, a.to):
        return msg("a knight moves to a free intersection; {to} is not", to=a.to)
    if a.to not in along_roads(game, a.player, a.node):
        return _not_connected(game, a.to)
    return None


def check_displace(game: GameState, a: DisplaceKnight) -> Msg | None:
    reason = _action_reason(game, a.player, a.node)
    if reason:
        return reason
    if not ops.on_board(game, a.to):
        return msg("intersection {to} does not exist", to=a.to)
    victim = game.knight_owner[a.to]
    if victim == NOBODY or victim == a.player:
        return msg("displacing needs an opponent's knight on the target")
    if game.knight_level[a.to] >= game.knight_level[a.node]:
        return msg("only a weaker knight can be displaced (§6)")
    if a.to not in along_roads(game, a.player, a.node):
        return _not_connected(game, a.to)
    return None


def check_chase(game: GameState, a: ChaseRobber) -> Msg | None:
    reason = _action_reason(game, a.player, a.node)
    if reason:
        return reason
    if not game.robber_unlocked:
        return msg("the robber stays in the desert until the first barbarian attack (§8)")
    if a.node not in game.topology.hex_nodes[game.robber_hex]:
        return msg("the knight must stand next to the robber's hex")
    if game.prompt.kind is PromptKind.ROLL and not game.config.quick_knights:
        return msg("knights chase the robber after the roll (quick knights variant: before)")
    return None


def check_chase_pirate(game: GameState, a: ChasePirate) -> Msg | None:
    reason = _action_reason(game, a.player, a.node)
    if reason:
        return reason
    if game.pirate_cell == NOBODY:
        return msg("there is no pirate on an island board; it sails a sea board (§13.4)")
    if not game.robber_unlocked:
        return msg("the pirate stays on its start until the first barbarian attack (§13.4)")
    if a.node not in robber.cell_corners(game.topology, game.pirate_cell):
        return msg("the knight must stand next to the pirate's hex or frame cell (§13.7)")
    if game.prompt.kind is PromptKind.ROLL and not game.config.quick_knights:
        return msg("knights chase the pirate after the roll (quick knights variant: before)")
    return None


def relocation_spots(game: GameState, owner: int, node: int) -> list[int]:
    return sorted(n for n in along_roads(game, owner, node) if ops.is_free(game, n))


def check_relocate(game: GameState, a: RelocateKnight) -> Msg | None:
    assert game.displaced is not None
    if a.to not in relocation_spots(game, a.player, game.displaced[0]):
        return msg(
            "the displaced knight moves to a free intersection along your roads; {to} is not",
            to=a.to,
        )
    return None


def place_knight(game: GameState, p: int, node: int, level: int, active: bool, flags: int) -> None:
    game.knight_owner[node] = p
    game.board_mark = next(BOARD_MARKS)
    game.knight_level[node] = level
    game.knight_active[node] = active
    game.knight_flags[node] = flags
    insort(game.knights_of[p], node)  # kept sorted: legal actions come in id order


def lift_knight(game: GameState, node: int) -> tuple[int, int, bool, int]:
    p = game.knight_owner[node]
    lifted = (p, game.knight_level[node], game.knight_active[node], game.knight_flags[node])
    game.knight_owner[node] = NOBODY
    game.board_mark = next(BOARD_MARKS)
    game.knight_level[node] = 0
    game.knight_active[node] = False
    game.knight_flags[node] = 0
    game.knights_of[p].remove(node)
    return lifted


def do_build_knight(game: GameState, a: BuildKnight) -> None:
    ops.pay(game, a.player, COSTS[Build.KNIGHT])
    place_knight(game, a.player, a.node, 1, False, 0)
    ops.roads_changed_at(game, a.node, knight_of=a.player)


def activate_knight(game: GameState, node: int) -> None:
    """The knight turns active; it cannot act this turn (§6)."""
    game.knight_active[node] = True
    game.knight_flags[node] |= ACTIVATED


def do_activate(game: GameState, a: ActivateKnight) -> None:
    ops.pay(game, a.player, COSTS[Build.ACTIVATE_KNIGHT])
    activate_knight(game, a.node)


def do_promote(game: GameState, a: PromoteKnight) -> None:
    smith = game.prompt.kind is PromptKind.SMITH
    if not smith:
        ops.pay(game, a.player, COSTS[Build.PROMOTE_KNIGHT])
    game.knight_level[a.node] += 1
    game.board_mark = next(BOARD_MARKS)  # the knights it may now displace, or be displaced by
    game.knight_flags[a.node] |= PROMOTED
    if smith:
        turnflow.pending_step_done(game)


def do_move(game: GameState, a: MoveKnight) -> None:
    p, level, _active, flags = lift_knight(game, a.node)
    place_knight(game, p, a.to, level, False, flags | ACTED)
    ops.roads_changed_at(game, a.node, a.to, knight_of=p)


def displace_knight(game: GameState, node: int) -> None:
    """The knight on ``node`` leaves it; its owner relocates it if there is a free intersection
    along their roads, else it goes back to the supply (§6, Intrigue)."""
    victim, level, active, flags = lift_knight(game, node)
    game.events.append(KnightDisplaced(victim, node))
    if relocation_spots(game, victim, node):
        game.displaced = (node, level, active, flags)
        game.pending.append(Prompt(PromptKind.RELOCATE_KNIGHT, victim))


def do_displace(game: GameState, a: DisplaceKnight) -> None:
    p, level, _active, flags = lift_knight(game, a.node)
    displace_knight(game, a.to)  # the intersection just left is free for the displaced knight
    place_knight(game, p, a.to, level, False, flags | ACTED)
    ops.roads_changed_at(game, a.node, a.to)
    turnflow.next_prompt(game)


def do_relocate(game: GameState, a: RelocateKnight) -> None:
    assert game.displaced is not None
    _origin, level, active, flags = game.displaced
    game.displaced = None
    place_knight(game, a.player, a.to, level, active, flags)
    ops.roads_changed_at(game, a.to, knight_of=a.player)
    turnflow.pending_done(game)


def do_chase(game: GameState, a: ChaseRobber) -> None:
    game.knight_active[a.node] = False
    game.knight_flags[a.node] |= ACTED
    game.robber_by_knight = True
    game.prompt = Prompt(PromptKind.MOVE_ROBBER, a.player)


def do_chase_pirate(game: GameState, a: ChasePirate) -> None:
    """The knight turns inactive; its owner moves the pirate to any other sea hex or frame cell
    and robs a ship owner there (R9)."""
    game.knight_active[a.node] = False
    game.knight_flags[a.node] |= ACTED
    game.prompt = Prompt(PromptKind.MOVE_PIRATE, a.player)


def turn_options(game: GameState, p: int) -> list[Action]:
    """The knight actions of the player on turn."""
    if game.knights_of[p] or game.roads_of[p]:
        return knight_turn_actions(game, p)
    return []


def relocate_options(game: GameState, p: int) -> list[Action]:
    assert game.displaced is not None
    return [RelocateKnight(p, n) for n in relocation_spots(game, p, game.displaced[0])]


# ---- words: the buttons and the log ------------------------------------------------------------


def _knight_line(t: Telling, a: Action, words: str, node: int, **values: Value) -> list[Line]:
    """A knight's line: ``words`` (a message id) reads ``{player}``, ``{place}`` and ``values``."""
    place = place_words(t.game, node)
    text = Msg(words, (("player", t.who(a.player)), ("place", place), *values.items()))
    return [Line(LineKind.KNIGHT, text)]


def promote_told(t: Telling, a: PromoteKnight) -> list[Line]:
    level = KNIGHT_NAMES[t.game.knight_level[a.node]]
    if t.prior.prompt is PromptKind.SMITH:
        words = N_("{player} promotes a knight to {level} {place} (Smith)")
    else:
        words = N_("{player} promotes a knight to {level} {place}")
    return _knight_line(t, a, words, a.node, level=level)


def displace_told(t: Telling, a: DisplaceKnight) -> list[Line]:
    victims = [e.owner for e in t.events if isinstance(e, KnightDisplaced)]
    words = N_("{player} displaces a knight of {victim} {place}")
    return _knight_line(t, a, words, a.to, victim=t.who(victims[0]))


RULES = (
    ActionRule(
        BuildKnight,
        check_build_knight,
        do_build_knight,
        (PromptKind.TURN, PromptKind.SPECIAL_BUILD),
        msg("build a basic knight"),
        button=lambda g, a, names: msg("Build a basic knight at node {node}", node=a.node),
        told=lambda t, a: _knight_line(
            t, a, N_("{player} recruits a basic knight {place}"), a.node
        ),
    ),
    ActionRule(
        ActivateKnight,
        check_activate,
        do_activate,
        (PromptKind.TURN, PromptKind.SPECIAL_BUILD),
        msg("activate a knight"),
        button=lambda g, a, names: msg("Activate a knight at node {node}", node=a.node),
        told=lambda t, a: _knight_line(t, a, N_("{player} activates a knight {place}"), a.node),
    ),
    ActionRule(
        PromoteKnight,
        check_promote,
        do_promote,
        (PromptKind.TURN, PromptKind.SMITH, PromptKind.SPECIAL_BUILD),
        msg("promote a knight"),
        button=lambda g, a, names: msg("Promote a knight at node {node}", node=a.node),
        told=promote_told,
    ),
    ActionRule(
        MoveKnight,
        check_move,
        do_move,
        (PromptKind.TURN,),
        msg("move a knight"),
        button=lambda g, a, names: msg("Move knight {node} to {to}", node=a.node, to=a.to),
        told=lambda t, a: _knight_line(t, a, N_("{player} moves a knight {place}"), a.to),
    ),
    ActionRule(
        DisplaceKnight,
        check_displace,
        do_displace,
        (PromptKind.TURN,),
        msg("displace a weaker knight"),
        button=lambda g, a, names: msg("Displace with knight {node} to {to}", node=a.node, to=a.to),
        told=displace_told,
    ),
    ActionRule(
        RelocateKnight,
        check_relocate,
        do_relocate,
        (PromptKind.RELOCATE_KNIGHT,),
        msg("move the displaced knight"),
        button=lambda g, a, names: msg("Move the displaced knight at node {to}", to=a.to),
        told=lambda t, a: _knight_line(
            t, a, N_("{player} moves the displaced knight {place}"), a.to
        ),
    ),
    ActionRule(
        ChaseRobber,
        check_chase,
        do_chase,
        (PromptKind.TURN,),
        msg("chase the robber away"),
        button=lambda g, a, names: msg("Chase the robber away at node {node}", node=a.node),
        told=lambda t, a: [
            Line(
                LineKind.KNIGHT, msg("{player}'s knight chases the robber", player=t.who(a.player))
            )
        ],
        quick_knights_prompts=(PromptKind.ROLL,),
    ),
    ActionRule(
        ChasePirate,
        check_chase_pirate,
        do_chase_pirate,
        (PromptKind.TURN,),
        msg("chase the pirate away"),
        button=lambda g, a, names: msg("Chase the pirate away at node {node}", node=a.node),
        told=lambda t, a: [
            Line(
                LineKind.KNIGHT, msg("{player}'s knight chases the pirate", player=t.who(a.player))
            )
        ],
        quick_knights_prompts=(PromptKind.ROLL,),
        sea=True,
    ),
)
OPTIONS: dict[PromptKind, Options] = {PromptKind.RELOCATE_KNIGHT: relocate_options}
PROMPTS = (PromptRule(PromptKind.RELOCATE_KNIGHT, N_("move your displaced knight")),)
