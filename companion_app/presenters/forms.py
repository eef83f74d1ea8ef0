"""The new-game form and the board entry as plain objects (no Kivy), so they test without a window.

Both only collect choices; the rules core validates them (``GameConfig`` and
``board_from_description``) and its error messages are what the screens show.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from companion_app.i18n import LANGUAGES, catalogue, render_error
from companion_app.i18n.current import _, render
from companion_app.journal.people import Person, PersonNameError, clean_name
from companion_app.presenters.board_picture import PLAYER_COLOURS, BoardPicture, entry_picture
from companion_app.rules.board import (
    FRAME_19,
    SEA_FRAMES,
    STARTER_BOARD,
    Board,
    Frame,
    frame_for_players,
    random_balanced_board,
    sea_board,
)
from companion_app.rules.board_entry import board_from_description
from companion_app.rules.cards import ISLAND_TERRAINS, Harbour, Terrain
from companion_app.rules.config import (
    BOT_LEVELS,
    DICE_MODES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SCENARIO_VP_TARGET,
    GameConfig,
    PlayerConfig,
)
from companion_app.rules.errors import BoardError, ConfigError
from companion_app.rules.messages import N_, Msg, pmsg
from companion_app.rules.seamap import SEA_MAPS

BOARD_CHOICES = ("starter", "random", "table")
"""Starter layout, random balanced board, or the board already laid out on the table."""
COLOUR_ORDER = tuple(PLAYER_COLOURS)
SEED_LIMIT = 1_000_000
"""Seeds shown to the table are at most six digits, easy to read out and type back."""
DICE_MODE_NOTES: dict[str, str] = {
    "fair": N_("Fair dice: every roll independent, as real dice."),
    "balanced": N_(
        "Balanced dice: the 36 pairs as a deck reshuffled with 12 left, a sum rolled in "
        "the last 5 rolls less likely: fewer streaks."
    ),
    "deck": N_("Card deck: the 36 pairs drawn like the Event Cards, reshuffled with 5 left."),
}
"""What each dice mode does, in one line for the new-game screen (the box rolls them)."""
COLOUR_WORDS: dict[str, str] = {
    "red": N_("red"),
    "blue": N_("blue"),
    "white": N_("white"),
    "orange": N_("orange"),
    "green": N_("green"),
    "brown": N_("brown"),
}
"""The piece colours' names on the new-game screen (message ids)."""
SCENARIO_WORDS: dict[str, str] = {"new_shores": N_("Heading for New Shores")}
"""The Seafarers scenarios' names (§13), as the rulebook prints them."""
SCENARIO_PLAYERS = (3, 4)
"""Heading for New Shores has a map for 3 and one for 4 players (§13.11)."""
ISLAND_VP_TARGET = 13
"""The island game's VP target (§1), the form's default."""


DEFAULT_NAMES: dict[str, Msg] = {
    "red": pmsg("player name", "Red"),
    "blue": pmsg("player name", "Blue"),
    "white": pmsg("player name", "White"),
    "orange": pmsg("player name", "Orange"),
    "green": pmsg("player name", "Green"),
    "brown": pmsg("player name", "Brown"),
}
"""The names a new game offers before anyone types one, in seat order (read in the table's
language when the form is made; a name once stored stays as it was typed)."""


@dataclass
class PlayerSlot:
    name: str
    colour: str
    plays: bool = True
    bot: str | None = None
    """The tablet plays this seat at this level (BOT_LEVELS); None: a person."""


@dataclass
class NewGameForm:
    """The choices on the new-game screen. ``players`` is the seat order (top to bottom)."""

    players: list[PlayerSlot] = field(
        default_factory=lambda: [
            PlayerSlot(render(DEFAULT_NAMES[colour]), colour, plays=index < 4)
            for index, colour in enumerate(DEFAULT_NAMES)
        ]
    )
    board_choice: str = "starter"
    seed: int = 1
    first_player: int = 0
    """Index in the seats that play (the highest roll at the table places first, §2)."""
    vp_target: int = ISLAND_VP_TARGET
    track_length: int = 7
    easy_start: bool = False
    quick_knights: bool = False
    evil_barbarians: bool = False
    virtual_dice: bool = True
    dice_mode: str = "fair"
    """How the box (or the virtual dice) rolls the production dice in this game (DICE_MODES)."""
    known: list[Person] = field(default_factory=list)
    """People who have played at this table, most recently played first (from the journal)."""
    scenario: str | None = None
    """A Seafarers scenario played on its printed sea map (§13), or None: the island game."""

    def name_defaults_again(self) -> None:
        """Names still as offered (in any language) read again in the table's language, after
        a switch; a typed or picked name stays as it is."""
        for slot in self.players:
            words = DEFAULT_NAMES.get(slot.colour)
            if words is not None and slot.name in {catalogue(c).render(words) for c in LANGUAGES}:
                slot.name = render(words)

    # ---- people who played here before -----------------------------------------------------

    def offers(self, index: int) -> list[Person]:
        """The known people slot ``index`` may pick: nobody already seated in another slot."""
        taken = {
            p.name.casefold().strip() for i, p in enumerate(self.players) if i != index and p.plays
        }
        return [person for person in self.known if person.name.casefold() not in taken]

    def pick(self, index: int, person: Person) -> None:
        """Seat a known person in slot ``index``, in their colour; a seated player who has that
        colour takes this slot's colour instead (colours stay different)."""
        slot = self.players[index]
        colour = person.colour if person.colour in COLOUR_ORDER else slot.colour
        for i, other in enumerate(self.players):
            if i != index and other.plays and other.colour == colour:
                other.colour = slot.colour
        slot.name, slot.colour = person.name, colour

    def unseated(self) -> list[Person]:
        """Known people not at the table yet: the ones the form offers to seat."""
        return self.offers(-1)

    def seat_known(self, person: Person) -> int | None:
        """Seat a known person in the first playing slot that holds no known person yet (a
        default or new name); returns the slot, or None when they sit at the table already or
        every seat holds a known person."""
        if person not in self.unseated():
            return None
        known = {p.name.casefold() for p in self.known}
        for index, slot in enumerate(self.players):
            if slot.plays and slot.name.casefold().strip() not in known:
                self.pick(index, person)
                return index
        return None

    def next_person(self, index: int) -> Person | None:
        """Seat the next known person in slot ``index`` (after the one seated there, around the
        list); None when nobody else is known."""
        offers = self.offers(index)
        if not offers:
            return None
        current = self.players[index].name.casefold().strip()
        names = [p.name.casefold() for p in offers]
        following = (names.index(current) + 1) % len(offers) if current in names else 0
        self.pick(index, offers[following])
        return offers[following]

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
        """Seat a player or leave the seat empty, keeping the players the rules core allows
        (3-6); a seat taken gets a colour nobody seated has. From five players the game is on
        the 30-hex board (§12), which has no starter layout: a random one is offered instead."""
        slot = self.players[index]
        if slot.plays and self.player_count <= MIN_PLAYERS:
            return
        if not slot.plays and self.player_count >= MAX_PLAYERS:
            return
        slot.plays = not slot.plays
        if slot.plays and any(
            p.colour == slot.colour for i, p in enumerate(self.players) if i != index and p.plays
        ):
            self.next_colour(index)
        self.first_player = min(self.first_player, self.player_count - 1)
        if self.scenario is not None and self.player_count not in SCENARIO_PLAYERS:
            self.set_scenario(None)
        if self.board_choice not in self.board_choices and self.board_choices:
            self.board_choice = "random"

    @property
    def may_sail(self) -> bool:
        """Heading for New Shores may be chosen: it has maps for 3 and 4 players only."""
        return self.player_count in SCENARIO_PLAYERS

    def set_scenario(self, scenario: str | None) -> str | None:
        """Play a Seafarers scenario on its map, or the island game (None); returns it. The VP
        target follows while it is the other game's default (16 at sea, R1; 13 on the island),
        a target the table set stays."""
        if scenario is not None and (scenario not in SCENARIO_WORDS or not self.may_sail):
            return self.scenario
        before = ISLAND_VP_TARGET if self.scenario is None else SCENARIO_VP_TARGET[self.scenario]
        after = ISLAND_VP_TARGET if scenario is None else SCENARIO_VP_TARGET[scenario]
        if self.vp_target == before:
            self.vp_target = after
        self.scenario = scenario
        if self.board_choice not in self.board_choices:
            self.board_choice = "starter"
        return scenario

    @property
    def frame(self) -> Frame:
        """The island the seated players play on (19 hexes for 3-4, 30 for 5-6), or the
        scenario's sea map for them (§13.11)."""
        if self.scenario is not None:
            return SEA_FRAMES[f"{self.scenario}_{self.player_count}"]
        return frame_for_players(self.player_count)

    @property
    def board_choices(self) -> tuple[str, ...]:
        """The boards this table may choose: the starter layout only on 19 hexes; at sea the
        printed map (as "starter"; 4 players: its harbours dealt by the seed) or the table's
        own entered (R27)."""
        if self.scenario is not None:
            return ("starter", "table")
        return BOARD_CHOICES if self.frame is FRAME_19 else BOARD_CHOICES[1:]

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

    def next_bot(self, index: int) -> str | None:
        """A seat goes round a person, then the tablet at each level (weakest first), then a
        person again; returns the level now (None: a person)."""
        slot = self.players[index]
        order: list[str | None] = [None, *BOT_LEVELS]
        slot.bot = order[(order.index(slot.bot) + 1) % len(order)]
        return slot.bot

    def set_dice_mode(self, mode: str) -> str:
        """Choose the game's dice mode (one of DICE_MODES; anything else leaves it); returns it."""
        if mode in DICE_MODES:
            self.dice_mode = mode
        return self.dice_mode

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
        if self.scenario is not None and self.board_choice != "table":
            return sea_board(SEA_MAPS[f"{self.scenario}_{self.player_count}"], self.seed)
        if self.board_choice == "starter" and self.frame is FRAME_19:
            return STARTER_BOARD
        if self.board_choice in ("starter", "random"):
            return random_balanced_board(self.seed, self.frame)
        return None

    def config(self, board: Board, *, game_seed: int | None = None) -> GameConfig:
        """The rules core's config for these choices.

        :raises ConfigError: with the rules core's words (two players with one name, ...).
        """
        try:
            players = tuple(PlayerConfig(clean_name(p.name), p.colour, p.bot) for p in self.seated)
        except PersonNameError as exc:
            raise ConfigError(str(exc)) from None
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
            dice_mode=self.dice_mode,
            scenario=self.scenario,
        )


def scenario_note(form: NewGameForm) -> str:
    """What choosing Heading for New Shores means for this table, or why it cannot."""
    if not form.may_sail:
        return _("Heading for New Shores has maps for 3 and 4 players only.")
    if form.scenario is None:
        return _("Seafarers with Cities & Knights: ships, the pirate and gold fields (§13).")
    return _(
        "Seafarers on the printed map for {count} players: ships, the pirate and gold fields; "
        "{target} VP to win (a setting below)."
    ).format(count=form.player_count, target=SCENARIO_VP_TARGET[form.scenario])


def seed_words(form: NewGameForm) -> str:
    """The seed line when the seed deals the board ("" when it does not): a random board, or
    the harbours of New Shores for 4 players (§13.11)."""
    if form.scenario is not None:
        sea = SEA_MAPS[f"{form.scenario}_{form.player_count}"]
        if sea.harbours is not None or form.board_choice == "table":
            return ""
        return _("Seed {seed}  (the harbours)").format(seed=form.seed)
    if form.board_choice == "random":
        return _("Seed {seed}  (balanced)").format(seed=form.seed)
    return ""


TERRAIN_CHOICES = ISLAND_TERRAINS
SEA_TERRAIN_CHOICES = (*ISLAND_TERRAINS, Terrain.GOLD, Terrain.SEA)
"""A sea board's terrains (§13.2): the island's, gold fields and the sea."""
NO_TOKEN = (Terrain.DESERT, Terrain.SEA)
"""Terrains without a number token."""


def terrain_choices(frame: Frame) -> tuple[Terrain, ...]:
    """The terrains a hex of ``frame`` may be entered as."""
    return SEA_TERRAIN_CHOICES if frame.topology.has_sea else TERRAIN_CHOICES


def known_board(frame: Frame) -> Board:
    """A board of ``frame`` to start an entry from and change what differs on the table: the
    starter layout, on 30 hexes the random board of seed 1, on a sea map the printed map
    (its harbours as dealt by seed 1)."""
    if frame is FRAME_19:
        return STARTER_BOARD
    if frame.sea_map is not None:
        return sea_board(frame.sea_map, 1)
    return random_balanced_board(1, frame)


TOKEN_CHOICES = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
HARBOUR_CHOICES = tuple(Harbour)


@dataclass
class BoardEntry:
    """The table's own board, entered position by position on its frame (19 hexes, or 30 for
    5-6 players); the rules core checks it."""

    terrains: list[Terrain | None] = field(default_factory=list)
    tokens: list[int | None] = field(default_factory=list)
    harbours: list[Harbour | None] = field(default_factory=list)
    frame: Frame = FRAME_19
    robber: int | None = None
    """On 30 hexes, the desert the players chose for the robber (None: the one nearer the
    middle, §12)."""

    def __post_init__(self) -> None:
        hexes, slots = self.frame.topology.hex_count, self.frame.topology.harbour_count
        self.terrains = self.terrains or [None] * hexes
        self.tokens = self.tokens or [None] * hexes
        self.harbours = self.harbours or [None] * slots

    @classmethod
    def from_board(cls, board: Board) -> BoardEntry:
        terrains: list[Terrain | None] = list(board.terrains)
        harbours: list[Harbour | None] = list(board.harbours)
        return cls(terrains, list(board.tokens), harbours, board.frame, board.robber_start)

    @property
    def positions(self) -> int:
        """Positions to fill: every hex and every harbour (19 + 9, or 30 + 11)."""
        return len(self.terrains) + len(self.harbours)

    def set_terrain(self, h: int, terrain: Terrain) -> None:
        self.terrains[h] = terrain
        if terrain in NO_TOKEN:
            self.tokens[h] = None

    def set_token(self, h: int, token: int | None) -> None:
        self.tokens[h] = token

    def set_harbour(self, slot: int, harbour: Harbour) -> None:
        self.harbours[slot] = harbour

    def set_robber(self, h: int | None) -> None:
        """The desert the robber starts on (30 hexes, §12); None for the rule's own."""
        self.robber = h

    @property
    def entered(self) -> int:
        """Positions filled in so far (19 hexes + 9 harbours = 28; 30 + 11 = 41)."""
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
        description: dict[str, Any] = {"hexes": hexes, "harbours": harbours}
        if self.robber is not None:
            description["robber"] = self.robber
        return description

    def check(self) -> tuple[Board | None, str]:
        """(board, "") when the rules core accepts it, else (None, its problem in the table's
        language)."""
        try:
            return board_from_description(self.description(), self.frame), ""
        except BoardError as exc:
            return None, render_error(exc)

    def picture(self) -> BoardPicture:
        """What the board view draws for the entry so far."""
        return entry_picture(
            self.terrains, self.tokens, self.harbours, self.frame.topology, self.robber
        )
