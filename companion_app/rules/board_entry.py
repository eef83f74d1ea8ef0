"""A table's own board, entered position by position (the New game's "enter the table's
board"): a description read with a clear error naming the first problem, and written back.

Ids are those of :mod:`companion_app.rules.topology` for the game's island (the
:class:`~board.Frame`): hexes 0-18 and harbour slots 0-8 for 3-4 players, hexes 0-29 and slots
0-10 for 5-6 (§12), or a sea map's (§13.11: its sea hexes entered as ``sea``, R27);
``docs/board.md`` draws them.

A hex or harbour slot not entered yet is named in a message, as the board's rules are
(:mod:`board`): the build-table screen shows it in the table's language.

Developer words: a description's broken shape (unknown keys, positions listed twice, names that
are no terrain, the JSON positions such as ``hexes[3]``) comes from a file and is named in
English, for the engineer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion_app.rules.board import FRAME_19, Board, Frame, validate_board
from companion_app.rules.cards import ISLAND_TERRAINS, Harbour, Terrain
from companion_app.rules.errors import BoardError
from companion_app.rules.messages import msg

_TOKEN_RANGE = "2-6 and 8-12"


_DESCRIPTION_KEYS = ("hexes", "harbours")
_HEX_KEYS = ("hex", "terrain", "token")
_SLOT_KEYS = ("slot", "harbour")
_TERRAIN_NAMES = ", ".join(t.value for t in ISLAND_TERRAINS)
_ISLAND_TERRAINS = {t.value: t for t in ISLAND_TERRAINS}
_SEA_TERRAIN_NAMES = ", ".join(t.value for t in Terrain)
_SEA_TERRAINS = {t.value: t for t in Terrain}
_HARBOUR_NAMES = ", ".join(h.value for h in Harbour)
_HARBOUR_ALIASES: dict[str, Harbour] = {h.value: h for h in Harbour} | {
    h.name.lower(): h for h in Harbour
}


def board_from_description(description: Mapping[str, Any], frame: Frame = FRAME_19) -> Board:
    """The board a table already laid out on ``frame`` (19 hexes unless told), entered
    position by position.

    The description (JSON-shaped) lists every hex and every harbour slot once, in any order::

        {
          "hexes": [
            {"hex": 0, "terrain": "mountains", "token": 10},
            {"hex": 1, "terrain": "pasture", "token": 2},
            ...
            {"hex": 9, "terrain": "desert", "token": null},
            ...                                    (19 entries, hexes 0-18; 30 on FRAME_30)
          ],
          "harbours": [
            {"slot": 0, "harbour": "3:1"},
            {"slot": 1, "harbour": "wool"},
            ...                                    (9 entries, slots 0-8; 11 on FRAME_30)
          ],
          "robber": 14                             (30 hexes only, may be left out)
        }

    * ``hex`` / ``slot``: the position id (``docs/board.md`` draws them), a whole number.
    * ``terrain``: hills, forest, pasture, fields, mountains or desert (any letter case).
    * ``token``: the number on the hex (2-6, 8-12); ``null`` or left out for the desert.
    * ``harbour``: ``3:1`` (or ``generic``), brick, lumber, wool, grain or ore (any letter case).
    * ``robber``: on 30 hexes, the desert the players chose for the robber (§12); left out or
      ``null``, the desert nearer the middle.

    Problems are reported in reading order: the shape of each hex entry (unknown key, position
    that does not exist or is listed twice, unknown terrain, a token that is not a number), then
    missing hexes, then the same for the harbours, and finally the board rules of
    :func:`validate_board` (counts, token on the desert, 6 or 8 next to 6 or 8, the robber's
    desert).

    :raises BoardError: naming the first problem, e.g. ``"hex 23 does not exist; hexes are
        numbered 0-18"``.
    """
    if not isinstance(description, Mapping):
        raise BoardError(
            "a board description must be an object with 'hexes' and 'harbours', "
            f"got {type(description).__name__}"
        )
    sea = frame.sea_map
    keys = _DESCRIPTION_KEYS if frame is FRAME_19 or sea else (*_DESCRIPTION_KEYS, "robber")
    _check_keys(description, keys, "the board description")
    terrains, tokens = _hexes(description, frame)
    harbours = _harbours(description, frame)
    if sea is not None:
        board = Board(tuple(terrains), tuple(tokens), tuple(harbours), sea_map=sea.name)
    else:
        robber = _robber(description, terrains)
        board = Board(tuple(terrains), tuple(tokens), tuple(harbours), robber)
    validate_board(board)
    return board


def _hexes(description: Mapping[str, Any], frame: Frame) -> tuple[list[Terrain], list[int | None]]:
    count = frame.topology.hex_count
    hex_entries = _entry_list(description, "hexes", count)
    terrains: list[Terrain | None] = [None] * count
    tokens: list[int | None] = [None] * count
    for i, entry in enumerate(hex_entries):
        where = f"hexes[{i}]"
        entry = _entry_mapping(entry, where, _HEX_KEYS)
        h = _position(entry, where, "hex", count)
        if terrains[h] is not None:
            raise BoardError(f"hex {h} is listed twice")
        terrains[h] = _terrain(entry, h, sea=frame.sea_map is not None)
        tokens[h] = _token(entry, h)
    present: list[Terrain] = []
    for h, terrain in enumerate(terrains):
        if terrain is None:
            raise BoardError(
                msg("hex {hex} is missing; a board has {count} hexes", hex=h, count=count)
            )
        present.append(terrain)
    return present, tokens


def _harbours(description: Mapping[str, Any], frame: Frame) -> list[Harbour]:
    count = frame.topology.harbour_count
    slot_entries = _entry_list(description, "harbours", count)
    harbours: list[Harbour | None] = [None] * count
    for i, entry in enumerate(slot_entries):
        where = f"harbours[{i}]"
        entry = _entry_mapping(entry, where, _SLOT_KEYS)
        s = _position(entry, where, "slot", count)
        if harbours[s] is not None:
            raise BoardError(f"harbour slot {s} is listed twice")
        harbours[s] = _harbour(entry, s)
    return _present_slots(harbours)


def _robber(description: Mapping[str, Any], terrains: Sequence[Terrain]) -> int | None:
    """The table's desert for the robber; None for the rule's own (so one board reads one way)."""
    start = description.get("robber")
    if start is None:
        return None
    if not isinstance(start, int) or isinstance(start, bool):
        raise BoardError(f"the robber's desert must be a hex number, got {start!r}")
    deserts = [h for h, t in enumerate(terrains) if t is Terrain.DESERT]
    rule = Board(tuple(terrains), (), ()).desert_hex if len(deserts) == 2 else None
    return None if start == rule else start


def board_to_description(board: Board) -> dict[str, Any]:
    """The description :func:`board_from_description` reads back as ``board``, in id order."""
    return {
        "hexes": [
            {"hex": h, "terrain": terrain.value, "token": token}
            for h, (terrain, token) in enumerate(zip(board.terrains, board.tokens, strict=True))
        ],
        "harbours": [{"slot": s, "harbour": h.value} for s, h in enumerate(board.harbours)],
    } | ({} if board.robber_start is None else {"robber": board.robber_start})


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


def _position(entry: Mapping[str, Any], where: str, key: str, count: int) -> int:
    if key not in entry:
        raise BoardError(f"{where} has no {key!r} position")
    value = entry[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise BoardError(f"{where}: the {key} position must be a whole number, got {value!r}")
    if not 0 <= value < count:
        raise BoardError(
            f"{'harbour slot' if key == 'slot' else key} {value} does not exist; "
            f"{'harbour slots' if key == 'slot' else 'hexes'} are numbered 0-{count - 1}"
        )
    return value


def _terrain(entry: Mapping[str, Any], h: int, *, sea: bool) -> Terrain:
    names = _SEA_TERRAIN_NAMES if sea else _TERRAIN_NAMES
    name = entry.get("terrain")
    if not isinstance(name, str):
        raise BoardError(f"hex {h}: the terrain must be a name ({names}), got {name!r}")
    terrain = (_SEA_TERRAINS if sea else _ISLAND_TERRAINS).get(name.strip().lower())
    if terrain is None:
        raise BoardError(f"hex {h}: unknown terrain {name!r}; the terrains are {names}")
    return terrain


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
                msg(
                    "harbour slot {slot} is missing; a board has {count} harbours",
                    slot=s,
                    count=len(harbours),
                )
            )
        result.append(harbour)
    return result
