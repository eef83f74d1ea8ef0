"""The board a table plays on: terrain and number token per hex, harbour per slot.

A ``Board`` is an immutable value. Ids are those of :mod:`companion_app.rules.topology`
(hexes 0-18, harbour slots 0-8; ``docs/board.md`` draws them). Three ways to get one:

* :data:`STARTER_BOARD` -- the base game's well-known beginner layout (documented below);
* :func:`random_balanced_board` -- a seeded random board with no 6/8 next to each other and no
  equal numbers adjacent, the desert without a token;
* :func:`board_from_description` -- the board a table already laid out, validated with a clear
  error naming the first problem.

:func:`validate_board` holds the rules every board satisfies (rules reference §1 components,
§2 setup): 19 land hexes with the terrain counts of ``TERRAIN_COUNTS``, the 18 number tokens of
``NUMBER_TOKENS`` on the 18 hexes that are not the desert, the 9 harbours of
``HARBOUR_COUNTS``, and never a 6 or an 8 next to another 6 or 8. Equal numbers next to each
other are allowed on a table's own board; only the generator avoids them.

Developer words: a board's problems are still named in English (a file's, and the build-table
screen shows them as they are): the next module to speak in messages.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from companion_app.rules.cards import (
    HARBOUR_COUNTS,
    NUMBER_TOKENS,
    TERRAIN_COUNTS,
    Harbour,
    Terrain,
)
from companion_app.rules.errors import BoardError
from companion_app.rules.jsonshape import Shape
from companion_app.rules.rng import SplitMix64
from companion_app.rules.topology import HARBOUR_COUNT, HEX_COUNT, HEX_NEIGHBOURS

_K = TypeVar("_K")

RED_NUMBERS: frozenset[int] = frozenset({6, 8})
"""The numbers printed in red: the likeliest rolls, never on neighbouring hexes."""

_TOKEN_VALUES = frozenset(NUMBER_TOKENS)
_TOKEN_COUNTS = Counter(NUMBER_TOKENS)
_ADJACENT_PAIRS: tuple[tuple[int, int], ...] = tuple(
    (a, b) for a in range(HEX_COUNT) for b in sorted(HEX_NEIGHBOURS[a]) if a < b
)
_HEX_RANGE = f"0-{HEX_COUNT - 1}"
_SLOT_RANGE = f"0-{HARBOUR_COUNT - 1}"
_TOKEN_RANGE = "2-6 and 8-12"


@dataclass(frozen=True, slots=True)
class Board:
    """Terrain and token per hex id (0-18), harbour per harbour slot (0-8).

    ``tokens[h]`` is the number on hex ``h``, ``None`` for the desert. Constructing a ``Board``
    checks nothing; :func:`validate_board` does, and every public way to get one calls it.
    """

    terrains: tuple[Terrain, ...]
    tokens: tuple[int | None, ...]
    harbours: tuple[Harbour, ...]

    @property
    def desert_hex(self) -> int:
        """The desert's hex id (where the robber starts, §2)."""
        return self.terrains.index(Terrain.DESERT)

    def hexes_with_token(self, number: int) -> tuple[int, ...]:
        """The hexes showing ``number``, in id order (empty for 7 or a number no token shows)."""
        return tuple(h for h, t in enumerate(self.tokens) if t == number)

    def to_json(self) -> dict[str, Any]:
        """Compact JSON: three lists indexed by hex id and harbour slot."""
        return {
            "terrains": [t.value for t in self.terrains],
            "tokens": list(self.tokens),
            "harbours": [h.value for h in self.harbours],
        }

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
        board = cls(terrains, tokens, harbours)
        validate_board(board)
        return board


def _json_list(data: Mapping[str, Any], key: str) -> list[Any]:
    return _SHAPE.items(_SHAPE.field(data, key, ""), key, max_len=100)


_SHAPE = Shape(BoardError, "board JSON is malformed: ")
_TERRAINS = {t.value: t for t in Terrain}
_HARBOURS = {h.value: h for h in Harbour}


# --------------------------------------------------------------------------------------------
# Validation


def _there_are(count: int, what: str, plural: str) -> str:
    if count == 0:
        return f"there is no {what}"
    if count == 1:
        return f"there is 1 {what}"
    return f"there are {count} {plural}"


def _terrain_noun(terrain: Terrain) -> tuple[str, str]:
    return f"{terrain.value} hex", f"{terrain.value} hexes"


def _token_noun(number: int) -> tuple[str, str]:
    return f"token showing {number}", f"tokens showing {number}"


def _harbour_noun(harbour: Harbour) -> tuple[str, str]:
    name = "generic (3:1)" if harbour is Harbour.GENERIC else harbour.value
    return f"{name} harbour", f"{name} harbours"


def _check_counts(
    have: Counter[_K], expected: Mapping[_K, int], noun: Callable[[_K], tuple[str, str]]
) -> None:
    """Name a kind there is too much of first (that piece lies on the table), then a shortage."""
    wrong = [k for k in expected if have[k] != expected[k]]
    wrong.sort(key=lambda k: have[k] < expected[k])
    if wrong:
        k = wrong[0]
        singular, plural = noun(k)
        raise BoardError(f"{_there_are(have[k], singular, plural)}, a board has {expected[k]}")


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

    :raises BoardError: naming the first problem, e.g. ``"there are 4 hills hexes, a board has
        3"`` or ``"hexes 4 and 5 are next to each other and both show a red number (6 and 8)"``.
    """
    _check_sizes(board)
    _check_types(board)
    _check_counts(Counter(board.terrains), TERRAIN_COUNTS, _terrain_noun)
    _check_tokens_per_hex(board)
    _check_counts(Counter(t for t in board.tokens if t is not None), _TOKEN_COUNTS, _token_noun)
    _check_counts(Counter(board.harbours), HARBOUR_COUNTS, _harbour_noun)
    for a, b in _ADJACENT_PAIRS:
        ta, tb = board.tokens[a], board.tokens[b]
        if ta in RED_NUMBERS and tb in RED_NUMBERS:
            raise BoardError(
                f"hexes {a} and {b} are next to each other and both show a red number "
                f"({ta} and {tb}); a 6 or an 8 must not touch another 6 or 8"
            )


def _check_sizes(board: Board) -> None:
    if len(board.terrains) != HEX_COUNT:
        raise BoardError(
            f"a board has {HEX_COUNT} land hexes, but {len(board.terrains)} terrains are given"
        )
    if len(board.tokens) != HEX_COUNT:
        raise BoardError(
            f"a board has {HEX_COUNT} land hexes, but {len(board.tokens)} token entries are given"
        )
    if len(board.harbours) != HARBOUR_COUNT:
        raise BoardError(
            f"a board has {HARBOUR_COUNT} harbours, but {len(board.harbours)} are given"
        )


def _check_types(board: Board) -> None:
    for h, terrain in enumerate(board.terrains):
        if not isinstance(terrain, Terrain):
            raise BoardError(f"hex {h}: {terrain!r} is not a terrain")
    for h, token in enumerate(board.tokens):
        if token is not None and (not isinstance(token, int) or isinstance(token, bool)):
            raise BoardError(f"hex {h}: the token must be a number or None, got {token!r}")
    for s, harbour in enumerate(board.harbours):
        if not isinstance(harbour, Harbour):
            raise BoardError(f"harbour slot {s}: {harbour!r} is not a harbour")


def _check_tokens_per_hex(board: Board) -> None:
    for h, (terrain, token) in enumerate(zip(board.terrains, board.tokens, strict=True)):
        if token is not None and token not in _TOKEN_VALUES:
            raise BoardError(
                f"hex {h}: token {token} does not exist; the tokens show {_TOKEN_RANGE}"
            )
        if terrain is Terrain.DESERT and token is not None:
            raise BoardError(f"hex {h}: the desert must not have a number token (it has {token})")
        if terrain is not Terrain.DESERT and token is None:
            raise BoardError(
                f"hex {h} ({terrain.value}) has no number token; "
                "every hex except the desert has one"
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

_TERRAIN_BAG: tuple[Terrain, ...] = tuple(t for t, n in TERRAIN_COUNTS.items() for _ in range(n))
_HARBOUR_BAG: tuple[Harbour, ...] = tuple(h for h, n in HARBOUR_COUNTS.items() for _ in range(n))
_RED_BAG: tuple[int, ...] = tuple(t for t in NUMBER_TOKENS if t in RED_NUMBERS)
_OTHER_BAG: tuple[int, ...] = tuple(t for t in NUMBER_TOKENS if t not in RED_NUMBERS)
# The order the non-red tokens are dealt: a spiral from the centre outward, so each hex meets
# its already-numbered neighbours early and dead ends show up near the top of the search.
_SPIRAL: tuple[int, ...] = (9, 4, 5, 10, 14, 13, 8, 1, 2, 6, 11, 15, 18, 17, 16, 12, 7, 3, 0)
_NODE_BUDGET = 200
_BUDGETED_ATTEMPTS = 8


class _OutOfBudgetError(Exception):
    pass


def random_balanced_board(seed: int) -> Board:
    """A random board for ``seed``: the same seed always gives the same board.

    Beyond :func:`validate_board` the board is *balanced*: no two neighbouring hexes show the
    same number (and, as on every board, no 6 or 8 touches another 6 or 8). The desert has no
    token. Terrains and harbours are shuffled uniformly; every balanced token layout can come
    out, though not all with the same probability. Only the low 64 bits of ``seed`` matter.

    The tokens are dealt by a randomised backtracking search: first the four red tokens on
    hexes not touching each other, then the others along a spiral from the centre, each hex
    trying the numbers still in the bag in a random order (weighted by how many are left).
    A search that needs more than 200 steps restarts with fresh random choices (up to 8 times);
    the last attempt is unlimited, and since the search is exhaustive and a balanced layout
    exists for every desert position it always ends. In practice the first attempt ends within
    60 steps (about 0.15 ms per board; ``docs/board.md`` has the measurements).
    """
    rng = SplitMix64(seed)
    terrains = list(_TERRAIN_BAG)
    rng.shuffle(terrains)
    harbours = list(_HARBOUR_BAG)
    rng.shuffle(harbours)
    tokens = _balanced_tokens(rng, terrains.index(Terrain.DESERT))
    board = Board(tuple(terrains), tokens, tuple(harbours))
    validate_board(board)
    return board


def _balanced_tokens(rng: SplitMix64, desert: int) -> tuple[int | None, ...]:
    for _ in range(_BUDGETED_ATTEMPTS):
        try:
            return _deal_tokens(rng.below, desert, _NODE_BUDGET)
        except _OutOfBudgetError:
            continue
    return _deal_tokens(rng.below, desert, None)


def _deal_tokens(  # noqa: C901 - one backtracking search, clearer in one piece
    below: Callable[[int], int], desert: int, budget: int | None
) -> tuple[int | None, ...]:
    """One backtracking search; ``below(n)`` picks in [0, n). Raises _OutOfBudgetError."""
    tokens: list[int | None] = [None] * HEX_COUNT
    steps = 0

    def step() -> None:
        nonlocal steps
        steps += 1
        if budget is not None and steps > budget:
            raise _OutOfBudgetError

    def red_ok(h: int) -> bool:
        return tokens[h] is None and all(tokens[n] not in RED_NUMBERS for n in HEX_NEIGHBOURS[h])

    def place_reds(k: int) -> bool:
        if k == len(_RED_BAG):
            return place_others(0, list(_OTHER_BAG))
        free = [h for h in range(HEX_COUNT) if h != desert and red_ok(h)]
        while free:
            step()
            h = free.pop(below(len(free)))
            tokens[h] = _RED_BAG[k]
            if place_reds(k + 1):
                return True
            tokens[h] = None
        return False

    order = [h for h in _SPIRAL if h != desert]

    def place_others(i: int, bag: list[int]) -> bool:
        while i < len(order) and tokens[order[i]] is not None:
            i += 1
        if i == len(order):
            return True
        h = order[i]
        taken = {tokens[n] for n in HEX_NEIGHBOURS[h]}
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
        raise AssertionError(f"no balanced token layout with the desert on hex {desert}")
    return tuple(tokens)


# --------------------------------------------------------------------------------------------
# A table's own board, described per position

_DESCRIPTION_KEYS = ("hexes", "harbours")
_HEX_KEYS = ("hex", "terrain", "token")
_SLOT_KEYS = ("slot", "harbour")
_TERRAIN_NAMES = ", ".join(t.value for t in Terrain)
_HARBOUR_NAMES = ", ".join(h.value for h in Harbour)
_HARBOUR_ALIASES: dict[str, Harbour] = {h.value: h for h in Harbour} | {
    h.name.lower(): h for h in Harbour
}


def board_from_description(description: Mapping[str, Any]) -> Board:
    """The board a table already laid out, entered position by position.

    The description (JSON-shaped) lists every hex and every harbour slot once, in any order::

        {
          "hexes": [
            {"hex": 0, "terrain": "mountains", "token": 10},
            {"hex": 1, "terrain": "pasture", "token": 2},
            ...
            {"hex": 9, "terrain": "desert", "token": null},
            ...                                    (19 entries, hexes 0-18)
          ],
          "harbours": [
            {"slot": 0, "harbour": "3:1"},
            {"slot": 1, "harbour": "wool"},
            ...                                    (9 entries, slots 0-8)
          ]
        }

    * ``hex`` / ``slot``: the position id (``docs/board.md`` draws them), a whole number.
    * ``terrain``: hills, forest, pasture, fields, mountains or desert (any letter case).
    * ``token``: the number on the hex (2-6, 8-12); ``null`` or left out for the desert.
    * ``harbour``: ``3:1`` (or ``generic``), brick, lumber, wool, grain or ore (any letter case).

    Problems are reported in reading order: the shape of each hex entry (unknown key, position
    that does not exist or is listed twice, unknown terrain, a token that is not a number), then
    missing hexes, then the same for the harbours, and finally the board rules of
    :func:`validate_board` (counts, token on the desert, 6 or 8 next to 6 or 8).

    :raises BoardError: naming the first problem, e.g. ``"hex 23 does not exist; hexes are
        numbered 0-18"``.
    """
    if not isinstance(description, Mapping):
        raise BoardError(
            "a board description must be an object with 'hexes' and 'harbours', "
            f"got {type(description).__name__}"
        )
    _check_keys(description, _DESCRIPTION_KEYS, "the board description")
    hex_entries = _entry_list(description, "hexes", HEX_COUNT)
    terrains: list[Terrain | None] = [None] * HEX_COUNT
    tokens: list[int | None] = [None] * HEX_COUNT
    for i, entry in enumerate(hex_entries):
        where = f"hexes[{i}]"
        entry = _entry_mapping(entry, where, _HEX_KEYS)
        h = _position(entry, where, "hex", HEX_COUNT, "hexes are numbered " + _HEX_RANGE)
        if terrains[h] is not None:
            raise BoardError(f"hex {h} is listed twice")
        terrains[h] = _terrain(entry, h)
        tokens[h] = _token(entry, h)
    for h, terrain in enumerate(terrains):
        if terrain is None:
            raise BoardError(
                f"hex {h} is missing; a board description lists all {HEX_COUNT} hexes "
                f"({_HEX_RANGE})"
            )
    slot_entries = _entry_list(description, "harbours", HARBOUR_COUNT)
    harbours: list[Harbour | None] = [None] * HARBOUR_COUNT
    for i, entry in enumerate(slot_entries):
        where = f"harbours[{i}]"
        entry = _entry_mapping(entry, where, _SLOT_KEYS)
        s = _position(
            entry, where, "slot", HARBOUR_COUNT, "harbour slots are numbered " + _SLOT_RANGE
        )
        if harbours[s] is not None:
            raise BoardError(f"harbour slot {s} is listed twice")
        harbours[s] = _harbour(entry, s)
    board = Board(
        tuple(t for t in terrains if t is not None),
        tuple(tokens),
        tuple(_present_slots(harbours)),
    )
    validate_board(board)
    return board


def board_to_description(board: Board) -> dict[str, Any]:
    """The description :func:`board_from_description` reads back as ``board``, in id order."""
    return {
        "hexes": [
            {"hex": h, "terrain": terrain.value, "token": token}
            for h, (terrain, token) in enumerate(zip(board.terrains, board.tokens, strict=True))
        ],
        "harbours": [{"slot": s, "harbour": h.value} for s, h in enumerate(board.harbours)],
    }


def _check_keys(entry: Mapping[Any, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in entry:
        if key not in allowed:
            raise BoardError(
                f"{where} has an unknown key {key!r}; the keys are {', '.join(allowed)}"
            )


def _entry_list(description: Mapping[str, Any], key: str, count: int) -> Sequence[Any]:
    if key not in description:
        raise BoardError(f"the board description has no {key!r} list ({count} entries)")
    entries = description[key]
    if isinstance(entries, str | bytes) or not isinstance(entries, Sequence):
        raise BoardError(f"{key!r} must be a list of {count} entries, got {type(entries).__name__}")
    return entries


def _entry_mapping(entry: Any, where: str, keys: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(entry, Mapping):
        raise BoardError(f"{where} must be an object with {', '.join(keys)}, got {entry!r}")
    _check_keys(entry, keys, where)
    return entry


def _position(entry: Mapping[str, Any], where: str, key: str, count: int, numbering: str) -> int:
    if key not in entry:
        raise BoardError(f"{where} has no {key!r} position")
    value = entry[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise BoardError(f"{where}: the {key} position must be a whole number, got {value!r}")
    if not 0 <= value < count:
        label = "harbour slot" if key == "slot" else key
        raise BoardError(f"{label} {value} does not exist; {numbering}")
    return value


def _terrain(entry: Mapping[str, Any], h: int) -> Terrain:
    name = entry.get("terrain")
    if not isinstance(name, str):
        raise BoardError(f"hex {h}: the terrain must be a name ({_TERRAIN_NAMES}), got {name!r}")
    try:
        return Terrain(name.strip().lower())
    except ValueError:
        raise BoardError(
            f"hex {h}: unknown terrain {name!r}; the terrains are {_TERRAIN_NAMES}"
        ) from None


def _token(entry: Mapping[str, Any], h: int) -> int | None:
    token = entry.get("token")
    if token is not None and (not isinstance(token, int) or isinstance(token, bool)):
        raise BoardError(
            f"hex {h}: the token must be a number ({_TOKEN_RANGE}) or null, got {token!r}"
        )
    return token


def _harbour(entry: Mapping[str, Any], s: int) -> Harbour:
    name = entry.get("harbour")
    if not isinstance(name, str):
        raise BoardError(
            f"harbour slot {s}: the harbour must be a name ({_HARBOUR_NAMES}), got {name!r}"
        )
    harbour = _HARBOUR_ALIASES.get(name.strip().lower())
    if harbour is None:
        raise BoardError(
            f"harbour slot {s}: unknown harbour {name!r}; the harbours are {_HARBOUR_NAMES}"
        )
    return harbour


def _present_slots(harbours: list[Harbour | None]) -> list[Harbour]:
    result: list[Harbour] = []
    for s, harbour in enumerate(harbours):
        if harbour is None:
            raise BoardError(
                f"harbour slot {s} is missing; a board description lists all "
                f"{HARBOUR_COUNT} harbour slots ({_SLOT_RANGE})"
            )
        result.append(harbour)
    return result
