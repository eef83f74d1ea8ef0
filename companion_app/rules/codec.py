"""Game state to and from JSON (``Game.to_json`` / ``Game.from_json``).

Writing is plain. Reading trusts nothing: state JSON comes from files and journal rows, so every
value is checked for type and range (see :mod:`jsonshape`) and the first problem is a
:class:`StateError` naming its path; no other exception escapes :func:`load_state`.

Developer words: state JSON comes from files and journal rows; its problems are for engineers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from companion_app.rules.actions import OfferTrade, Roll, action_from_json
from companion_app.rules.cards import (
    LARGE_GAME_PLAYERS,
    MAX_IMPROVEMENT_LEVEL,
    TRACKS,
    Card,
    ProgressCard,
    bank_start,
)
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import RulesError, StateError
from companion_app.rules.jsonshape import Shape, show
from companion_app.rules.pieces import (
    ACTED,
    ACTIVATED,
    CITIES_PER_PLAYER,
    LEVEL_NAMES,
    MAX_KNIGHT_LEVEL,
    NOBODY,
    PROMOTED,
    ROADS_PER_PLAYER,
    SHIPS_PER_PLAYER,
)
from companion_app.rules.prompts import Prompt, PromptKind, Stage
from companion_app.rules.state import BarbarianAttack, GameState, SpecialBuildPhase
from companion_app.rules.topology import EdgeKind

STATE_VERSION = 2
MAX_COUNT = 1_000_000
"""Turns, attacks and similar counters: far above any game, far below anything that hurts."""
MAX_PENDING = 64

_SHAPE = Shape(StateError, "game state: ")
_CARD_NAMES = tuple(c.label for c in Card)
_LEVEL_BY_NAME = {v: k for k, v in LEVEL_NAMES.items()}
_PROMPT_KINDS = {k.value: k for k in PromptKind}
_STAGES = {s.value: s for s in Stage}
_PROGRESS = {c.value: c for c in ProgressCard}
_CARDS = {c.label: c for c in Card}
_TRACK_NAMES = {t.value: t for t in TRACKS}
_KNIGHT_FLAGS = ACTIVATED | ACTED | PROMOTED
_SEA_KEYS = ("pirate", "ships", "ships_placed", "ship_moved", "islands_settled")


# ---- writing --------------------------------------------------------------------------------


def _hand_json(hand: list[int]) -> dict[str, int]:
    return dict(zip(_CARD_NAMES, hand, strict=True))


def state_to_json(game: GameState) -> dict[str, Any]:
    """The whole state (not the history) as JSON-compatible data."""
    return {
        "version": STATE_VERSION,
        "config": game.config.to_json(),
        "prompt": game.prompt.to_json(),
        "active": game.active,
        "turn": game.turn,
        "turns_taken": list(game.turns_taken),
        "setup_step": game.setup_step,
        "setup_node": game.setup_node,
        "bank": _hand_json(game.bank),
        "hands": [_hand_json(hand) for hand in game.hands],
        **_board_json(game),
        "robber_hex": game.robber_hex,
        "robber_unlocked": game.robber_unlocked,
        "rolled": game.rolled,
        "pending": [prompt.to_json() for prompt in game.pending],
        "stage": game.stage.value,
        "robber_by_knight": game.robber_by_knight,
        **_knights_json(game),
        "improvements": {
            t.value: [levels[t.index] for levels in game.improvements] for t in TRACKS
        },
        "metropolis": {t.value: game.metropolis[t.index] for t in TRACKS},
        "barbarian_position": game.barbarian_position,
        "barbarian_attacks": game.barbarian_attacks,
        "last_attack": None if game.last_attack is None else game.last_attack.to_json(),
        "defender_cards": list(game.defender_cards),
        "committed": list(game.committed),
        "offer": None if game.offer is None else game.offer.to_json(),
        "victims": list(game.victims),
        "longest_road_holder": game.longest_road_holder,
        "road_length": list(game.road_length),
        "winner": game.winner,
        "rng": game.rng.state,
        "last_roll": None if game.last_roll is None else game.last_roll.to_json(),
        "last_production": [
            {name: n for name, n in zip(_CARD_NAMES, g, strict=True) if n}
            for g in game.last_production
        ],
        **_progress_json(game),
        **_sea_json(game),
    }


def _sea_json(game: GameState) -> dict[str, Any]:
    """The sea's pieces (§13), only on a sea board: an island game's JSON is unchanged."""
    if not game.topology.has_sea:
        return {}
    return {
        "pirate": game.pirate_cell,
        "ships": [{"edge": e, "player": p} for e, p in enumerate(game.ship_owner) if p >= 0],
        "ships_placed": list(game.ships_placed),
        "ship_moved": game.ship_moved,
        "islands_settled": [list(islands) for islands in game.islands_settled],
    }


def _board_json(game: GameState) -> dict[str, Any]:
    level = game.node_level
    return {
        "buildings": [
            {"node": node, "player": p, "kind": LEVEL_NAMES[level[node]]}
            for node, p in enumerate(game.node_owner)
            if p != NOBODY
        ],
        "roads": [{"edge": e, "player": p} for e, p in enumerate(game.edge_owner) if p >= 0],
        "walls": [node for node in range(game.topology.node_count) if game.walls[node]],
    }


def _knights_json(game: GameState) -> dict[str, Any]:
    return {
        "knights": [
            {
                "node": node,
                "player": p,
                "level": game.knight_level[node],
                "active": game.knight_active[node],
                "flags": game.knight_flags[node],
            }
            for node, p in enumerate(game.knight_owner)
            if p != NOBODY
        ],
        "displaced": None if game.displaced is None else list(game.displaced),
    }


def _progress_json(game: GameState) -> dict[str, Any]:
    data: dict[str, Any] = {
        "decks": {t.value: [c.value for c in game.decks[t.index]] for t in TRACKS},
        "progress_hands": [[c.value for c in hand] for hand in game.progress_hands],
        "revealed_vp": [[c.value for c in cards] for cards in game.revealed_vp],
        "merchant": {"hex": game.merchant_hex, "player": game.merchant_owner},
        "fleet": [c.label for c in game.fleet],
        "alchemist": None if game.alchemist is None else list(game.alchemist),
        "tokens": list(game.tokens),
        "card_target": game.card_target,
        "deserter": None if game.deserter is None else list(game.deserter),
        "harbor_done": list(game.harbor_done),
        "harbor_offer": None if game.harbor_offer is None else game.harbor_offer.label,
    }
    if game.harbor_open:  # only while open: the state JSON of a turn without it is unchanged
        data["harbor_open"] = True
    if game.special_build is not None:  # only in the phase: never in a 3-4 player game
        data["special_build"] = game.special_build.to_json()
    return data


# ---- reading ----------------------------------------------------------------------------------


def config_of(data: object) -> GameConfig:
    """The config of state JSON, its version checked first.

    :raises StateError: naming the problem.
    """
    state = _SHAPE.obj(data, "the state")
    version = state.get("version")
    if type(version) is not int or version != STATE_VERSION:
        raise StateError(f"state version {show(version)} is not {STATE_VERSION}")
    try:
        return GameConfig.from_json(_SHAPE.field(state, "config", ""))
    except RulesError as exc:
        if isinstance(exc, StateError):
            raise
        raise StateError(f"game state: config: {exc}") from exc


class _Reader:
    """Reads one state object's fields for a game of ``n`` players."""

    def __init__(self, data: Mapping[str, Any], n: int, nodes: int) -> None:
        self.data = data
        self.n = n
        self.nodes = nodes
        self.all_cards = sum(bank_start(n))
        """No count of one card exceeds the game's cards of all kinds."""

    def get(self, key: str) -> Any:
        return _SHAPE.field(self.data, key, "")

    def seat(self, value: object, where: str) -> int:
        return _SHAPE.integer(value, where, 0, self.n - 1)

    def seat_or_nobody(self, value: object, where: str) -> int:
        return _SHAPE.integer(value, where, NOBODY, self.n - 1)

    def node(self, value: object, where: str) -> int:
        return _SHAPE.integer(value, where, 0, self.nodes - 1)

    def node_or_nobody(self, value: object, where: str) -> int:
        return _SHAPE.integer(value, where, NOBODY, self.nodes - 1)

    def count(self, key: str, high: int = MAX_COUNT) -> int:
        return _SHAPE.integer(self.get(key), key, 0, high)

    def flag(self, key: str) -> bool:
        return _SHAPE.boolean(self.get(key), key)

    def per_seat(self, key: str, high: int) -> list[int]:
        items = _SHAPE.sized(self.get(key), key, self.n)
        return [_SHAPE.integer(x, f"{key}[{i}]", 0, high) for i, x in enumerate(items)]

    def seats(self, key: str) -> list[int]:
        items = _SHAPE.items(self.get(key), key, max_len=self.n)
        return [self.seat(x, f"{key}[{i}]") for i, x in enumerate(items)]

    def hand(self, value: object, where: str, *, full: bool = True) -> list[int]:
        cards = _SHAPE.obj(value, where)
        unknown = [k for k in cards if k not in _CARDS]
        if unknown:
            _SHAPE.fail(f"{where}.{show(unknown[0])}", "is not a card")
        hand = []
        for name in _CARD_NAMES:
            if name in cards:
                hand.append(_SHAPE.integer(cards[name], f"{where}.{name}", 0, self.all_cards))
            elif full:
                _SHAPE.fail(f"{where}.{name}", "is missing")
            else:
                hand.append(0)
        return hand

    def prompt(self, value: object, where: str) -> Prompt:
        data = _SHAPE.obj(value, where)
        extra = sorted(set(data) - {"kind", "player", "count", "track"})
        if extra:
            _SHAPE.fail(f"{where}.{show(extra[0])}", "is not a prompt field")
        kind = _SHAPE.choice(_SHAPE.field(data, "kind", where), f"{where}.kind", _PROMPT_KINDS)
        player = self.seat(_SHAPE.field(data, "player", where), f"{where}.player")
        count = _SHAPE.integer(data.get("count", 0), f"{where}.count", 0, MAX_COUNT)
        track = data.get("track", "")
        if track != "":
            _SHAPE.choice(track, f"{where}.track", _TRACK_NAMES)
        return Prompt(kind, player, count, track)

    def progress_cards(self, value: object, where: str) -> list[ProgressCard]:
        items = _SHAPE.items(value, where, max_len=len(ProgressCard) * 4)
        return [_progress_card(x, f"{where}[{i}]") for i, x in enumerate(items)]

    def card(self, value: object, where: str) -> Card:
        parsed: Card = _SHAPE.choice(value, where, _CARDS)
        return parsed


def _progress_card(value: object, where: str) -> ProgressCard:
    parsed: ProgressCard = _SHAPE.choice(value, where, _PROGRESS)
    return parsed


def load_state(game: GameState, data: Mapping[str, Any]) -> None:
    """Fill ``game`` (new, with the config of :func:`config_of`) from state JSON.

    :raises StateError: naming the first problem.
    """
    read = _Reader(data, game.player_count, game.topology.node_count)
    _load_turn(game, read)
    _load_board(game, read)
    _load_knights(game, read)
    _load_barbarians(game, read)
    _load_progress(game, read)
    _load_sea(game, read)


def _load_sea(game: GameState, read: _Reader) -> None:
    """The pirate on a sea board's sea hex or frame cell (§13.4), the ships (§13.3), the
    islands settled (§13.10); none of them on an island."""
    topology = game.topology
    if not topology.has_sea:
        for key in _SEA_KEYS:
            if key in read.data:
                _SHAPE.fail(key, "is no part of a game on an island")
        return
    cell = _SHAPE.integer(read.get("pirate"), "pirate", 0, topology.cell_count - 1)
    if cell in topology.land_hexes:
        _SHAPE.fail("pirate", f"stands on land (hex {cell}); it sails the sea hexes and the frame")
    game.pirate_cell = cell
    if topology.hex_island[game.robber_hex] is None:
        _SHAPE.fail("robber_hex", f"is a sea hex ({game.robber_hex}); the robber stays on land")
    edges = topology.edge_count
    ships = _SHAPE.items(read.get("ships"), "ships", max_len=edges)
    for i, value in enumerate(ships):
        where = f"ships[{i}]"
        s = _SHAPE.obj(value, where)
        edge = _SHAPE.integer(_SHAPE.field(s, "edge", where), f"{where}.edge", 0, edges - 1)
        if game.edge_owner[edge] != NOBODY or topology.edge_kinds[edge] is EdgeKind.LAND:
            _SHAPE.fail(f"{where}.edge", f"is edge {edge}, which has a road or lies inland")
        game.ship_owner[edge] = read.seat(_SHAPE.field(s, "player", where), f"{where}.player")
    placed = _SHAPE.items(read.get("ships_placed"), "ships_placed", max_len=edges)
    game.ships_placed = [
        _SHAPE.integer(e, f"ships_placed[{i}]", 0, edges - 1) for i, e in enumerate(placed)
    ]
    game.ship_moved = read.flag("ship_moved")
    settled = _SHAPE.sized(read.get("islands_settled"), "islands_settled", read.n)
    small = len(topology.islands) - 1
    game.islands_settled = []
    for p, value in enumerate(settled):
        items = _SHAPE.items(value, f"islands_settled[{p}]", max_len=small)
        islands = [
            _SHAPE.integer(x, f"islands_settled[{p}][{i}]", 1, small) for i, x in enumerate(items)
        ]
        if sorted(set(islands)) != islands:
            _SHAPE.fail(f"islands_settled[{p}]", "must list each island once, in order")
        game.islands_settled.append(islands)


def _load_turn(game: GameState, read: _Reader) -> None:
    n = read.n
    game.prompt = read.prompt(read.get("prompt"), "prompt")
    game.active = read.seat(read.get("active"), "active")
    game.turn = read.count("turn")
    game.turns_taken = read.per_seat("turns_taken", MAX_COUNT)
    game.setup_step = read.count("setup_step", 4 * n)
    game.setup_node = read.node_or_nobody(read.get("setup_node"), "setup_node")
    game.bank = read.hand(read.get("bank"), "bank")
    hands = _SHAPE.sized(read.get("hands"), "hands", n)
    game.hands = [read.hand(h, f"hands[{p}]") for p, h in enumerate(hands)]
    game.rolled = read.flag("rolled")
    pending = _SHAPE.items(read.get("pending"), "pending", max_len=MAX_PENDING)
    game.pending = [read.prompt(p, f"pending[{i}]") for i, p in enumerate(pending)]
    game.stage = _SHAPE.choice(read.get("stage"), "stage", _STAGES)
    game.victims = tuple(read.seats("victims"))
    game.winner = read.seat_or_nobody(read.get("winner"), "winner")
    game.rng.state = _SHAPE.integer(read.get("rng"), "rng", 0, 2**64 - 1)
    offer = read.get("offer")
    if offer is not None:
        game.offer = _action(offer, "offer", OfferTrade)
    last = read.get("last_roll")
    if last is not None:
        game.last_roll = _action(last, "last_roll", Roll)
    produced = _SHAPE.items(read.get("last_production"), "last_production", max_len=n)
    game.last_production = tuple(
        tuple(read.hand(g, f"last_production[{p}]", full=False)) for p, g in enumerate(produced)
    )
    phase = read.data.get("special_build")
    if phase is not None:
        game.special_build = _special_build(read, phase)


def _special_build(read: _Reader, value: object) -> SpecialBuildPhase:
    """The special build phase (§12): only in a 5-6 player game, its seats in range."""
    if read.n < LARGE_GAME_PLAYERS:
        _SHAPE.fail("special_build", f"is no part of a {read.n}-player game")
    phase = _SHAPE.obj(value, "special_build")
    after = read.seat(_SHAPE.field(phase, "after", "special_build"), "special_build.after")
    builder = read.seat_or_nobody(phase.get("builder", NOBODY), "special_build.builder")
    building = _SHAPE.boolean(phase.get("building", False), "special_build.building")
    if builder == after or (building and builder == NOBODY):
        _SHAPE.fail("special_build.builder", "is not a seat that may build after this turn")
    return SpecialBuildPhase(after, builder, building)


_A = TypeVar("_A")


def _action(value: object, where: str, kind: type[_A]) -> _A:
    try:
        action = action_from_json(value)
    except RulesError as exc:
        raise StateError(f"game state: {where}: {exc}") from exc
    if not isinstance(action, kind):
        _SHAPE.fail(where, f"must be a {kind.__name__} action")
    return action


def _load_board(game: GameState, read: _Reader) -> None:
    buildings = _SHAPE.items(read.get("buildings"), "buildings", max_len=game.topology.node_count)
    for i, value in enumerate(buildings):
        where = f"buildings[{i}]"
        b = _SHAPE.obj(value, where)
        node = read.node(_SHAPE.field(b, "node", where), f"{where}.node")
        game.node_owner[node] = read.seat(_SHAPE.field(b, "player", where), f"{where}.player")
        kind = _SHAPE.field(b, "kind", where)
        game.node_level[node] = _SHAPE.choice(kind, f"{where}.kind", _LEVEL_BY_NAME)
    roads = _SHAPE.items(read.get("roads"), "roads", max_len=game.topology.edge_count)
    for i, value in enumerate(roads):
        where = f"roads[{i}]"
        r = _SHAPE.obj(value, where)
        edge = _SHAPE.integer(
            _SHAPE.field(r, "edge", where), f"{where}.edge", 0, game.topology.edge_count - 1
        )
        game.edge_owner[edge] = read.seat(_SHAPE.field(r, "player", where), f"{where}.player")
    walls = _SHAPE.items(read.get("walls"), "walls", max_len=game.topology.node_count)
    for i, node in enumerate(walls):
        game.walls[read.node(node, f"walls[{i}]")] = True
    game.robber_hex = _SHAPE.integer(
        read.get("robber_hex"), "robber_hex", 0, game.topology.hex_count - 1
    )
    game.robber_unlocked = read.flag("robber_unlocked")
    game.robber_by_knight = read.flag("robber_by_knight")
    tokens = _SHAPE.sized(read.get("tokens"), "tokens", game.topology.hex_count)
    game.tokens = [
        None if t is None else _SHAPE.integer(t, f"tokens[{h}]", 2, 12)
        for h, t in enumerate(tokens)
    ]
    game.longest_road_holder = read.seat_or_nobody(
        read.get("longest_road_holder"), "longest_road_holder"
    )
    route = ROADS_PER_PLAYER + (SHIPS_PER_PLAYER if game.topology.has_sea else 0)
    game.road_length = read.per_seat("road_length", route)  # a sea board's trade route (§13.6)
    improvements = _SHAPE.obj(read.get("improvements"), "improvements")
    metropolis = _SHAPE.obj(read.get("metropolis"), "metropolis")
    for t in TRACKS:
        where = f"improvements.{t.value}"
        levels = _SHAPE.sized(_SHAPE.field(improvements, t.value, "improvements"), where, read.n)
        for p, level in enumerate(levels):
            game.improvements[p][t.index] = _SHAPE.integer(
                level, f"{where}[{p}]", 0, MAX_IMPROVEMENT_LEVEL
            )
        node = _SHAPE.field(metropolis, t.value, "metropolis")
        game.metropolis[t.index] = read.node_or_nobody(node, f"metropolis.{t.value}")


def _load_knights(game: GameState, read: _Reader) -> None:
    knights = _SHAPE.items(read.get("knights"), "knights", max_len=game.topology.node_count)
    for i, value in enumerate(knights):
        where = f"knights[{i}]"
        k = _SHAPE.obj(value, where)
        node = read.node(_SHAPE.field(k, "node", where), f"{where}.node")
        game.knight_owner[node] = read.seat(_SHAPE.field(k, "player", where), f"{where}.player")
        level = _SHAPE.field(k, "level", where)
        game.knight_level[node] = _SHAPE.integer(level, f"{where}.level", 1, MAX_KNIGHT_LEVEL)
        game.knight_active[node] = _SHAPE.boolean(
            _SHAPE.field(k, "active", where), f"{where}.active"
        )
        flags = _SHAPE.field(k, "flags", where)
        game.knight_flags[node] = _SHAPE.integer(flags, f"{where}.flags", 0, _KNIGHT_FLAGS)
    displaced = read.get("displaced")
    if displaced is not None:
        node, level, active, flags = _SHAPE.sized(displaced, "displaced", 4)
        game.displaced = (
            read.node(node, "displaced[0]"),
            _SHAPE.integer(level, "displaced[1]", 1, MAX_KNIGHT_LEVEL),
            _SHAPE.boolean(active, "displaced[2]"),
            _SHAPE.integer(flags, "displaced[3]", 0, _KNIGHT_FLAGS),
        )
    committed = _SHAPE.items(read.get("committed"), "committed", max_len=game.topology.node_count)
    game.committed = [read.node(x, f"committed[{i}]") for i, x in enumerate(committed)]


def _load_barbarians(game: GameState, read: _Reader) -> None:
    game.barbarian_position = read.count("barbarian_position", game.config.barbarian_track_length)
    game.barbarian_attacks = read.count("barbarian_attacks")
    game.defender_cards = read.per_seat("defender_cards", MAX_COUNT)
    attack = read.get("last_attack")
    if attack is not None:
        game.last_attack = _attack(attack, read)


def _attack(value: object, read: _Reader) -> BarbarianAttack:
    data = _SHAPE.obj(value, "last_attack")

    def seats(key: str) -> tuple[int, ...]:
        where = f"last_attack.{key}"
        items = _SHAPE.items(_SHAPE.field(data, key, "last_attack"), where, max_len=read.n)
        return tuple(read.seat(x, f"{where}[{i}]") for i, x in enumerate(items))

    field = _SHAPE.field(data, "defence", "last_attack")
    defence = _SHAPE.sized(field, "last_attack.defence", read.n)
    return BarbarianAttack(
        number=_SHAPE.integer(
            _SHAPE.field(data, "number", "last_attack"), "last_attack.number", 1, MAX_COUNT
        ),
        strength=_SHAPE.integer(
            _SHAPE.field(data, "strength", "last_attack"),
            "last_attack.strength",
            0,
            CITIES_PER_PLAYER * read.n,
        ),
        defence=tuple(
            _SHAPE.integer(x, f"last_attack.defence[{i}]", 0, MAX_COUNT)
            for i, x in enumerate(defence)
        ),
        defender=read.seat_or_nobody(
            _SHAPE.field(data, "defender", "last_attack"), "last_attack.defender"
        ),
        tied=seats("tied"),
        losers=seats("losers"),
    )


def _load_progress(game: GameState, read: _Reader) -> None:
    n = read.n
    decks = _SHAPE.obj(read.get("decks"), "decks")
    game.decks = [
        read.progress_cards(_SHAPE.field(decks, t.value, "decks"), f"decks.{t.value}")
        for t in TRACKS
    ]
    hands = _SHAPE.sized(read.get("progress_hands"), "progress_hands", n)
    game.progress_hands = [
        read.progress_cards(h, f"progress_hands[{p}]") for p, h in enumerate(hands)
    ]
    revealed = _SHAPE.sized(read.get("revealed_vp"), "revealed_vp", n)
    game.revealed_vp = [read.progress_cards(h, f"revealed_vp[{p}]") for p, h in enumerate(revealed)]
    merchant = _SHAPE.obj(read.get("merchant"), "merchant")
    hex_ = _SHAPE.field(merchant, "hex", "merchant")
    game.merchant_hex = _SHAPE.integer(hex_, "merchant.hex", NOBODY, game.topology.hex_count - 1)
    owner = _SHAPE.field(merchant, "player", "merchant")
    game.merchant_owner = read.seat_or_nobody(owner, "merchant.player")
    fleet = _SHAPE.items(read.get("fleet"), "fleet", max_len=len(Card))
    game.fleet = [read.card(c, f"fleet[{i}]") for i, c in enumerate(fleet)]
    alchemist = read.get("alchemist")
    if alchemist is not None:
        yellow, red = _SHAPE.sized(alchemist, "alchemist", 2)
        game.alchemist = (
            _SHAPE.integer(yellow, "alchemist[0]", 1, 6),
            _SHAPE.integer(red, "alchemist[1]", 1, 6),
        )
    game.card_target = read.seat_or_nobody(read.get("card_target"), "card_target")
    deserter = read.get("deserter")
    if deserter is not None:
        level, active = _SHAPE.sized(deserter, "deserter", 2)
        game.deserter = (
            _SHAPE.integer(level, "deserter[0]", 1, MAX_KNIGHT_LEVEL),
            _SHAPE.boolean(active, "deserter[1]"),
        )
    game.harbor_done = read.seats("harbor_done")
    game.harbor_open = "harbor_open" in read.data and read.flag("harbor_open")
    offer = read.get("harbor_offer")
    game.harbor_offer = None if offer is None else read.card(offer, "harbor_offer")
