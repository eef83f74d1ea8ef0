"""The settings a game starts from: players in seat order, the board, the seed, variants.

Developer words: the first seat, the dice mode and the JSON's shape are set by code or read
from files, so their errors stay English; what the new-game form lets a person choose is a
message.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion_app.rules import seamap
from companion_app.rules.board import (
    STARTER_BOARD,
    Board,
    frame_for_players,
    random_balanced_board,
    sea_board,
)
from companion_app.rules.cards import LARGE_GAME_PLAYERS
from companion_app.rules.errors import BoardError, ConfigError
from companion_app.rules.jsonshape import Shape
from companion_app.rules.messages import msg

MIN_PLAYERS = 3
MAX_PLAYERS = 6
"""5 and 6 play with the extension (§12): the 30-hex board, larger banks, the special build
phase."""
DICE_MODES = ("fair", "balanced", "deck")
"""How the dice box rolls the production dice (docs/protocol.md, "Dice modes"). The rules take
the dice as they come; the mode is kept with the game so the box and the statistics know it."""
SCENARIOS = ("new_shores",)
"""The Seafarers scenarios played with Cities & Knights (§13): Heading for New Shores."""
SCENARIO_VP_TARGET = {"new_shores": 16}
"""The scenario's target with Cities & Knights (R1): a default, the target stays a setting."""
BOT_LEVELS = ("learner", "player", "expert")
"""How well the tablet plays a seat it holds (``companion_app.bot`` plays them). The rules take a
bot's choices as any other actions; the level is kept so a resumed game plays on the same."""


@dataclass(frozen=True, slots=True)
class PlayerConfig:
    name: str
    colour: str
    bot: str | None = None
    """The tablet plays this seat, at one of BOT_LEVELS; None: a person. Written to JSON only
    when set, so a game of people keeps its config (and the digests over it) as before."""


DEFAULT_PLAYERS = (
    PlayerConfig("Red", "red"),
    PlayerConfig("Blue", "blue"),
    PlayerConfig("White", "white"),
    PlayerConfig("Orange", "orange"),
    PlayerConfig("Green", "green"),
    PlayerConfig("Brown", "brown"),
)
"""A player per colour of the box: red, blue, white, orange, and the extension's green and
brown (§12)."""


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Everything needed to start a game. ``players`` is the seat order; ``first_player`` (the
    highest yellow + red roll at the table, §2.2) places first and takes the first turn."""

    players: tuple[PlayerConfig, ...] = DEFAULT_PLAYERS[:4]
    board: Board = field(default=STARTER_BOARD)
    seed: int = 0
    first_player: int = 0
    vp_target: int = 13
    barbarian_track_length: int = 7
    """Advances of the ship until it attacks (§1)."""
    easy_start: bool = False
    """Variant (§3): 7s re-rolled and no event die in each player's first two turns."""
    quick_knights: bool = False
    """Variant (§3): a knight may chase the robber before the roll."""
    evil_barbarians: bool = False
    """Variant (§3): at an attack each player commits chosen active knights; only they count."""
    dice_mode: str = "fair"
    """One of DICE_MODES; written to JSON only when not fair, so a fair game's config (and the
    digests and checksums over it) stays as it was before the modes."""
    scenario: str | None = None
    """A Seafarers scenario of SCENARIOS played on a sea map (§13), or None: the island game.
    Written to JSON only when set, so a game without Seafarers keeps its config."""

    def __post_init__(self) -> None:
        n = len(self.players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ConfigError(msg("Cities & Knights is for 3-6 players here, got {count}", count=n))
        names = [p.name for p in self.players]
        if len(set(names)) != n:
            raise ConfigError(msg("player names must differ, got {names}", names=", ".join(names)))
        colours = [p.colour for p in self.players]
        if len(set(colours)) != n:
            raise ConfigError(
                msg("player colours must differ, got {colours}", colours=", ".join(colours))
            )
        frame = frame_for_players(n)
        if self.scenario is not None or self.board.sea_map is not None:
            self._check_scenario(n)
        elif len(self.board.terrains) != frame.topology.hex_count:
            raise ConfigError(
                msg(
                    "{count} players play on the {hexes}-hex board (§12), not on {given} hexes",
                    count=n,
                    hexes=frame.topology.hex_count,
                    given=len(self.board.terrains),
                )
            )
        if not 0 <= self.first_player < n:
            raise ConfigError(f"first_player must be a seat 0-{n - 1}, got {self.first_player}")
        if not 3 <= self.vp_target <= 30:
            raise ConfigError(msg("the VP target must be 3-30, got {value}", value=self.vp_target))
        if not 1 <= self.barbarian_track_length <= 20:
            raise ConfigError(
                msg(
                    "the barbarian track length must be 1-20, got {value}",
                    value=self.barbarian_track_length,
                )
            )
        for player in self.players:
            if player.bot is not None and player.bot not in BOT_LEVELS:
                raise ConfigError(
                    f"a bot seat's level must be one of {BOT_LEVELS}, got {player.bot!r}"
                )
        if self.dice_mode not in DICE_MODES:
            raise ConfigError(f"the dice mode must be one of {DICE_MODES}, got {self.dice_mode!r}")

    def _check_scenario(self, n: int) -> None:
        """A scenario plays on its own sea map for its players (§13.11), an island game on an
        island."""
        if self.scenario not in SCENARIOS:
            raise ConfigError(
                msg("a game on a sea map needs the scenario Heading for New Shores (§13)")
            )
        if n not in (3, 4):
            raise ConfigError(
                msg("Heading for New Shores is for 3 or 4 players, got {count}", count=n)
            )
        wanted = f"{self.scenario}_{n}"
        if self.board.sea_map != wanted:
            raise ConfigError(
                msg(
                    "{count} players play Heading for New Shores on its {count}-player map",
                    count=n,
                )
            )

    @classmethod
    def for_players(cls, n: int, **kwargs: Any) -> GameConfig:
        """A config with ``n`` default players (Red, Blue, White, Orange, Green, Brown); with 5
        or 6 and no board given, the random balanced 30-hex board of the seed (§12); with a
        scenario and no board, its map for ``n`` players (harbours dealt by the seed) and, if
        not given, its VP target (§13.11, R1)."""
        scenario = kwargs.get("scenario")
        if scenario is not None:
            sea = seamap.SEA_MAPS.get(f"{scenario}_{n}")
            if sea is not None and "board" not in kwargs:
                kwargs["board"] = sea_board(sea, kwargs.get("seed", 0))
            kwargs.setdefault("vp_target", SCENARIO_VP_TARGET.get(scenario, 13))
        elif n >= LARGE_GAME_PLAYERS and "board" not in kwargs:
            kwargs["board"] = random_balanced_board(kwargs.get("seed", 0), frame_for_players(n))
        return cls(players=DEFAULT_PLAYERS[:n], **kwargs)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "players": [_player_json(p) for p in self.players],
            "board": self.board.to_json(),
            "seed": self.seed,
            "first_player": self.first_player,
            "vp_target": self.vp_target,
            "barbarian_track_length": self.barbarian_track_length,
            "easy_start": self.easy_start,
            "quick_knights": self.quick_knights,
            "evil_barbarians": self.evil_barbarians,
        }
        if self.dice_mode != "fair":
            data["dice_mode"] = self.dice_mode
        if self.scenario is not None:
            data["scenario"] = self.scenario
        return data

    @classmethod
    def from_json(cls, data: object) -> GameConfig:
        """:raises ConfigError: naming the first problem (board problems included)."""
        config = _SHAPE.obj(data, "the config")
        players = _SHAPE.items(_SHAPE.field(config, "players", ""), "players", max_len=MAX_PLAYERS)
        seats = []
        for i, value in enumerate(players):
            player = _SHAPE.obj(value, f"players[{i}]")
            name = _SHAPE.text(_SHAPE.field(player, "name", f"players[{i}]"), f"players[{i}].name")
            colour = _SHAPE.field(player, "colour", f"players[{i}]")
            level = None
            if "bot" in player:
                level = _SHAPE.choice(player["bot"], f"players[{i}].bot", _LEVELS)
            seats.append(PlayerConfig(name, _SHAPE.text(colour, f"players[{i}].colour"), level))
        try:
            board = Board.from_json(_SHAPE.obj(_SHAPE.field(config, "board", ""), "board"))
        except BoardError as exc:
            raise ConfigError(f"config board: {exc}") from exc

        def number(key: str, default: int, low: int, high: int) -> int:
            return _SHAPE.integer(config.get(key, default), key, low, high)

        def flag(key: str) -> bool:
            return _SHAPE.boolean(config.get(key, False), key)

        return cls(
            players=tuple(seats),
            board=board,
            seed=_SHAPE.integer(_SHAPE.field(config, "seed", ""), "seed", -(2**63), 2**64 - 1),
            first_player=number("first_player", 0, 0, MAX_PLAYERS - 1),
            vp_target=number("vp_target", 13, 0, 1000),
            barbarian_track_length=number("barbarian_track_length", 7, 0, 1000),
            easy_start=flag("easy_start"),
            quick_knights=flag("quick_knights"),
            evil_barbarians=flag("evil_barbarians"),
            dice_mode=_SHAPE.text(config.get("dice_mode", "fair"), "dice_mode"),
            scenario=(
                None
                if config.get("scenario") is None
                else _SHAPE.choice(config["scenario"], "scenario", _SCENARIOS)
            ),
        )


def _player_json(player: PlayerConfig) -> dict[str, Any]:
    data: dict[str, Any] = {"name": player.name, "colour": player.colour}
    if player.bot is not None:
        data["bot"] = player.bot
    return data


_SHAPE = Shape(ConfigError, "config: ")
_LEVELS = {level: level for level in BOT_LEVELS}
_SCENARIOS = {name: name for name in SCENARIOS}
