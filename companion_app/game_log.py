"""The game log: what happened at the table, in words, rebuilt from a game's history.

Every entry comes from replaying the actions through the rules core's public API and
comparing what each action changed, so the log survives undo, resume and import without a
store of its own. An entry's ``text`` is what everyone may read; a private detail (the card a
thief took, the name of a progress card drawn) is in ``detail`` for the seats in ``audience``
only, so the shared screen shows ``text`` and a player's own screen ``words_for(seat)``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

from companion_app.rules.actions import (
    AcceptTrade,
    Action,
    ActivateKnight,
    BankTrade,
    BuildCity,
    BuildCityWall,
    BuildKnight,
    BuildRoad,
    BuildSettlement,
    BuyImprovement,
    ChaseRobber,
    ChooseProgressDeck,
    CommitKnights,
    DeclineTrade,
    DiscardCard,
    DiscardProgressCard,
    DisplaceKnight,
    EndTurn,
    EventDie,
    GiveCard,
    HarborExchange,
    LoseCity,
    MoveKnight,
    MoveRobber,
    OfferTrade,
    PlaceDeserter,
    PlaceMetropolis,
    PlayAlchemist,
    PlayBishop,
    PlayCrane,
    PlayDeserter,
    PlayDiplomat,
    PlayEngineer,
    PlayIntrigue,
    PlayInventor,
    PlayMasterMerchant,
    PlayMedicine,
    PlayMerchant,
    PlayMerchantFleet,
    PlayProgress,
    PlayResourceMonopoly,
    PlaySpy,
    PlayTradeMonopoly,
    PromoteKnight,
    RelocateKnight,
    RemoveKnight,
    Roll,
    StealFrom,
    StopEffect,
    TakeCard,
    TakeProgressCard,
    TakeResource,
)
from companion_app.rules.cards import (
    CARD_KINDS,
    TERRAIN_COMMODITY,
    TERRAIN_RESOURCE,
    Card,
    Hand,
    ProgressCard,
)
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.pieces import CITY, KNIGHT_NAMES, NOBODY
from companion_app.rules.progress import card_of
from companion_app.rules.prompts import PromptKind, counted
from companion_app.rules.topology import HEX_NODES, NODE_HEXES

EVERYONE: frozenset[int] = frozenset()
"""The audience of an entry with nothing private in it."""

EVENT_WORDS = {
    EventDie.SHIP: "ship",
    EventDie.TRADE: "yellow castle",
    EventDie.POLITICS: "blue castle",
    EventDie.SCIENCE: "green castle",
}

_NOT_ASKED = frozenset(
    {
        PromptKind.TURN,
        PromptKind.ROLL,
        PromptKind.SETUP_SETTLEMENT,
        PromptKind.SETUP_CITY,
        PromptKind.SETUP_ROAD,
        PromptKind.GAME_OVER,
    }
)
"""Prompts whose single legal option is still the player's to take (or not)."""


class EntryKind(Enum):
    TURN = "turn"
    SETUP = "setup"
    ROLL = "roll"
    PRODUCTION = "production"
    SEVEN = "seven"
    DISCARD = "discard"
    ROBBER = "robber"
    STEAL = "steal"
    BUILD = "build"
    KNIGHT = "knight"
    IMPROVEMENT = "improvement"
    TRADE = "trade"
    BARBARIANS = "barbarians"
    ATTACK = "attack"
    DRAW = "draw"
    PROGRESS = "progress"
    CARDS = "cards"
    WIN = "win"


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the log."""

    step: int
    """Index in the game's history of the action that caused it."""
    turn: int
    """The game's turn counter when it happened (0 during the setup)."""
    kind: EntryKind
    text: str
    """What everyone may read."""
    audience: frozenset[int] = EVERYONE
    """The seats that may read ``detail`` instead; empty when nothing is private."""
    detail: str = ""
    automatic: bool = False
    """Taken at once: the only option of its decider, with nothing private in it."""

    @property
    def is_public(self) -> bool:
        return not self.audience

    def words_for(self, seat: int | None) -> str:
        """The line as ``seat`` may read it (None: the shared screen)."""
        if seat is not None and seat in self.audience and self.detail:
            return self.detail
        return self.text


@dataclass(frozen=True, slots=True)
class Shortage:
    """A card the bank could not pay in full (§4): with several takers nobody gets it."""

    card: Card
    owed: int
    paid: int
    in_bank: int

    @property
    def words(self) -> str:
        label = self.card.label
        if self.paid == 0:
            if self.in_bank == 0:
                return f"bank out of {label}: nobody gets {label}"
            return f"bank has {self.in_bank} {label} for {self.owed} owed: nobody gets {label}"
        return f"bank had only {self.paid} {label} of {self.owed} owed"


@dataclass(frozen=True, slots=True)
class RollReport:
    """A roll and what it brought, for the production line under the dice.

    Kept until the next roll, so the line goes on describing the dice shown after End turn.
    """

    step: int
    roller: int
    roll: Roll
    paid: bool
    """False on a 7, and while the barbarians' decisions still hold production back."""
    gained: tuple[Hand, ...] = ()
    robbed: tuple[Hand, ...] = ()
    """What the robber's hex withheld from each seat."""
    missed: tuple[tuple[Card, ...], ...] = ()
    """Per seat, the cards owed that the bank could not pay (§4)."""
    shortages: tuple[Shortage, ...] = ()
    rolled_again: bool = False
    """A 7 in the first turns (easy start): rolled again, nothing happens."""

    @property
    def words(self) -> str:
        r = self.roll
        return f"{r.yellow} + {r.red} = {r.total}, {EVENT_WORDS[r.event]}"


def hand_words(hand: Sequence[int], *, sign: str = "") -> str:
    """``"2 brick, 1 ore"`` (``"+2 brick, +1 ore"`` with a sign); ``"nothing"`` if empty."""
    parts = [f"{sign}{n} {Card(c).label}" for c, n in enumerate(hand) if n]
    return ", ".join(parts) if parts else "nothing"


def place_words(game: Game, node: int) -> str:
    """An intersection as the table finds it: by the numbers of its hexes ("by 8, 3, 5")."""
    tokens = [game.tokens[h] for h in NODE_HEXES[node] if game.tokens[h] is not None]
    if not tokens:
        return "on the coast"
    return "by " + ", ".join(str(t) for t in tokens)


def hex_words(game: Game, h: int) -> str:
    """A hex as the table finds it: "the 8 hills", "the desert"."""
    terrain = game.board.terrains[h].value
    token = game.tokens[h]
    return f"the {terrain}" if token is None else f"the {token} {terrain}"


def production_report(game: Game, step: int, roll: Roll, bank_before: Sequence[int]) -> RollReport:
    """Who got what from a paid roll, and why some got less: the robber, the bank.

    What the rules core paid is ``game.last_production``; what each seat was owed is read off
    the board (the same buildings, robber and number tokens) only to name the reasons.
    """
    n = game.player_count
    owed = [[0] * CARD_KINDS for _ in range(n)]
    robbed = [[0] * CARD_KINDS for _ in range(n)]
    for h, token in enumerate(game.tokens):
        if token != roll.total:
            continue
        resource = TERRAIN_RESOURCE[game.board.terrains[h]]
        if resource is None:
            continue
        commodity = TERRAIN_COMMODITY.get(game.board.terrains[h])
        target = robbed if h == game.robber_hex else owed
        for node in HEX_NODES[h]:
            p = game.node_owner[node]
            if p == NOBODY:
                continue
            if game.node_level[node] == CITY and commodity is not None:
                target[p][resource] += 1
                target[p][commodity] += 1
            else:
                target[p][resource] += 2 if game.node_level[node] == CITY else 1
    gained = game.last_production
    shortages = []
    for c in range(CARD_KINDS):
        total_owed = sum(owed[p][c] for p in range(n))
        total_paid = sum(gained[p][c] for p in range(n))
        if total_paid < total_owed:
            shortages.append(Shortage(Card(c), total_owed, total_paid, bank_before[c]))
    missed = tuple(
        tuple(Card(c) for c in range(CARD_KINDS) if gained[p][c] < owed[p][c]) for p in range(n)
    )
    return RollReport(
        step,
        roll.player,
        roll,
        True,
        tuple(tuple(g) for g in gained),
        tuple(tuple(r) for r in robbed),
        missed,
        tuple(shortages),
    )


def production_words(
    names: Sequence[str], report: RollReport, *, everyone: bool = True
) -> list[str]:
    """One line per seat, in seat order, and one per shortage: "Ben +1 ore, +1 coin".

    Without ``everyone`` (the log) seats that got nothing for no particular reason are left
    out, and a roll that paid nobody says so in one line.
    """
    if report.rolled_again:
        return ["7 in the first turns: roll again"]
    if report.roll.total == 7:
        return ["7: no production"]
    if not report.paid:
        return ["production after the barbarians' decisions"]
    lines = []
    for p, name in enumerate(names):
        got = report.gained[p]
        line = f"{name} {hand_words(got, sign='+')}" if any(got) else f"{name}: nothing"
        reasons = []
        if any(report.robbed[p]):
            reasons.append(f"robber holds {hand_words(report.robbed[p])}")
        if report.missed[p]:
            reasons.append("bank short of " + ", ".join(c.label for c in report.missed[p]))
        if reasons:
            line += " (" + "; ".join(reasons) + ")"
        if everyone or reasons or any(got):
            lines.append(line)
    if not lines:
        lines.append("nobody produces")
    lines.extend(s.words for s in report.shortages)
    return lines


class _Add(Protocol):
    def __call__(
        self, kind: EntryKind, text: str, audience: frozenset[int] = ..., detail: str = ""
    ) -> None: ...


@dataclass(slots=True)
class _Before:
    """What an action may change that the log describes, taken just before it."""

    hands: list[tuple[int, ...]]
    progress: list[Counter[ProgressCard]]
    revealed: list[int]
    bank: tuple[int, ...]
    production: object
    attacks: int
    barbarians: int
    prompt: PromptKind
    card_target: int
    active: int
    offer: OfferTrade | None
    improvements: list[tuple[int, ...]]
    metropolis: tuple[int, ...]
    longest: int
    knights: tuple[int, ...]
    automatic: bool

    @classmethod
    def of(cls, game: Game) -> _Before:
        kind = game.prompt.kind
        automatic = kind not in _NOT_ASKED and len(game.legal_actions()) == 1
        return cls(
            [tuple(h) for h in game.hands],
            [Counter(game.progress_hand(p)) for p in range(game.player_count)],
            [len(v) for v in game.revealed_vp],
            tuple(game.bank),
            game.last_production,
            game.barbarian_attacks,
            game.barbarian_position,
            kind,
            game.card_target,
            game.active,
            game.offer,
            [tuple(i) for i in game.improvements],
            tuple(game.metropolis),
            game.longest_road_holder,
            tuple(game.knight_owner),
            automatic,
        )


@dataclass(slots=True)
class GameLog:
    """The log of one game, kept in step with its history by :meth:`sync`."""

    config: GameConfig
    start: dict[str, Any] | None = None
    """The state the history starts from (``Game.to_json``); None: a new game."""
    entries: list[LogEntry] = field(default_factory=list)
    last_roll: RollReport | None = None
    """The latest roll and, once paid, its production (kept after End turn)."""
    _replay: Game | None = None
    _applied: list[Action] = field(default_factory=list)

    @classmethod
    def of(cls, game: Game) -> GameLog:
        """The log of ``game``'s history so far."""
        log = cls(game.config)
        log.sync(game.history)
        return log

    @classmethod
    def from_position(cls, game: Game) -> GameLog:
        """An empty log whose history starts at ``game``'s state (worked examples)."""
        return cls(game.config, game.to_json())

    def sync(self, history: Sequence[Action]) -> None:
        """Catch up with ``history``: new actions are added; after an undo it is rebuilt."""
        n = len(self._applied)
        if self._replay is None or len(history) < n or list(history[:n]) != self._applied:
            start = self.start
            self._replay = Game.new(self.config) if start is None else Game.from_json(start)
            self._applied = []
            self.entries = []
            self.last_roll = None
        for action in history[len(self._applied) :]:
            self._apply(action)

    def words_for(self, seat: int | None) -> list[str]:
        """Every line as ``seat`` may read it (None: the shared screen)."""
        return [e.words_for(seat) for e in self.entries]

    # ---- one action ---------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        game = self._replay
        assert game is not None
        before = _Before.of(game)
        turn = game.turn
        game.apply(action)
        self._applied.append(action)
        step = len(self._applied) - 1
        out: list[LogEntry] = []

        def add(
            kind: EntryKind, text: str, audience: frozenset[int] = EVERYONE, detail: str = ""
        ) -> None:
            out.append(LogEntry(step, turn, kind, text, audience, detail))

        _describe(game, action, before, add)
        self._roll_follow_up(game, action, before, step, add)
        _draws(game, action, before, add)
        if before.longest != game.longest_road_holder:
            holder = game.longest_road_holder
            add(
                EntryKind.BUILD,
                "nobody holds the longest road"
                if holder == NOBODY
                else f"{game.config.names[holder]} takes the longest road",
            )
        if game.is_over and before.prompt is not PromptKind.GAME_OVER:
            add(EntryKind.WIN, f"{game.config.names[game.winner]} wins the game")
        if isinstance(action, EndTurn) and not game.is_over:
            add(EntryKind.TURN, f"Turn {game.turn + 1} · {game.config.names[game.active]}")
        if before.automatic and out:
            first = out[0]
            out[0] = LogEntry(
                first.step,
                first.turn,
                first.kind,
                first.text + " (the only choice)",
                first.audience,
                first.detail + " (the only choice)" if first.detail else "",
                True,
            )
        self._merge(out)

    def _merge(self, out: list[LogEntry]) -> None:
        """Consecutive discards of one player read as one line."""
        for entry in out:
            last = self.entries[-1] if self.entries else None
            if (
                last is not None
                and entry.kind is EntryKind.DISCARD
                and last.kind is EntryKind.DISCARD
                and last.text.split(" discarded ")[0] == entry.text.split(" discarded ")[0]
                and last.audience == entry.audience
            ):
                self.entries[-1] = _merged_discard(last, entry)
                continue
            self.entries.append(entry)

    def _roll_follow_up(
        self, game: Game, action: Action, before: _Before, step: int, add: _Add
    ) -> None:
        names = game.config.names
        if isinstance(action, Roll):
            again = action.total == 7 and not game.rolled
            self.last_roll = RollReport(step, action.player, action, False, rolled_again=again)
            if game.barbarian_position != before.barbarians:
                add(
                    EntryKind.BARBARIANS,
                    f"the ship advances ({game.barbarian_position}"
                    f" of {game.config.barbarian_track_length})",
                )
            if action.total == 7:
                add(EntryKind.SEVEN, production_words(names, self.last_roll)[0])
        if game.barbarian_attacks > before.attacks and game.last_attack is not None:
            attack = game.last_attack
            defence = (
                ", ".join(f"{names[p]} {d}" for p, d in enumerate(attack.defence) if d)
                or "no knights"
            )
            verdict = "Catan holds" if attack.defended else "the barbarians win"
            add(
                EntryKind.ATTACK,
                f"Barbarian attack {attack.number}: strength {attack.strength}"
                f" against {attack.total_defence} ({defence}): {verdict}",
            )
            if attack.defender != NOBODY:
                add(EntryKind.ATTACK, f"{names[attack.defender]} is Defender of Catan (1 VP)")
            if attack.tied:
                add(
                    EntryKind.ATTACK,
                    "tied strongest, each draws a progress card: "
                    + ", ".join(names[p] for p in attack.tied),
                )
            if attack.losers:
                add(
                    EntryKind.ATTACK,
                    "weakest, each loses a city: " + ", ".join(names[p] for p in attack.losers),
                )
        pending = self.last_roll
        produced = (
            game.last_production is not before.production
            and len(game.last_production) == game.player_count
        )
        if pending is not None and not pending.paid and produced:
            bank_before = [
                game.bank[c] + sum(g[c] for g in game.last_production) for c in range(CARD_KINDS)
            ]
            report = production_report(game, pending.step, pending.roll, bank_before)
            self.last_roll = report
            for line in production_words(names, report, everyone=False):
                add(EntryKind.PRODUCTION, line)


def _merged_discard(last: LogEntry, entry: LogEntry) -> LogEntry:
    who = last.text.split(" discarded ")[0]
    cards: Counter[str] = Counter()
    for text in (last.text, entry.text):
        for part in text.split(" discarded ", 1)[1].split(", "):
            amount, label = part.split(" ", 1)
            cards[label] += int(amount)
    words = ", ".join(f"{n} {label}" for label, n in cards.items())
    return LogEntry(
        last.step, last.turn, last.kind, f"{who} discarded {words}", automatic=last.automatic
    )


def _gain(game: Game, before: _Before, p: int) -> list[int]:
    return [game.hands[p][c] - before.hands[p][c] for c in range(CARD_KINDS)]


def _describe(game: Game, action: Action, before: _Before, add: _Add) -> None:
    """The action's own line(s)."""
    names = game.config.names
    p = action.player
    who = names[p]
    setup = before.prompt in (
        PromptKind.SETUP_SETTLEMENT,
        PromptKind.SETUP_CITY,
        PromptKind.SETUP_ROAD,
    )
    if isinstance(action, BuildSettlement):
        verb = "places" if setup else "builds"
        add(
            EntryKind.SETUP if setup else EntryKind.BUILD,
            f"{who} {verb} a settlement {place_words(game, action.node)}",
        )
    elif isinstance(action, BuildCity):
        if setup:
            got = hand_words(_gain(game, before, p))
            add(
                EntryKind.SETUP, f"{who} places a city {place_words(game, action.node)}: gets {got}"
            )
        else:
            add(EntryKind.BUILD, f"{who} builds a city {place_words(game, action.node)}")
    elif isinstance(action, BuildRoad):
        if before.prompt is PromptKind.FREE_ROAD:
            add(EntryKind.BUILD, f"{who} builds a free road")
        else:
            add(EntryKind.SETUP if setup else EntryKind.BUILD, f"{who} builds a road")
        if setup and not game.in_setup:
            add(EntryKind.TURN, f"Turn 1 · {names[game.active]}")
    elif isinstance(action, Roll):
        add(
            EntryKind.ROLL,
            f"{who} rolls {action.yellow} + {action.red} = {action.total},"
            f" {EVENT_WORDS[action.event]}",
        )
    elif isinstance(action, DiscardCard):
        add(EntryKind.DISCARD, f"{who} discarded 1 {action.card.label}")
    elif isinstance(action, MoveRobber):
        add(EntryKind.ROBBER, f"{who} moves the robber to {hex_words(game, action.hex)}")
    elif isinstance(action, StealFrom):
        _steal_line(game, before, p, action.victim, add)
    elif isinstance(action, BankTrade):
        rate = before.hands[p][action.give] - game.hands[p][action.give]
        add(
            EntryKind.TRADE,
            f"{who} trades {rate} {action.give.label} for 1 {action.take.label} with the bank",
        )
    elif isinstance(action, OfferTrade):
        add(
            EntryKind.TRADE,
            f"{who} offers {names[action.to]} {hand_words(action.give)}"
            f" for {hand_words(action.take)}",
        )
    elif isinstance(action, AcceptTrade):
        add(EntryKind.TRADE, f"{who} accepts")
    elif isinstance(action, DeclineTrade):
        add(EntryKind.TRADE, f"{who} declines")
    elif isinstance(action, EndTurn):
        pass
    elif isinstance(action, BuildCityWall):
        add(EntryKind.BUILD, f"{who} builds a city wall {place_words(game, action.node)}")
    elif isinstance(action, BuildKnight):
        add(EntryKind.KNIGHT, f"{who} recruits a basic knight {place_words(game, action.node)}")
    elif isinstance(action, ActivateKnight):
        add(EntryKind.KNIGHT, f"{who} activates a knight {place_words(game, action.node)}")
    elif isinstance(action, PromoteKnight):
        level = KNIGHT_NAMES.get(game.knight_level[action.node], "")
        free = " (Smith)" if before.prompt is PromptKind.SMITH else ""
        add(
            EntryKind.KNIGHT,
            f"{who} promotes a knight to {level} {place_words(game, action.node)}{free}",
        )
    elif isinstance(action, MoveKnight):
        add(EntryKind.KNIGHT, f"{who} moves a knight {place_words(game, action.to)}")
    elif isinstance(action, DisplaceKnight):
        add(
            EntryKind.KNIGHT,
            f"{who} displaces a knight of {names[before.knights[action.to]]}"
            f" {place_words(game, action.to)}",
        )
    elif isinstance(action, RelocateKnight):
        add(EntryKind.KNIGHT, f"{who} moves the displaced knight {place_words(game, action.to)}")
    elif isinstance(action, ChaseRobber):
        add(EntryKind.KNIGHT, f"{who}'s knight chases the robber")
    elif isinstance(action, BuyImprovement):
        reached = game.improvements[p][action.track.index]
        add(EntryKind.IMPROVEMENT, f"{who} improves {action.track.value} to level {reached}")
    elif isinstance(action, PlaceMetropolis):
        add(EntryKind.IMPROVEMENT, f"{who} places a metropolis {place_words(game, action.node)}")
    elif isinstance(action, LoseCity):
        add(EntryKind.ATTACK, f"{who} loses the city {place_words(game, action.node)}")
    elif isinstance(action, ChooseProgressDeck):
        add(EntryKind.DRAW, f"{who} chooses the {action.track.value} deck")
    elif isinstance(action, CommitKnights):
        add(EntryKind.ATTACK, f"{who} sends {counted(len(action.nodes), 'knight')}")
    elif isinstance(action, TakeResource):
        add(EntryKind.PRODUCTION, f"{who} takes 1 {action.card.label} (Aqueduct)")
    elif isinstance(action, DiscardProgressCard):
        add(
            EntryKind.CARDS,
            f"{who} puts a progress card back",
            frozenset({p}),
            f"{who} puts {action.card.title} back",
        )
    elif isinstance(action, TakeProgressCard):
        victim = before.card_target
        add(
            EntryKind.CARDS,
            f"{who} takes a progress card from {names[victim]}",
            frozenset({p, victim}),
            f"{who} takes {action.card.title} from {names[victim]}",
        )
    elif isinstance(action, GiveCard):
        to = names[before.active]
        add(
            EntryKind.CARDS,
            f"{who} gives {to} a card",
            frozenset({p, before.active}),
            f"{who} gives {to} 1 {action.card.label}",
        )
    elif isinstance(action, TakeCard):
        victim = before.card_target
        add(
            EntryKind.CARDS,
            f"{who} takes a card from {names[victim]}",
            frozenset({p, victim}),
            f"{who} takes 1 {action.card.label} from {names[victim]}",
        )
    elif isinstance(action, HarborExchange):
        moved = game.hands[action.to] != list(before.hands[action.to])
        if moved:
            add(
                EntryKind.CARDS,
                f"{who} offers {names[action.to]} a resource",
                frozenset({p, action.to}),
                f"{who} offers {names[action.to]} 1 {action.card.label}",
            )
        else:
            add(EntryKind.CARDS, f"{names[action.to]} holds no commodity: nothing moves")
    elif isinstance(action, RemoveKnight):
        add(EntryKind.KNIGHT, f"{who} removes a knight {place_words(game, action.node)}")
    elif isinstance(action, PlaceDeserter):
        add(EntryKind.KNIGHT, f"{who} places the deserter {place_words(game, action.node)}")
    elif isinstance(action, StopEffect):
        add(EntryKind.PROGRESS, f"{who} stops there")
    else:
        _played(game, action, before, add)


def _steal_line(game: Game, before: _Before, thief: int, victim: int, add: _Add) -> None:
    names = game.config.names
    lost = [before.hands[victim][c] - game.hands[victim][c] for c in range(CARD_KINDS)]
    add(
        EntryKind.STEAL,
        f"{names[thief]} steals a card from {names[victim]}",
        frozenset({thief, victim}),
        f"{names[thief]} steals {hand_words(lost)} from {names[victim]}",
    )


def _played(game: Game, action: Action, before: _Before, add: _Add) -> None:
    """A progress card played: its name is public once played (§9)."""
    names = game.config.names
    p = action.player
    who = names[p]
    card = card_of(action)
    what = ""
    if isinstance(action, PlayAlchemist):
        what = f": yellow {action.yellow}, red {action.red}"
    elif isinstance(action, PlayCrane):
        what = f": {action.track.value} to level {game.improvements[p][action.track.index]}"
    elif isinstance(action, PlayEngineer | PlayMedicine | PlayIntrigue):
        what = " " + place_words(game, action.node)
    elif isinstance(action, PlayInventor):
        what = f": swaps the numbers of hex {action.hex} and hex {action.other}"
    elif isinstance(action, PlayBishop | PlayMerchant):
        what = f" on {hex_words(game, action.hex)}"
    elif isinstance(action, PlayDeserter | PlaySpy | PlayMasterMerchant):
        what = f" on {names[action.victim]}"
    elif isinstance(action, PlayDiplomat):
        what = ": a road goes"
    elif isinstance(action, PlayMerchantFleet):
        what = f": {action.card.label} 2:1 this turn"
    elif isinstance(action, PlayResourceMonopoly | PlayTradeMonopoly):
        what = f" on {action.card.label}"
    add(EntryKind.PROGRESS, f"{who} plays {card.title}{what}")
    if isinstance(action, PlayBishop):
        for victim in range(game.player_count):
            if victim != p and game.hands[victim] != list(before.hands[victim]):
                _steal_line(game, before, p, victim, add)
    elif isinstance(action, PlayResourceMonopoly | PlayTradeMonopoly | PlayProgress):
        for q in range(game.player_count):
            change = _gain(game, before, q)
            if q != p and any(change):
                add(EntryKind.CARDS, f"{names[q]} gives {hand_words([-n for n in change])}")
            elif q == p and any(n > 0 for n in change):
                add(EntryKind.CARDS, f"{who} gets {hand_words([max(0, n) for n in change])}")


def _draws(game: Game, action: Action, before: _Before, add: _Add) -> None:
    """Progress cards drawn: a count for everyone, the card for its drawer (§9)."""
    names = game.config.names
    for q in range(game.player_count):
        new = Counter(game.progress_hand(q)) - before.progress[q]
        if isinstance(action, TakeProgressCard) and q == action.player:
            new -= Counter({action.card: 1})
        for card, amount in sorted(new.items(), key=lambda kv: kv[0].value):
            for _ in range(amount):
                add(
                    EntryKind.DRAW,
                    f"{names[q]} draws a {card.track.value} card",
                    frozenset({q}),
                    f"{names[q]} draws {card.title}",
                )
        for card in game.revealed_vp[q][before.revealed[q] :]:
            add(EntryKind.DRAW, f"{names[q]} draws {card.title} (1 VP, shown at once)")


def log_for(log: GameLog | None, game: Game) -> GameLog:
    """``log`` caught up with ``game``, or a new log when ``game`` is another game."""
    if log is None or log.start is not None or log.config != game.config:
        log = GameLog(game.config)
    log.sync(game.history)
    return log
