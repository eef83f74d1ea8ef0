"""The new-game form and the board entry as plain objects (no Kivy), so they test without a window.

Both only collect choices; the rules core validates them (``GameConfig`` and
``board_from_description``) and its error messages are what the screens show.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from companion_app.app.board_picture import PLAYER_COLOURS, BoardPicture, entry_picture
from companion_app.rules.board import (
    STARTER_BOARD,
    Board,
    board_from_description,
    random_balanced_board,
)
from companion_app.rules.cards import Harbour, Terrain
from companion_app.rules.config import MAX_PLAYERS, MIN_PLAYERS, GameConfig, PlayerConfig
from companion_app.rules.errors import BoardError, ConfigError
from companion_app.rules.topology import HARBOUR_COUNT, HEX_COUNT

BOARD_CHOICES = ("starter", "random", "table")
"""Starter layout, random balanced board, or the board already laid out on the table."""
COLOUR_ORDER = tuple(PLAYER_COLOURS)
SEED_LIMIT = 1_000_000
"""Seeds shown to the table are at most six digits, easy to read out and type back."""


@dataclass
class PlayerSlot:
    name: str
    colour: str
    plays: bool = True


@dataclass
class NewGameForm:
    """The choices on the new-game screen. ``players`` is the seat order (top to bottom)."""

    players: list[PlayerSlot] = field(
        default_factory=lambda: [
            PlayerSlot("Red", "red"),
            PlayerSlot("Blue", "blue"),
            PlayerSlot("White", "white"),
            PlayerSlot("Orange", "orange"),
        ]
    )
    board_choice: str = "starter"
    seed: int = 1
    first_player: int = 0
    """Index in the seats that play (the highest roll at the table places first, §2)."""
    vp_target: int = 13
    track_length: int = 7
    easy_start: bool = False
    quick_knights: bool = False
    evil_barbarians: bool = False
    virtual_dice: bool = True

    # ---- edits ----------------------------------------------------------------------------

    def reroll(self, rng: random.Random | None = None) -> int:
        """A new seed for the random balanced board; returns it."""
        rng = rng or random.Random()
        seed = self.seed
        while seed == self.seed:
            seed = rng.randrange(1, SEED_LIMIT)
        self.seed = seed
        return seed

    def toggle_plays(self, index: int) -> None:
        """Seat a player or leave the seat empty, keeping 3-4 players at the table."""
        slot = self.players[index]
        if slot.plays and self.player_count <= MIN_PLAYERS:
            return
        if not slot.plays and self.player_count >= MAX_PLAYERS:
            return
        slot.plays = not slot.plays
        self.first_player = min(self.first_player, self.player_count - 1)

    def next_colour(self, index: int) -> str:
        """Gives the slot the next piece colour no other player has; returns it."""
        taken = {p.colour for i, p in enumerate(self.players) if i != index and p.plays}
        current = COLOUR_ORDER.index(self.players[index].colour)
        for step in range(1, len(COLOUR_ORDER) + 1):
            colour = COLOUR_ORDER[(current + step) % len(COLOUR_ORDER)]
            if colour not in taken:
                self.players[index].colour = colour
                break
        return self.players[index].colour

    def move_up(self, index: int) -> None:
        """Swap a player with the one seated before them (seat order is clockwise)."""
        if index > 0:
            self.players[index - 1], self.players[index] = (
                self.players[index],
                self.players[index - 1],
            )

    def set_first(self, index: int) -> None:
        """The player at slot ``index`` places first (ignored for an empty seat)."""
        seated = [i for i, p in enumerate(self.players) if p.plays]
        if index in seated:
            self.first_player = seated.index(index)

    def step(self, name: str, delta: int) -> int:
        """Change the VP target or the track length by ``delta``, unless the rules core's config
        refuses the new value (its limits are the only ones); returns the value now."""
        value: int = getattr(self, name) + delta
        try:
            if name == "vp_target":
                GameConfig(vp_target=value)
            else:
                GameConfig(barbarian_track_length=value)
        except ConfigError:
            return int(getattr(self, name))
        setattr(self, name, value)
        return value

    # ---- results ----------------------------------------------------------------------------

    @property
    def seated(self) -> list[PlayerSlot]:
        return [p for p in self.players if p.plays]

    @property
    def player_count(self) -> int:
        return len(self.seated)

    def board(self) -> Board | None:
        """The chosen board; None when the table enters its own board next."""
        if self.board_choice == "starter":
            return STARTER_BOARD
        if self.board_choice == "random":
            return random_balanced_board(self.seed)
        return None

    def config(self, board: Board, *, game_seed: int | None = None) -> GameConfig:
        """The rules core's config for these choices.

        :raises ConfigError: with the rules core's words (two players with one name, ...).
        """
        players = tuple(PlayerConfig(p.name.strip(), p.colour) for p in self.seated)
        for p in players:
            if not p.name:
                raise ConfigError("every player needs a name")
        return GameConfig(
            players=players,
            board=board,
            seed=self.seed if game_seed is None else game_seed,
            first_player=self.first_player,
            vp_target=self.vp_target,
            barbarian_track_length=self.track_length,
            easy_start=self.easy_start,
            quick_knights=self.quick_knights,
            evil_barbarians=self.evil_barbarians,
        )


TERRAIN_CHOICES = tuple(Terrain)
TOKEN_CHOICES = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
HARBOUR_CHOICES = tuple(Harbour)


@dataclass
class BoardEntry:
    """The table's own board, entered position by position; the rules core checks it."""

    terrains: list[Terrain | None] = field(default_factory=lambda: [None] * HEX_COUNT)
    tokens: list[int | None] = field(default_factory=lambda: [None] * HEX_COUNT)
    harbours: list[Harbour | None] = field(default_factory=lambda: [None] * HARBOUR_COUNT)

    @classmethod
    def from_board(cls, board: Board) -> BoardEntry:
        return cls(list(board.terrains), list(board.tokens), list(board.harbours))

    def set_terrain(self, h: int, terrain: Terrain) -> None:
        self.terrains[h] = terrain
        if terrain is Terrain.DESERT:
            self.tokens[h] = None

    def set_token(self, h: int, token: int | None) -> None:
        self.tokens[h] = token

    def set_harbour(self, slot: int, harbour: Harbour) -> None:
        self.harbours[slot] = harbour

    @property
    def entered(self) -> int:
        """Positions filled in so far (19 hexes + 9 harbours = 28)."""
        return sum(t is not None for t in self.terrains) + sum(h is not None for h in self.harbours)

    def description(self) -> dict[str, Any]:
        """The description ``board_from_description`` reads; unentered positions are left out,
        so the rules core names the first one missing."""
        hexes = [
            {"hex": h, "terrain": t.value, "token": self.tokens[h]}
            for h, t in enumerate(self.terrains)
            if t is not None
        ]
        harbours = [
            {"slot": s, "harbour": hb.value} for s, hb in enumerate(self.harbours) if hb is not None
        ]
        return {"hexes": hexes, "harbours": harbours}

    def check(self) -> tuple[Board | None, str]:
        """(board, "") when the rules core accepts it, else (None, its error message)."""
        try:
            return board_from_description(self.description()), ""
        except BoardError as exc:
            return None, str(exc)

    def picture(self) -> BoardPicture:
        """What the board view draws for the entry so far."""
        return entry_picture(self.terrains, self.tokens, self.harbours)
