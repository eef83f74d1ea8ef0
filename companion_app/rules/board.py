"""The board a table plays on: terrain and number token per hex, harbour per slot.

A ``Board`` is an immutable value on one of two islands (a :class:`Frame`: the base game's 19
hexes, or the 5-6 player extension's 30, §12); it owns its island's :class:`Topology`. Ids are
those of :mod:`companion_app.rules.topology` (hexes 0-18 and harbour slots 0-8, or hexes 0-29
and slots 0-10; ``docs/board.md`` draws them). Three ways to get one:

* :data:`STARTER_BOARD` -- the base game's well-known beginner layout (documented below);
* :func:`random_balanced_board` -- a seeded random board with no 6/8 next to each other and no
  equal numbers adjacent, the desert without a token;
* :func:`board_from_description` -- the board a table already laid out, validated with a clear
  error naming the first problem.

:func:`validate_board` holds the rules every board satisfies (rules reference §1 components,
§2 setup, §12 five and six players): 19 land hexes with the terrain counts of
``TERRAIN_COUNTS``, the 18 number tokens of ``NUMBER_TOKENS`` on the 18 hexes that are not the
desert, the 9 harbours of ``HARBOUR_COUNTS`` (on 30 hexes the ``_LARGE`` tables: 2 deserts, 28
tokens, 11 harbours), and never a 6 or an 8 next to another 6 or 8. Equal numbers next to each
other are allowed on a table's own board; only the generator avoids them.

A board the table could lay out but the rules refuse (counts, tokens, red numbers, the robber's
desert) is named in a message the build-table screen shows in the table's language.

Developer words: a file's broken shape (sizes, types, the JSON positions such as
``terrains[3]``) is named in English, for the engineer; a test holds every problem a table can
enter to a message.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from companion_app.rules import seamap
from companion_app.rules.cards import (
    HARBOUR_COUNTS,
    HARBOUR_COUNTS_LARGE,
    ISLAND_TERRAINS,
    LARGE_GAME_PLAYERS,
    NUMBER_TOKENS,
    NUMBER_TOKENS_LARGE,
    TERRAIN_COUNTS,
    TERRAIN_COUNTS_LARGE,
    TERRAIN_WORDS,
    Harbour,
    Terrain,
)
from companion_app.rules.errors import BoardError
from companion_app.rules.jsonshape import Shape
from companion_app.rules.messages import Msg, msg, nmsg
from companion_app.rules.rng import SplitMix64
from companion_app.rules.seamap import SeaMap
from companion_app.rules.topology import ISLAND_19, Topology

_K = TypeVar("_K")

RED_NUMBERS: frozenset[int] = frozenset({6, 8})
"""The numbers printed in red: the likeliest rolls, never on neighbouring hexes."""

_TOKEN_VALUES = frozenset(NUMBER_TOKENS)


def _spiral(topology: Topology) -> tuple[int, ...]:
    """The hexes from the middle outward, ring by ring, each ring clockwise from the top."""

    def key(h: int) -> tuple[int, float]:
        x, y = topology.hex_xy[h]
        return topology.hex_distance2(h), (math.atan2(x * math.sqrt(3), -y) + 2 * math.pi) % (
            2 * math.pi
        )

    return tuple(sorted(range(topology.hex_count), key=key))


@dataclass(frozen=True, eq=False, slots=True)
class Frame:
    """One island and what lies on it: its topology and its pieces (§1, §12). One value per
    island (compared by identity): :data:`FRAME_19` and :data:`FRAME_30`."""

    topology: Topology
    terrain_counts: Mapping[Terrain, int]
    number_tokens: tuple[int, ...]
    harbour_counts: Mapping[Harbour, int]
    players: tuple[int, ...]
    """The player counts that play on it."""
    spiral: tuple[int, ...]
    """The order the generator deals the tokens that are not red: from the middle outward, so
    each hex meets its already-numbered neighbours early and dead ends show up near the top
    of the search."""
    sea_map: SeaMap | None = None
    """The printed sea map this frame is (§13.11); None for the islands."""

    @property
    def token_counts(self) -> Counter[int]:
        return Counter(self.number_tokens)

    @property
    def adjacent_pairs(self) -> tuple[tuple[int, int], ...]:
        neighbours = self.topology.hex_neighbours
        return tuple((a, b) for a in range(len(neighbours)) for b in sorted(neighbours[a]) if a < b)


FRAME_19 = Frame(
    ISLAND_19,
    TERRAIN_COUNTS,
    NUMBER_TOKENS,
    HARBOUR_COUNTS,
    (3, 4),
    (9, 4, 5, 10, 14, 13, 8, 1, 2, 6, 11, 15, 18, 17, 16, 12, 7, 3, 0),
)
"""The base game's island (§1): 19 hexes, 18 tokens, 9 harbours."""
FRAME_30: Frame
"""The 5-6 player extension's island (§12): 30 hexes, 28 tokens, 11 harbours. Made on first
use, with its topology: only a game of 5 or 6 needs it."""
FRAMES: dict[int, Frame]
"""Each island's frame by its number of land hexes."""
SEA_FRAMES: dict[str, Frame]
"""Each sea map's frame by the map's name (§13.11): its counts are the printed map's. Made on
first use, with the maps (:mod:`~companion_app.rules.seamap`): only a sea game needs them."""


@cache
def _sea_frames() -> dict[str, Frame]:
    return {
        m.name: Frame(
            m.topology,
            m.terrain_counts,
            m.number_tokens,
            m.harbour_counts,
            (m.players,),
            _spiral(m.topology),
            m,
        )
        for m in seamap.SEA_MAPS.values()
    }


@cache
def _frame_30() -> Frame:
    from companion_app.rules.topology import ISLAND_30  # built on its first use

    return Frame(
        ISLAND_30,
        TERRAIN_COUNTS_LARGE,
        NUMBER_TOKENS_LARGE,
        HARBOUR_COUNTS_LARGE,
        (5, 6),
        _spiral(ISLAND_30),
    )


@cache
def _frames() -> dict[int, Frame]:
    return {f.topology.hex_count: f for f in (FRAME_19, _frame_30())}


def _island_frame(hexes: int) -> Frame | None:
    """The island of ``hexes`` land hexes, if any; the 30-hex one is made only when asked for."""
    return FRAME_19 if hexes == FRAME_19.topology.hex_count else _frames().get(hexes)


_MADE_ON_USE: dict[str, Callable[[], object]] = {
    "FRAME_30": _frame_30,
    "FRAMES": _frames,
    "SEA_FRAMES": _sea_frames,
}


def __getattr__(name: str) -> object:
    """``FRAME_30``, ``FRAMES`` and ``SEA_FRAMES``, made on first use and kept as the module's
    own names from then on."""
    make = _MADE_ON_USE.get(name)
    if make is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = make()
    return value


def frame_for_players(players: int) -> Frame:
    """The island a game of ``players`` is played on: 19 hexes for 3-4, 30 for 5-6 (§12)."""
    return _frame_30() if players >= LARGE_GAME_PLAYERS else FRAME_19


@dataclass(frozen=True, slots=True)
class Board:
    """Terrain and token per hex id (0-18 or 0-29), harbour per harbour slot (0-8 or 0-10).

    ``tokens[h]`` is the number on hex ``h``, ``None`` for a desert. Constructing a ``Board``
    checks nothing; :func:`validate_board` does, and every public way to get one calls it.
    """

    terrains: tuple[Terrain, ...]
    tokens: tuple[int | None, ...]
    harbours: tuple[Harbour, ...]
    robber_start: int | None = None
    """The desert the table chose for the robber on a 30-hex board (§12); None for the rule's
    own (:meth:`desert_hex`), and always None on 19 hexes (one desert) and on a sea map (the
    map says where it starts)."""
    sea_map: str | None = None
    """The name of the sea map the board lies on (``SEA_MAPS``, §13.11); None on an island."""

    @property
    def frame(self) -> Frame:
        """The island or sea map the board lies on (a validated board's size or map names
        one)."""
        if self.sea_map is not None:
            return _sea_frames()[self.sea_map]
        hexes = len(self.terrains)
        return FRAME_19 if hexes == FRAME_19.topology.hex_count else _frames()[hexes]

    @property
    def topology(self) -> Topology:
        return self.frame.topology

    @property
    def deserts(self) -> tuple[int, ...]:
        return tuple(h for h, t in enumerate(self.terrains) if t is Terrain.DESERT)

    @property
    def desert_hex(self) -> int:
        """Where the robber starts (§2): the desert; of two (§12) the table's choice, else the
        one nearer the middle (the first in reading order if both are as near); on a sea map
        without a desert where the map puts it (§13.11, R25)."""
        if self.robber_start is not None:
            return self.robber_start
        sea = self.frame.sea_map
        if sea is not None:  # the desert, or where the map puts the robber without one
            deserts = self.deserts
            return deserts[0] if len(deserts) == 1 else sea.robber_start
        deserts = self.deserts
        if len(deserts) == 1:
            return deserts[0]
        topology = self.topology
        return min(deserts, key=lambda h: (topology.hex_distance2(h), h))

    def hexes_with_token(self, number: int) -> tuple[int, ...]:
        """The hexes showing ``number``, in id order (empty for 7 or a number no token shows)."""
        return tuple(h for h, t in enumerate(self.tokens) if t == number)

    def to_json(self) -> dict[str, Any]:
        """Compact JSON: three lists indexed by hex id and harbour slot (and ``robber``, the
        table's choice of desert, only when there is one; ``map``, the sea map, only on one)."""
        data: dict[str, Any] = {} if self.sea_map is None else {"map": self.sea_map}
        data |= {
            "terrains": [t.value for t in self.terrains],
            "tokens": list(self.tokens),
            "harbours": [h.value for h in self.harbours],
        }
        if self.robber_start is not None:
            data["robber"] = self.robber_start
        return data

    @classmethod
    def from_json(cls, data: object) -> Board:
        """The inverse of :meth:`to_json`, validated.

        :raises BoardError: naming the first problem.
        """
        board_data = _SHAPE.obj(data, "the board")
        terrains = tuple(
            _SHAPE.choice(t, f"terrains[{i}]", _TERRAINS)
            for i, t in enumerate(_json_list(board_data, "terrains"))
        )
        tokens = tuple(
            None if t is None else _SHAPE.integer(t, f"tokens[{i}]", 0, 99)
            for i, t in enumerate(_json_list(board_data, "tokens"))
        )
        harbours = tuple(
            _SHAPE.choice(h, f"harbours[{i}]", _HARBOURS)
            for i, h in enumerate(_json_list(board_data, "harbours"))
        )
        robber = board_data.get("robber")
        start = None if robber is None else _SHAPE.integer(robber, "robber", 0, 99)
        sea_map = board_data.get("map")
        if sea_map is not None:
            _SHAPE.choice(sea_map, "map", _sea_frames())
        board = cls(terrains, tokens, harbours, start, sea_map)
        validate_board(board)
        return board


def _json_list(data: Mapping[str, Any], key: str) -> list[Any]:
    return _SHAPE.items(_SHAPE.field(data, key, ""), key, max_len=100)


_SHAPE = Shape(BoardError, "board JSON is malformed: ")
_TERRAINS = {t.value: t for t in Terrain}
_HARBOURS = {h.value: h for h in Harbour}


# --------------------------------------------------------------------------------------------
# Validation


def _terrain_count(terrain: Terrain, count: int, expected: int) -> Msg:
    return nmsg(
        "{terrain}: {count} hex, a board has {expected}",
        "{terrain}: {count} hexes, a board has {expected}",
        count,
        terrain=TERRAIN_WORDS[terrain],
        expected=expected,
    )


def _token_count(number: int, count: int, expected: int) -> Msg:
    return nmsg(
        "number {number}: {count} token, a board has {expected}",
        "number {number}: {count} tokens, a board has {expected}",
        count,
        number=number,
        expected=expected,
    )


def _harbour_count(harbour: Harbour, count: int, expected: int) -> Msg:
    return msg(
        "{harbour}: {count} on the table, a board has {expected}",
        harbour=harbour.words,
        count=count,
        expected=expected,
    )


def _check_counts(
    have: Counter[_K], expected: Mapping[_K, int], problem: Callable[[_K, int, int], Msg]
) -> None:
    """Name a kind there is too much of first (that piece lies on the table), then a shortage."""
    wrong = [k for k in expected if have[k] != expected[k]]
    wrong.sort(key=lambda k: have[k] < expected[k])
    if wrong:
        k = wrong[0]
        raise BoardError(problem(k, have[k], expected[k]))


def validate_board(board: Board) -> None:
    """Check that ``board`` could lie on a table: the rules of §1 (components) and §2 (setup).

    The checks run from the most basic to the most specific, and the first failing one raises:

    1. sizes: 19 terrains, 19 token entries, 9 harbours;
    2. every entry has the right type (a ``Terrain``, an int or ``None``, a ``Harbour``);
    3. terrain counts (``TERRAIN_COUNTS``): 3 hills, 4 forest, 4 pasture, 4 fields,
       3 mountains, 1 desert (a kind there is too much of is named before one that is short,
       here and for tokens and harbours);
    4. hex by hex: the token exists (2-6, 8-12), the desert has none, every other hex has one;
    5. token counts (``NUMBER_TOKENS``): one 2 and one 12, two of each other number;
    6. harbour counts (``HARBOUR_COUNTS``): 4 generic 3:1, one 2:1 per resource;
    7. no 6 or 8 on a hex next to another 6 or 8 (6-6, 8-8 and 6-8 alike).

    :raises BoardError: naming the first problem, e.g. ``"hills: 4 hexes, a board has 3"`` or
        ``"hexes 4 and 5 are next to each other and both show a red number (6 and 8); ..."``.
    """
    frame = _check_sizes(board)
    _check_types(board)
    _check_sea(board, frame)
    _check_counts(Counter(board.terrains), frame.terrain_counts, _terrain_count)
    _check_tokens_per_hex(board)
    tokens = Counter(t for t in board.tokens if t is not None)
    _check_counts(tokens, frame.token_counts, _token_count)
    _check_counts(Counter(board.harbours), frame.harbour_counts, _harbour_count)
    _check_robber_start(board)
    for a, b in frame.adjacent_pairs:
        ta, tb = board.tokens[a], board.tokens[b]
        if ta in RED_NUMBERS and tb in RED_NUMBERS:
            raise BoardError(
                msg(
                    "hexes {a} and {b} are next to each other and both show a red number "
                    "({ta} and {tb}); a 6 or an 8 must not touch another 6 or 8",
                    a=a,
                    b=b,
                    ta=ta,
                    tb=tb,
                )
            )


def _check_sizes(board: Board) -> Frame:
    if board.sea_map is not None:
        sea_frames = _sea_frames()
        frame = sea_frames.get(board.sea_map)
        if frame is None:
            raise BoardError(f"{board.sea_map!r} is no sea map; the maps are {sorted(sea_frames)}")
    else:
        frame = _island_frame(len(board.terrains))
    if frame is None:
        raise BoardError(
            f"a board has 19 land hexes (30 with 5-6 players), but {len(board.terrains)} "
            "terrains are given"
        )
    hexes, harbours = frame.topology.hex_count, frame.topology.harbour_count
    if len(board.tokens) != hexes:
        raise BoardError(
            f"a board has {hexes} land hexes, but {len(board.tokens)} token entries are given"
        )
    if len(board.harbours) != harbours:
        raise BoardError(f"a board has {harbours} harbours, but {len(board.harbours)} are given")
    return frame


def _check_robber_start(board: Board) -> None:
    start = board.robber_start
    if start is None:
        return
    if len(board.deserts) < 2 or start not in board.deserts:
        raise BoardError(
            msg(
                "the robber starts on a desert the table chooses only on a board with two "
                "deserts, and hex {hex} is not one of them",
                hex=start,
            )
        )


def _check_types(board: Board) -> None:
    island = board.sea_map is None
    for h, terrain in enumerate(board.terrains):
        if not isinstance(terrain, Terrain):
            raise BoardError(f"hex {h}: {terrain!r} is not a terrain")
        if island and terrain not in ISLAND_TERRAINS:
            raise BoardError(f"hex {h}: an island has no {terrain.value} (only a sea map has)")
    for h, token in enumerate(board.tokens):
        if token is not None and (not isinstance(token, int) or isinstance(token, bool)):
            raise BoardError(f"hex {h}: the token must be a number or None, got {token!r}")
    for s, harbour in enumerate(board.harbours):
        if not isinstance(harbour, Harbour):
            raise BoardError(f"harbour slot {s}: {harbour!r} is not a harbour")


def _check_sea(board: Board, frame: Frame) -> None:
    """A sea map's sea hexes are where the map has them (§13.11, R27: the same map)."""
    if frame.sea_map is None:
        return
    printed = frame.sea_map.terrains
    for h, terrain in enumerate(board.terrains):
        if (terrain is Terrain.SEA) == (printed[h] is Terrain.SEA):
            continue
        if terrain is Terrain.SEA:
            raise BoardError(msg("hex {hex} is land on this map, not sea", hex=h))
        raise BoardError(
            msg(
                "hex {hex} is sea on this map, not {terrain}", hex=h, terrain=TERRAIN_WORDS[terrain]
            )
        )


def _check_tokens_per_hex(board: Board) -> None:
    for h, (terrain, token) in enumerate(zip(board.terrains, board.tokens, strict=True)):
        if terrain is Terrain.SEA:
            if token is not None:
                raise BoardError(
                    msg(
                        "hex {hex}: a sea hex has no number token (it has {token})",
                        hex=h,
                        token=token,
                    )
                )
            continue
        if token is not None and token not in _TOKEN_VALUES:
            raise BoardError(
                msg(
                    "hex {hex}: token {token} does not exist; the tokens show 2-6 and 8-12",
                    hex=h,
                    token=token,
                )
            )
        if terrain is Terrain.DESERT and token is not None:
            raise BoardError(
                msg(
                    "hex {hex}: the desert must not have a number token (it has {token})",
                    hex=h,
                    token=token,
                )
            )
        if terrain is not Terrain.DESERT and token is None:
            raise BoardError(
                msg(
                    "hex {hex} ({terrain}) has no number token; every hex except the desert "
                    "has one",
                    hex=h,
                    terrain=TERRAIN_WORDS[terrain],
                )
            )


# --------------------------------------------------------------------------------------------
# The starter layout

# The base game's beginner layout, row by row from the top (hex ids 0-18).
_STARTER = (
    (Terrain.MOUNTAINS, 10), (Terrain.PASTURE, 2), (Terrain.FOREST, 9),
    (Terrain.FIELDS, 12), (Terrain.HILLS, 6), (Terrain.PASTURE, 4), (Terrain.HILLS, 10),
    (Terrain.FIELDS, 9), (Terrain.FOREST, 11), (Terrain.DESERT, None), (Terrain.FOREST, 3),
    (Terrain.MOUNTAINS, 8),
    (Terrain.FOREST, 8), (Terrain.MOUNTAINS, 3), (Terrain.FIELDS, 4), (Terrain.PASTURE, 5),
    (Terrain.HILLS, 5), (Terrain.FIELDS, 6), (Terrain.PASTURE, 11),
)  # fmt: skip
_STARTER_HARBOURS = (
    Harbour.GENERIC, Harbour.WOOL, Harbour.GENERIC, Harbour.GENERIC, Harbour.BRICK,
    Harbour.LUMBER, Harbour.GENERIC, Harbour.GRAIN, Harbour.ORE,
)  # fmt: skip

STARTER_BOARD = Board(
    tuple(t for t, _ in _STARTER), tuple(n for _, n in _STARTER), _STARTER_HARBOURS
)
"""The beginner layout::

    row 1:          mountains 10, pasture 2, forest 9
    row 2:       fields 12, hills 6, pasture 4, hills 10
    row 3:  fields 9, forest 11, desert, forest 3, mountains 8
    row 4:       forest 8, mountains 3, fields 4, pasture 5
    row 5:          hills 5, fields 6, pasture 11

Harbours clockwise from the top left (slots 0-8): 3:1, wool, 3:1, 3:1, brick, lumber, 3:1,
grain, ore.
"""
validate_board(STARTER_BOARD)


# --------------------------------------------------------------------------------------------
# The seeded balanced generator

_NODE_BUDGET = 200
_BUDGETED_ATTEMPTS = 8


class _OutOfBudgetError(Exception):
    pass


def random_balanced_board(seed: int, frame: Frame = FRAME_19) -> Board:
    """A random board for ``seed`` on ``frame`` (19 hexes unless told): the same seed always
    gives the same board.

    Beyond :func:`validate_board` the board is *balanced*: no two neighbouring hexes show the
    same number (and, as on every board, no 6 or 8 touches another 6 or 8). The desert has no
    token. Terrains and harbours are shuffled uniformly; every balanced token layout can come
    out, though not all with the same probability. Only the low 64 bits of ``seed`` matter.
    On 30 hexes the robber starts on the desert nearer the middle (§12, :attr:`Board.desert_hex`).

    The tokens are dealt by a randomised backtracking search: first the four red tokens on
    hexes not touching each other, then the others along a spiral from the centre, each hex
    trying the numbers still in the bag in a random order (weighted by how many are left).
    A search that needs more than 200 steps restarts with fresh random choices (up to 8 times);
    the last attempt is unlimited, and since the search is exhaustive and a balanced layout
    exists for every desert position it always ends. In practice the first attempt ends within
    60 steps (about 0.15 ms per board; ``docs/board.md`` has the measurements).
    """
    rng = SplitMix64(seed)
    terrains = [t for t, n in frame.terrain_counts.items() for _ in range(n)]
    rng.shuffle(terrains)
    harbours = [h for h, n in frame.harbour_counts.items() for _ in range(n)]
    rng.shuffle(harbours)
    deserts = frozenset(h for h, t in enumerate(terrains) if t is Terrain.DESERT)
    tokens = _balanced_tokens(rng, frame, deserts)
    board = Board(tuple(terrains), tokens, tuple(harbours))
    validate_board(board)
    return board


def _balanced_tokens(
    rng: SplitMix64, frame: Frame, deserts: frozenset[int]
) -> tuple[int | None, ...]:
    for _ in range(_BUDGETED_ATTEMPTS):
        try:
            return _deal_tokens(rng.below, frame, deserts, _NODE_BUDGET)
        except _OutOfBudgetError:
            continue
    return _deal_tokens(rng.below, frame, deserts, None)


def _deal_tokens(  # noqa: C901 - one backtracking search, clearer in one piece
    below: Callable[[int], int], frame: Frame, deserts: frozenset[int], budget: int | None
) -> tuple[int | None, ...]:
    """One backtracking search; ``below(n)`` picks in [0, n). Raises _OutOfBudgetError."""
    neighbours = frame.topology.hex_neighbours
    hex_count = frame.topology.hex_count
    red_bag = tuple(t for t in frame.number_tokens if t in RED_NUMBERS)
    other_bag = tuple(t for t in frame.number_tokens if t not in RED_NUMBERS)
    tokens: list[int | None] = [None] * hex_count
    steps = 0

    def step() -> None:
        nonlocal steps
        steps += 1
        if budget is not None and steps > budget:
            raise _OutOfBudgetError

    def red_ok(h: int) -> bool:
        return tokens[h] is None and all(tokens[n] not in RED_NUMBERS for n in neighbours[h])

    def place_reds(k: int) -> bool:
        if k == len(red_bag):
            return place_others(0, list(other_bag))
        free = [h for h in range(hex_count) if h not in deserts and red_ok(h)]
        while free:
            step()
            h = free.pop(below(len(free)))
            tokens[h] = red_bag[k]
            if place_reds(k + 1):
                return True
            tokens[h] = None
        return False

    order = [h for h in frame.spiral if h not in deserts]

    def place_others(i: int, bag: list[int]) -> bool:
        while i < len(order) and tokens[order[i]] is not None:
            i += 1
        if i == len(order):
            return True
        h = order[i]
        taken = {tokens[n] for n in neighbours[h]}
        # Draw from the bag without replacement: each number tried once, likelier when more
        # of it is left.
        pool = list(bag)
        tried: set[int] = set()
        while pool:
            number = pool.pop(below(len(pool)))
            if number in tried:
                continue
            tried.add(number)
            step()
            if number in taken:
                continue
            tokens[h] = number
            bag.remove(number)
            if place_others(i + 1, bag):
                return True
            bag.append(number)
            tokens[h] = None
        return False

    if not place_reds(0):  # pragma: no cover - a balanced layout exists for every desert hex
        raise AssertionError(f"no balanced token layout with the deserts on {sorted(deserts)}")
    return tuple(tokens)


# --------------------------------------------------------------------------------------------
# Sea boards (§13)


def sea_board(sea_map: SeaMap, seed: int) -> Board:
    """The board of a printed sea map (§13.11): its terrain and tokens as printed, its harbours
    fixed or, where the map shuffles them, dealt onto the spots by ``seed`` (R27). Not checked
    again by :func:`validate_board` on every new game: the printed map and its harbour counts
    make it valid whatever the seed (a test holds every map to it)."""
    if sea_map.harbours is not None:
        harbours = list(sea_map.harbours)
    else:
        harbours = [h for h, n in sea_map.harbour_counts.items() for _ in range(n)]
        SplitMix64(seed).shuffle(harbours)
    return Board(sea_map.terrains, sea_map.tokens, tuple(harbours), sea_map=sea_map.name)
