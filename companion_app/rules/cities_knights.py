"""The Cities & Knights mechanics: knights (§6), the barbarian attack (§7), city walls,
city improvements and metropolises (§9), the Aqueduct (§4).

Each action has a check (the reason it is illegal, or None) and an effect; :mod:`game` registers
them next to the base-game ones, so legality is still decided by ``Game.illegal_reason``.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

from companion_app.rules.actions import (
    Action,
    ActivateKnight,
    BuildCityWall,
    BuildKnight,
    BuyImprovement,
    ChaseRobber,
    ChooseProgressDeck,
    CommitKnights,
    DisplaceKnight,
    LoseCity,
    MoveKnight,
    PlaceMetropolis,
    PromoteKnight,
    RelocateKnight,
    TakeResource,
)
from companion_app.rules.cards import (
    ABILITY_LEVEL,
    COSTS,
    MAX_IMPROVEMENT_LEVEL,
    METROPOLIS_LEVEL,
    RESOURCES,
    TRACKS,
    Build,
    Track,
    improvement_cost,
)
from companion_app.rules.pieces import (
    ACTED,
    ACTIVATED,
    CITY,
    DESTROYED_CITY,
    KNIGHT_NAMES,
    KNIGHTS_PER_LEVEL,
    MAX_KNIGHT_LEVEL,
    NOBODY,
    PROMOTED,
    SETTLEMENT,
    WALLS_PER_PLAYER,
)
from companion_app.rules.prompts import Prompt, PromptKind, Stage
from companion_app.rules.topology import EDGE_NODES, HEX_NODES, NODE_COUNT, NODE_EDGES

if TYPE_CHECKING:
    from companion_app.rules.game import Game

POLITICS = Track.POLITICS.index
SCIENCE = Track.SCIENCE.index


def _on_board(node: int) -> bool:
    return 0 <= node < NODE_COUNT


def _free(game: Game, node: int) -> bool:
    return game.node_owner[node] == NOBODY and game.knight_owner[node] == NOBODY


# ---- knights (§6) -------------------------------------------------------------------------


def along_roads(game: Game, p: int, start: int) -> list[int]:
    """Intersections reachable from ``start`` along ``p``'s roads. Opponents' pieces end a path
    (they can be reached, not passed)."""
    seen = {start}
    stack = [start]
    found: list[int] = []
    edge_owner = game.edge_owner
    while stack:
        node = stack.pop()
        if node != start and game._blocks(p, node):
            continue
        for e in NODE_EDGES[node]:
            if edge_owner[e] != p:
                continue
            a, b = EDGE_NODES[e]
            nxt = b if a == node else a
            if nxt not in seen:
                seen.add(nxt)
                found.append(nxt)
                stack.append(nxt)
    return found


def knight_spots(game: Game, p: int) -> list[int]:
    """Free intersections at the end of one of the player's roads (no distance rule)."""
    return [n for n in game.road_ends(p) if _free(game, n)]


def may_act(game: Game, node: int) -> bool:
    """Active, and neither activated nor acted this turn (§6)."""
    return game.knight_active[node] and not game.knight_flags[node] & (ACTIVATED | ACTED)


def promotion_reason(game: Game, p: int, node: int) -> str | None:
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


def knight_turn_actions(game: Game, p: int) -> list[Action]:
    actions: list[Action] = []
    hand_ok = game.affords(p, COSTS[Build.KNIGHT])
    if hand_ok and game.knights_at_level(p, 1) < KNIGHTS_PER_LEVEL:
        actions.extend(BuildKnight(p, n) for n in knight_spots(game, p))
    knights = sorted(game.knights_of[p])
    if game.affords(p, COSTS[Build.ACTIVATE_KNIGHT]):
        actions.extend(ActivateKnight(p, n) for n in knights if not game.knight_active[n])
    if game.affords(p, COSTS[Build.PROMOTE_KNIGHT]):
        actions.extend(PromoteKnight(p, n) for n in knights if promotion_reason(game, p, n) is None)
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
        if game.robber_unlocked and node in HEX_NODES[game.robber_hex]:
            actions.append(ChaseRobber(p, node))
    return actions


def chase_actions(game: Game, p: int) -> list[Action]:
    """Knights that may chase the robber now (also before the roll with quick knights)."""
    if not game.robber_unlocked:
        return []
    corners = HEX_NODES[game.robber_hex]
    return [
        ChaseRobber(p, n) for n in sorted(game.knights_of[p]) if n in corners and may_act(game, n)
    ]


def _own_knight_reason(game: Game, p: int, node: int) -> str | None:
    if not _on_board(node):
        return f"intersection {node} does not exist"
    if game.knight_owner[node] != p:
        return f"you have no knight on intersection {node}"
    return None


def check_build_knight(game: Game, a: BuildKnight) -> str | None:
    p, node = a.player, a.node
    if not _on_board(node):
        return f"intersection {node} does not exist"
    if not _free(game, node):
        return f"intersection {node} is occupied"
    if not game.has_road_at(p, node):
        return f"a knight is placed at the end of one of your roads; {node} is not (§6)"
    if game.knights_at_level(p, 1) >= KNIGHTS_PER_LEVEL:
        return "both your basic knights are on the board"
    if not game.affords(p, COSTS[Build.KNIGHT]):
        return "a knight costs 1 wool + 1 ore (§5)"
    return None


def check_activate(game: Game, a: ActivateKnight) -> str | None:
    reason = _own_knight_reason(game, a.player, a.node)
    if reason:
        return reason
    if game.knight_active[a.node]:
        return "this knight is already active"
    if not game.affords(a.player, COSTS[Build.ACTIVATE_KNIGHT]):
        return "activating a knight costs 1 grain (§5)"
    return None


def check_promote(game: Game, a: PromoteKnight) -> str | None:
    reason = _own_knight_reason(game, a.player, a.node)
    if reason:
        return reason
    smith = game.prompt.kind is PromptKind.SMITH
    if not smith and not game.affords(a.player, COSTS[Build.PROMOTE_KNIGHT]):
        return "promoting a knight costs 1 wool + 1 ore (§5)"
    return promotion_reason(game, a.player, a.node)


def _action_reason(game: Game, p: int, node: int) -> str | None:
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


def check_move(game: Game, a: MoveKnight) -> str | None:
    reason = _action_reason(game, a.player, a.node)
    if reason:
        return reason
    if not _on_board(a.to) or not _free(game, a.to):
        return f"a knight moves to a free intersection; {a.to} is not"
    if a.to not in along_roads(game, a.player, a.node):
        return f"intersection {a.to} is not connected to the knight by your roads"
    return None


def check_displace(game: Game, a: DisplaceKnight) -> str | None:
    reason = _action_reason(game, a.player, a.node)
    if reason:
        return reason
    if not _on_board(a.to):
        return f"intersection {a.to} does not exist"
    victim = game.knight_owner[a.to]
    if victim == NOBODY or victim == a.player:
        return "displacing needs an opponent's knight on the target"
    if game.knight_level[a.to] >= game.knight_level[a.node]:
        return "only a weaker knight can be displaced (§6)"
    if a.to not in along_roads(game, a.player, a.node):
        return f"intersection {a.to} is not connected to the knight by your roads"
    return None


def check_chase(game: Game, a: ChaseRobber) -> str | None:
    reason = _action_reason(game, a.player, a.node)
    if reason:
        return reason
    if not game.robber_unlocked:
        return "the robber stays in the desert until the first barbarian attack (§8)"
    if a.node not in HEX_NODES[game.robber_hex]:
        return "the knight must stand next to the robber's hex"
    if game.prompt.kind is PromptKind.ROLL and not game.config.quick_knights:
        return "knights chase the robber after the roll (quick knights variant: before)"
    return None


def relocation_spots(game: Game, owner: int, node: int) -> list[int]:
    return sorted(n for n in along_roads(game, owner, node) if _free(game, n))


def check_relocate(game: Game, a: RelocateKnight) -> str | None:
    assert game.displaced is not None
    if a.to not in relocation_spots(game, a.player, game.displaced[0]):
        return f"the displaced knight moves to a free intersection along your roads; {a.to} is not"
    return None


def place_knight(game: Game, p: int, node: int, level: int, active: bool, flags: int) -> None:
    game.knight_owner[node] = p
    game.knight_level[node] = level
    game.knight_active[node] = active
    game.knight_flags[node] = flags
    insort(game.knights_of[p], node)  # kept sorted: legal actions come in id order


def lift_knight(game: Game, node: int) -> tuple[int, int, bool, int]:
    p = game.knight_owner[node]
    lifted = (p, game.knight_level[node], game.knight_active[node], game.knight_flags[node])
    game.knight_owner[node] = NOBODY
    game.knight_level[node] = 0
    game.knight_active[node] = False
    game.knight_flags[node] = 0
    game.knights_of[p].remove(node)
    return lifted


def roads_changed_at(game: Game, *nodes: int) -> None:
    """A knight came or went: roads through these intersections may be broken or mended."""
    owners: set[int] = set()
    for node in nodes:
        owners |= game._road_owners_at(node)
    if owners:
        game._update_longest_road(owners)


def do_build_knight(game: Game, a: BuildKnight) -> None:
    game._pay(a.player, COSTS[Build.KNIGHT])
    place_knight(game, a.player, a.node, 1, False, 0)
    roads_changed_at(game, a.node)


def activate_knight(game: Game, node: int) -> None:
    """The knight turns active; it cannot act this turn (§6)."""
    game.knight_active[node] = True
    game.knight_flags[node] |= ACTIVATED


def do_activate(game: Game, a: ActivateKnight) -> None:
    game._pay(a.player, COSTS[Build.ACTIVATE_KNIGHT])
    activate_knight(game, a.node)


def do_promote(game: Game, a: PromoteKnight) -> None:
    smith = game.prompt.kind is PromptKind.SMITH
    if not smith:
        game._pay(a.player, COSTS[Build.PROMOTE_KNIGHT])
    game.knight_level[a.node] += 1
    game.knight_flags[a.node] |= PROMOTED
    if smith:
        game.pending_step_done()


def do_move(game: Game, a: MoveKnight) -> None:
    p, level, _active, flags = lift_knight(game, a.node)
    place_knight(game, p, a.to, level, False, flags | ACTED)
    roads_changed_at(game, a.node, a.to)


def displace_knight(game: Game, node: int) -> None:
    """The knight on ``node`` leaves it; its owner relocates it if there is a free intersection
    along their roads, else it goes back to the supply (§6, Intrigue)."""
    victim, level, active, flags = lift_knight(game, node)
    if relocation_spots(game, victim, node):
        game.displaced = (node, level, active, flags)
        game.pending.append(Prompt(PromptKind.RELOCATE_KNIGHT, victim))


def do_displace(game: Game, a: DisplaceKnight) -> None:
    p, level, _active, flags = lift_knight(game, a.node)
    displace_knight(game, a.to)  # the intersection just left is free for the displaced knight
    place_knight(game, p, a.to, level, False, flags | ACTED)
    roads_changed_at(game, a.node, a.to)
    game._next_prompt()


def do_relocate(game: Game, a: RelocateKnight) -> None:
    assert game.displaced is not None
    _origin, level, active, flags = game.displaced
    game.displaced = None
    place_knight(game, a.player, a.to, level, active, flags)
    roads_changed_at(game, a.to)
    game._pending_done()


def do_chase(game: Game, a: ChaseRobber) -> None:
    game.knight_active[a.node] = False
    game.knight_flags[a.node] |= ACTED
    game.robber_by_knight = True
    game.prompt = Prompt(PromptKind.MOVE_ROBBER, a.player)


# ---- city walls -----------------------------------------------------------------------------


def wall_actions(game: Game, p: int) -> list[Action]:
    if game.walls_of(p) >= WALLS_PER_PLAYER or not game.affords(p, COSTS[Build.CITY_WALL]):
        return []
    return [BuildCityWall(p, n) for n in sorted(game.cities_of(p)) if not game.walls[n]]


def wall_reason(game: Game, p: int, node: int, *, wall: str = "a city wall") -> str | None:
    """Why ``p`` cannot put a wall under ``node``, price aside (§5; the Engineer, §10)."""
    if not _on_board(node) or game.node_owner[node] != p or game.node_level[node] != CITY:
        return f"{wall} goes under one of your cities"
    if game.walls[node]:
        return "this city already has a wall"
    if game.walls_of(p) >= WALLS_PER_PLAYER:
        return f"at most {WALLS_PER_PLAYER} city walls per player"
    return None


def check_wall(game: Game, a: BuildCityWall) -> str | None:
    reason = wall_reason(game, a.player, a.node)
    if reason:
        return reason
    if not game.affords(a.player, COSTS[Build.CITY_WALL]):
        return "a city wall costs 2 brick (§5)"
    return None


def do_wall(game: Game, a: BuildCityWall) -> None:
    game._pay(a.player, COSTS[Build.CITY_WALL])
    game.walls[a.node] = True


# ---- city improvements and metropolises (§9) ------------------------------------------------


def cities_without_metropolis(game: Game, p: int) -> list[int]:
    """The player's standing cities without a metropolis: those that could carry one (§9), and
    those the barbarians can take (§7.4)."""
    return sorted(n for n in game.cities_of(p) if n not in game.metropolis)


def improvement_reason(game: Game, p: int, track: Track, *, discount: int = 0) -> str | None:
    """Why ``p`` cannot buy the next level now; ``discount`` commodities less (Crane, §10)."""
    t = track.index
    level = game.improvements[p][t] + 1
    if level > MAX_IMPROVEMENT_LEVEL:
        return f"the {track.value} track is complete"
    if not game.cities_of(p):
        return "city improvements need a city on the board (§9)"
    if (
        level >= METROPOLIS_LEVEL
        and game.metropolis_owner(t) != p
        and not cities_without_metropolis(game, p)
    ):
        return f"level {level} needs a city that could carry the metropolis (§9)"
    if not game.affords(p, improvement_cost(track, max(level - discount, 0))):
        price = max(level - discount, 0)
        return f"level {level} of {track.value} costs {price} {track.commodity.label} (§5)"
    return None


def improvement_actions(game: Game, p: int) -> list[Action]:
    return [BuyImprovement(p, t) for t in TRACKS if improvement_reason(game, p, t) is None]


def check_improvement(game: Game, a: BuyImprovement) -> str | None:
    return improvement_reason(game, a.player, a.track)


def do_improvement(game: Game, a: BuyImprovement) -> None:
    buy_improvement(game, a.player, a.track)


def buy_improvement(game: Game, p: int, track: Track, *, discount: int = 0) -> None:
    """The next level, paid ``discount`` commodities less; a metropolis may follow (§9)."""
    t = track.index
    level = game.improvements[p][t] + 1
    game._pay(p, improvement_cost(track, max(level - discount, 0)))
    game.improvements[p][t] = level
    game._update_trade_rates(p)
    holder = game.metropolis_owner(t)
    if holder == p or level < METROPOLIS_LEVEL:
        return
    if holder == NOBODY or (level == MAX_IMPROVEMENT_LEVEL and game.improvements[holder][t] < 5):
        game.metropolis[t] = NOBODY
        game.pending.append(Prompt(PromptKind.PLACE_METROPOLIS, p, track=track.value))
        game._next_prompt()


def check_place_metropolis(game: Game, a: PlaceMetropolis) -> str | None:
    if a.node not in cities_without_metropolis(game, a.player):
        return f"a metropolis goes on one of your cities without one; {a.node} is not"
    return None


def do_place_metropolis(game: Game, a: PlaceMetropolis) -> None:
    track = Track(game.prompt.track)
    game.metropolis[track.index] = a.node
    game._pending_done()


# ---- the barbarian attack (§7) --------------------------------------------------------------


def advance_barbarians(game: Game) -> bool:
    """Move the ship one space; True if it reached the end and attacks now."""
    game.barbarian_position += 1
    if game.barbarian_position < game.config.barbarian_track_length:
        return False
    if game.config.evil_barbarians:
        game.committed = []
        game.pending.extend(Prompt(PromptKind.COMMIT_KNIGHTS, p) for p in game.seat_order())
        game.stage = Stage.COMMIT
    else:
        resolve_attack(game)
    return True


def defenders(game: Game) -> list[int]:
    if game.config.evil_barbarians:
        return list(game.committed)
    return [
        n for n in range(NODE_COUNT) if game.knight_owner[n] != NOBODY and game.knight_active[n]
    ]


@dataclass(frozen=True, slots=True)
class BarbarianAttack:
    """What happened at one barbarian attack (§7), kept for the table to see afterwards.

    ``defence`` is each seat's active-knight strength that counted; ``defender`` the single
    strongest who took a Defender of Catan card (``NOBODY`` otherwise); ``tied`` the strongest
    who tied and draw a progress card of their choice instead; ``losers`` the lowest defenders
    who each lose a city of their choice (in the order they choose).
    """

    number: int
    """1 for the game's first attack."""
    strength: int
    defence: tuple[int, ...]
    defender: int = NOBODY
    tied: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()

    @property
    def total_defence(self) -> int:
        return sum(self.defence)

    @property
    def defended(self) -> bool:
        """Catan wins on a defence at least as strong as the barbarians (§7.3)."""
        return self.total_defence >= self.strength

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "strength": self.strength,
            "defence": list(self.defence),
            "defender": self.defender,
            "tied": list(self.tied),
            "losers": list(self.losers),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BarbarianAttack:
        """:raises KeyError, TypeError, ValueError: for malformed data (``Game.from_json``
        turns them into a ``StateError``)."""
        return cls(
            number=int(data["number"]),
            strength=int(data["strength"]),
            defence=tuple(int(x) for x in data["defence"]),
            defender=int(data["defender"]),
            tied=tuple(int(x) for x in data["tied"]),
            losers=tuple(int(x) for x in data["losers"]),
        )


def resolve_attack(game: Game) -> None:
    """Strength against defence; the Defender, the tied deck choices or the city losses; then
    the ship goes back, the defending knights turn inactive and the robber is free (§7).
    The outcome is kept in ``game.last_attack``."""
    n = game.player_count
    order = game.seat_order()
    knights = defenders(game)
    per_player = [0] * n
    for node in knights:
        per_player[game.knight_owner[node]] += game.knight_level[node]
    strength = game.barbarian_strength()
    defender = NOBODY
    tied: list[int] = []
    losers: list[int] = []
    if sum(per_player) >= strength:
        best = max(per_player)
        strongest = [p for p in order if per_player[p] == best and best > 0]
        if len(strongest) == 1:
            defender = strongest[0]
            game.defender_cards[defender] += 1
        else:
            tied = strongest
            game.pending.extend(Prompt(PromptKind.CHOOSE_PROGRESS_DECK, p) for p in strongest)
    else:
        exposed = [p for p in order if cities_without_metropolis(game, p)]
        if exposed:
            lowest = min(per_player[p] for p in exposed)
            losers = [p for p in exposed if per_player[p] == lowest]
            game.pending.extend(Prompt(PromptKind.LOSE_CITY, p) for p in losers)
    game.last_attack = BarbarianAttack(
        game.barbarian_attacks + 1,
        strength,
        tuple(per_player),
        defender,
        tuple(tied),
        tuple(losers),
    )
    for node in knights:
        game.knight_active[node] = False
    game.committed = []
    game.barbarian_position = 0
    game.barbarian_attacks += 1
    game.robber_unlocked = True
    game.stage = Stage.ATTACK


def commit_options(game: Game, p: int) -> list[Action]:
    active = sorted(n for n in game.knights_of[p] if game.knight_active[n])
    return [
        CommitKnights(p, subset)
        for k in range(len(active) + 1)
        for subset in combinations(active, k)
    ]


def check_commit(game: Game, a: CommitKnights) -> str | None:
    if len(set(a.nodes)) != len(a.nodes) or list(a.nodes) != sorted(a.nodes):
        return "list each committed knight once, in increasing intersection order"
    for node in a.nodes:
        if not _on_board(node) or game.knight_owner[node] != a.player:
            return f"you have no knight on intersection {node}"
        if not game.knight_active[node]:
            return f"the knight on {node} is inactive and cannot defend"
    return None


def do_commit(game: Game, a: CommitKnights) -> None:
    game.committed.extend(a.nodes)
    game._pending_done()


def check_lose_city(game: Game, a: LoseCity) -> str | None:
    if a.node not in cities_without_metropolis(game, a.player):
        return f"choose one of your cities without a metropolis; {a.node} is not"
    return None


def do_lose_city(game: Game, a: LoseCity) -> None:
    p = a.player
    game.walls[a.node] = False
    if game.settlements_left(p) > 0:
        game.node_level[a.node] = SETTLEMENT
    else:
        game.node_level[a.node] = DESTROYED_CITY
    game._pending_done()


def check_deck_choice(game: Game, a: ChooseProgressDeck) -> str | None:
    return None


def do_deck_choice(game: Game, a: ChooseProgressDeck) -> None:
    """A tied strongest defender draws from the chosen deck (§7.3); a forced discard comes
    right after this choice."""
    game.draw_progress(a.player, a.track, 1)
    game._pending_done()


# ---- Aqueduct (§4) ------------------------------------------------------------------------


def queue_aqueduct(game: Game, gained: list[list[int]]) -> None:
    """Players with the Aqueduct who got nothing from a production roll take a resource."""
    if not any(game.bank[c] for c in RESOURCES):
        return
    for p in game.seat_order():
        if game.improvements[p][SCIENCE] >= ABILITY_LEVEL and not any(gained[p]):
            game.pending.append(Prompt(PromptKind.AQUEDUCT, p))


def aqueduct_options(game: Game, p: int) -> list[Action]:
    return [TakeResource(p, c) for c in RESOURCES if game.bank[c]]


def check_take_resource(game: Game, a: TakeResource) -> str | None:
    if not a.card.is_resource:
        return "the Aqueduct gives a resource, not a commodity (§4)"
    if not game.bank[a.card]:
        return f"the bank has no {a.card.label} left"
    return None


def do_take_resource(game: Game, a: TakeResource) -> None:
    game._give_from_bank(a.player, a.card, 1)
    game._pending_done()
