"""Knights (§6): building, activating, promoting, moving, displacing, chasing the robber.

A knight stands on an intersection at the end of its owner's roads, blocks opponents' roads
like a building, and acts once per turn when active (and not activated this turn).
"""

from __future__ import annotations

from bisect import insort

from companion_app.rules import operations as ops
from companion_app.rules import turnflow
from companion_app.rules.actions import (
    Action,
    ActivateKnight,
    BuildKnight,
    ChaseRobber,
    DisplaceKnight,
    MoveKnight,
    PromoteKnight,
    RelocateKnight,
)
from companion_app.rules.cards import ABILITY_LEVEL, COSTS, Build, Track
from companion_app.rules.declare import ActionRule, Options, PromptRule
from companion_app.rules.events import KnightDisplaced
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
from companion_app.rules.state import GameState, affords
from companion_app.rules.words import Line, LineKind, Telling, place_words

POLITICS = Track.POLITICS.index


def along_roads(game: GameState, p: int, start: int) -> list[int]:
    """Intersections reachable from ``start`` along ``p``'s roads. Opponents' pieces end a path
    (they can be reached, not passed)."""
    seen = {start}
    stack = [start]
    found: list[int] = []
    edge_owner = game.edge_owner
    while stack:
        node = stack.pop()
        if node != start and ops.blocks(game, p, node):
            continue
        for e in game.topology.node_edges[node]:
            if edge_owner[e] != p:
                continue
            a, b = game.topology.edge_nodes[e]
            nxt = b if a == node else a
            if nxt not in seen:
                seen.add(nxt)
                found.append(nxt)
                stack.append(nxt)
    return found


def knight_spots(game: GameState, p: int) -> list[int]:
    """Free intersections at the end of one of the player's roads (no distance rule)."""
    return [n for n in game.road_ends(p) if ops.is_free(game, n)]


def may_act(game: GameState, node: int) -> bool:
    """Active, and neither activated nor acted this turn (§6)."""
    return game.knight_active[node] and not game.knight_flags[node] & (ACTIVATED | ACTED)


def promotion_reason(game: GameState, p: int, node: int) -> str | None:
    level = game.knight_level[node]
    if game.knight_flags[node] & PROMOTED:
        return "a knight is promoted at most once per turn (§6)"
    if level >= MAX_KNIGHT_LEVEL:
        return "a mighty knight cannot be promoted further"
    if level == 2 and game.improvements[p][POLITICS] < ABILITY_LEVEL:
        return "promoting to a mighty knight needs the Fortress (politics level 3, §6)"
    if game.knights_at_level(p, level + 1) >= KNIGHTS_PER_LEVEL:
        return f"both your {KNIGHT_NAMES[level + 1]} knights are on the board"
    return None


def knight_build_actions(game: GameState, p: int) -> list[Action]:
    """Building, activating and promoting knights: what the special build phase allows of
    them too (§12)."""
    actions: list[Action] = []
    hand = game.hands[p]
    if affords(hand, COSTS[Build.KNIGHT]) and game.knights_at_level(p, 1) < KNIGHTS_PER_LEVEL:
        actions.extend(BuildKnight(p, n) for n in knight_spots(game, p))
    knights = sorted(game.knights_of[p])
    if not knights:
        return actions
    if affords(hand, COSTS[Build.ACTIVATE_KNIGHT]):
        actions.extend(ActivateKnight(p, n) for n in knights if not game.knight_active[n])
    if affords(hand, COSTS[Build.PROMOTE_KNIGHT]):
        actions.extend(PromoteKnight(p, n) for n in knights if promotion_reason(game, p, n) is None)
    return actions


def knight_turn_actions(game: GameState, p: int) -> list[Action]:
    actions = knight_build_actions(game, p)
    knights = sorted(game.knights_of[p])
    for node in knights:
        if not may_act(game, node):
            continue
        level = game.knight_level[node]
        for target in along_roads(game, p, node):
            owner = game.knight_owner[target]
            if owner == NOBODY:
                if game.node_owner[target] == NOBODY:
                    actions.append(MoveKnight(p, node, target))
            elif owner != p and game.knight_level[target] < level:
                actions.append(DisplaceKnight(p, node, target))
        if game.robber_unlocked and node in game.topology.hex_nodes[game.robber_hex]:
            actions.append(ChaseRobber(p, node))
    return actions


def chase_actions(game: GameState, p: int) -> list[Action]:
    """Knights that may chase the robber now (also before the roll with quick knights)."""
    if not game.robber_unlocked:
        return []
    corners = game.topology.hex_nodes[game.robber_hex]
    return [
        ChaseRobber(p, n) for n in sorted(game.knights_of[p]) if n in corners and may_act(game, n)
    ]


def _own_knight_reason(game: GameState, p: int, node: int) -> str | None:
    if not ops.on_board(game, node):
        return f"intersection {node} does not exist"
    if game.knight_owner[node] != p:
        return f"you have no knight on intersection {node}"
    return None


def check_build_knight(game: GameState, a: BuildKnight) -> str | None:
    p, node = a.player, a.node
    if not ops.on_board(game, node):
        return f"intersection {node} does not exist"
    if not ops.is_free(game, node):
        return f"intersection {node} is occupied"
    if not game.has_road_at(p, node):
        return f"a knight is placed at the end of one of your roads; {node} is not (§6)"
    if game.knights_at_level(p, 1) >= KNIGHTS_PER_LEVEL:
        return "both your basic knights are on the board"
    if not game.affords(p, COSTS[Build.KNIGHT]):
        return "a knight costs 1 wool + 1 ore (§5)"
    return None


def check_activate(game: GameState, a: ActivateKnight) -> str | None:
    reason = _own_knight_reason(game, a.player, a.node)
    if reason:
        return reason
    if game.knight_active[a.node]:
        return "this knight is already active"
    if not game.affords(a.player, COSTS[Build.ACTIVATE_KNIGHT]):
        return "activating a knight costs 1 grain (§5)"
    return None


def check_promote(game: GameState, a: PromoteKnight) -> str | None:
    reason = _own_knight_reason(game, a.player, a.node)
    if reason:
        return reason
    smith = game.prompt.kind is PromptKind.SMITH
    if not smith and not game.affords(a.player, COSTS[Build.PROMOTE_KNIGHT]):
        return "promoting a knight costs 1 wool + 1 ore (§5)"
    return promotion_reason(game, a.player, a.node)


def _action_reason(game: GameState, p: int, node: int) -> str | None:
    reason = _own_knight_reason(game, p, node)
    if reason:
        return reason
    if not game.knight_active[node]:
        return "only an active knight can act (§6)"
    if game.knight_flags[node] & ACTIVATED:
        return "a knight activated this turn cannot act this turn (§6)"
    if game.knight_flags[node] & ACTED:
        return "this knight already acted this turn (§6)"
    return None


def check_move(game: GameState, a: MoveKnight) -> str | None:
    reason = _action_reason(game, a.player, a.node)
    if reason:
        return reason
    if not ops.on_board(game, a.to) or not ops.is_free(game, a.to):
        return f"a knight moves to a free intersection; {a.to} is not"
    if a.to not in along_roads(game, a.player, a.node):
        return f"intersection {a.to} is not connected to the knight by your roads"
    return None


def check_displace(game: GameState, a: DisplaceKnight) -> str | None:
    reason = _action_reason(game, a.player, a.node)
    if reason:
        return reason
    if not ops.on_board(game, a.to):
        return f"intersection {a.to} does not exist"
    victim = game.knight_owner[a.to]
    if victim == NOBODY or victim == a.player:
        return "displacing needs an opponent's knight on the target"
    if game.knight_level[a.to] >= game.knight_level[a.node]:
        return "only a weaker knight can be displaced (§6)"
    if a.to not in along_roads(game, a.player, a.node):
        return f"intersection {a.to} is not connected to the knight by your roads"
    return None


def check_chase(game: GameState, a: ChaseRobber) -> str | None:
    reason = _action_reason(game, a.player, a.node)
    if reason:
        return reason
    if not game.robber_unlocked:
        return "the robber stays in the desert until the first barbarian attack (§8)"
    if a.node not in game.topology.hex_nodes[game.robber_hex]:
        return "the knight must stand next to the robber's hex"
    if game.prompt.kind is PromptKind.ROLL and not game.config.quick_knights:
        return "knights chase the robber after the roll (quick knights variant: before)"
    return None


def relocation_spots(game: GameState, owner: int, node: int) -> list[int]:
    return sorted(n for n in along_roads(game, owner, node) if ops.is_free(game, n))


def check_relocate(game: GameState, a: RelocateKnight) -> str | None:
    assert game.displaced is not None
    if a.to not in relocation_spots(game, a.player, game.displaced[0]):
        return f"the displaced knight moves to a free intersection along your roads; {a.to} is not"
    return None


def place_knight(game: GameState, p: int, node: int, level: int, active: bool, flags: int) -> None:
    game.knight_owner[node] = p
    game.knight_level[node] = level
    game.knight_active[node] = active
    game.knight_flags[node] = flags
    insort(game.knights_of[p], node)  # kept sorted: legal actions come in id order


def lift_knight(game: GameState, node: int) -> tuple[int, int, bool, int]:
    p = game.knight_owner[node]
    lifted = (p, game.knight_level[node], game.knight_active[node], game.knight_flags[node])
    game.knight_owner[node] = NOBODY
    game.knight_level[node] = 0
    game.knight_active[node] = False
    game.knight_flags[node] = 0
    game.knights_of[p].remove(node)
    return lifted


def do_build_knight(game: GameState, a: BuildKnight) -> None:
    ops.pay(game, a.player, COSTS[Build.KNIGHT])
    place_knight(game, a.player, a.node, 1, False, 0)
    ops.roads_changed_at(game, a.node)


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
    game.knight_flags[a.node] |= PROMOTED
    if smith:
        turnflow.pending_step_done(game)


def do_move(game: GameState, a: MoveKnight) -> None:
    p, level, _active, flags = lift_knight(game, a.node)
    place_knight(game, p, a.to, level, False, flags | ACTED)
    ops.roads_changed_at(game, a.node, a.to)


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
    ops.roads_changed_at(game, a.to)
    turnflow.pending_done(game)


def do_chase(game: GameState, a: ChaseRobber) -> None:
    game.knight_active[a.node] = False
    game.knight_flags[a.node] |= ACTED
    game.robber_by_knight = True
    game.prompt = Prompt(PromptKind.MOVE_ROBBER, a.player)


def turn_options(game: GameState, p: int) -> list[Action]:
    """The knight actions of the player on turn."""
    if game.knights_of[p] or game.roads_of[p]:
        return knight_turn_actions(game, p)
    return []


def relocate_options(game: GameState, p: int) -> list[Action]:
    assert game.displaced is not None
    return [RelocateKnight(p, n) for n in relocation_spots(game, p, game.displaced[0])]


# ---- words: the buttons and the log ------------------------------------------------------------


def _knight_line(t: Telling, a: Action, what: str, node: int) -> list[Line]:
    return [Line(LineKind.KNIGHT, f"{t.who(a.player)} {what} {place_words(t.game, node)}")]


def promote_told(t: Telling, a: PromoteKnight) -> list[Line]:
    level = KNIGHT_NAMES.get(t.game.knight_level[a.node], "")
    free = " (Smith)" if t.prior.prompt is PromptKind.SMITH else ""
    place = place_words(t.game, a.node)
    return [Line(LineKind.KNIGHT, f"{t.who(a.player)} promotes a knight to {level} {place}{free}")]


def displace_told(t: Telling, a: DisplaceKnight) -> list[Line]:
    victims = [e.owner for e in t.events if isinstance(e, KnightDisplaced)]
    return _knight_line(t, a, f"displaces a knight of {t.who(victims[0])}", a.to)


RULES = (
    ActionRule(
        BuildKnight,
        check_build_knight,
        do_build_knight,
        (PromptKind.TURN, PromptKind.SPECIAL_BUILD),
        "build a basic knight",
        button=lambda g, a, names: f"Build a basic knight at node {a.node}",
        told=lambda t, a: _knight_line(t, a, "recruits a basic knight", a.node),
    ),
    ActionRule(
        ActivateKnight,
        check_activate,
        do_activate,
        (PromptKind.TURN, PromptKind.SPECIAL_BUILD),
        "activate a knight",
        button=lambda g, a, names: f"Activate a knight at node {a.node}",
        told=lambda t, a: _knight_line(t, a, "activates a knight", a.node),
    ),
    ActionRule(
        PromoteKnight,
        check_promote,
        do_promote,
        (PromptKind.TURN, PromptKind.SMITH, PromptKind.SPECIAL_BUILD),
        "promote a knight",
        button=lambda g, a, names: f"Promote a knight at node {a.node}",
        told=promote_told,
    ),
    ActionRule(
        MoveKnight,
        check_move,
        do_move,
        (PromptKind.TURN,),
        "move a knight",
        button=lambda g, a, names: f"Move knight {a.node} → {a.to}",
        told=lambda t, a: _knight_line(t, a, "moves a knight", a.to),
    ),
    ActionRule(
        DisplaceKnight,
        check_displace,
        do_displace,
        (PromptKind.TURN,),
        "displace a weaker knight",
        button=lambda g, a, names: f"Displace with knight {a.node} → {a.to}",
        told=displace_told,
    ),
    ActionRule(
        RelocateKnight,
        check_relocate,
        do_relocate,
        (PromptKind.RELOCATE_KNIGHT,),
        "move the displaced knight",
        button=lambda g, a, names: f"Move the displaced knight at node {a.to}",
        told=lambda t, a: _knight_line(t, a, "moves the displaced knight", a.to),
    ),
    ActionRule(
        ChaseRobber,
        check_chase,
        do_chase,
        (PromptKind.TURN,),
        "chase the robber away",
        button=lambda g, a, names: f"Chase the robber away at node {a.node}",
        told=lambda t, a: [Line(LineKind.KNIGHT, f"{t.who(a.player)}'s knight chases the robber")],
        quick_knights_prompts=(PromptKind.ROLL,),
    ),
)
OPTIONS: dict[PromptKind, Options] = {PromptKind.RELOCATE_KNIGHT: relocate_options}
PROMPTS = (PromptRule(PromptKind.RELOCATE_KNIGHT, "move your displaced knight"),)
