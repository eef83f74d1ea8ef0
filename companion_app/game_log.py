"""The game log: what happened at the table, in words, rebuilt from a game's history.

Every entry comes from replaying the actions through the rules core's public API: each action's
own lines are the words its mechanic declares (``registry.told_lines``), and what it set off
(production, steals, draws) comes from the events the rules core records, so the log survives
undo, resume and import without a store of its own. An entry's ``text`` is what everyone may
read; a private detail (the card a thief took, the name of a progress card drawn) is in
``detail`` for the seats in ``audience`` only, so the shared screen shows ``text`` and a
player's own screen ``words_for(seat)``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion_app.rules.actions import Action, Roll
from companion_app.rules.cards import Card, Hand
from companion_app.rules.config import GameConfig
from companion_app.rules.events import Production, ProgressDrawn, Shortage
from companion_app.rules.game import Game
from companion_app.rules.pieces import NOBODY
from companion_app.rules.registry import ALWAYS_ASKED, told_lines
from companion_app.rules.words import (
    EVENT_WORDS,
    EVERYONE,
    Line,
    Prior,
    Telling,
    dice_words,
    hand_words,
    hex_words,
    place_words,
)
from companion_app.rules.words import LineKind as EntryKind

__all__ = [
    "EVENT_WORDS",
    "EVERYONE",
    "EntryKind",
    "GameLog",
    "LogEntry",
    "RollReport",
    "Shortage",
    "hand_words",
    "hex_words",
    "log_for",
    "place_words",
    "production_report",
    "production_words",
]
# ALWAYS_ASKED (from the prompts' declarations): prompts whose single legal option is still
# the player's to take; any other decision with one option is taken at once by the app (and
# logged as "the only choice").


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
        return dice_words(self.roll)


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


def production_report(step: int, roll: Roll, production: Production) -> RollReport:
    """A paid roll's report from what the rules core paid (``Production``)."""
    return RollReport(
        step,
        roll.player,
        roll,
        True,
        production.gained,
        production.robbed,
        production.missed,
        production.shortages,
    )


@dataclass(frozen=True, slots=True)
class _Since:
    """The counters the log's own lines compare across one action (barbarians, turn, longest
    road), and whether its decider had a single option."""

    barbarians: int
    attacks: int
    longest: int
    turn: int
    in_setup: bool
    over: bool
    automatic: bool

    @classmethod
    def of(cls, game: Game) -> _Since:
        kind = game.prompt.kind
        automatic = kind not in ALWAYS_ASKED and len(game.legal_actions()) == 1
        return cls(
            game.barbarian_position,
            game.barbarian_attacks,
            game.longest_road_holder,
            game.turn,
            game.in_setup,
            game.is_over,
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
        prior = Prior.of(game)
        since = _Since.of(game)
        game.apply(action)
        self._applied.append(action)
        step = len(self._applied) - 1
        names = game.config.names
        own = told_lines(Telling(game, names, prior, game.events), action)
        lines = list(own)
        if any(line.kind is EntryKind.ROLL for line in own):
            lines += self._rolled(game, since, step)
        lines += self._follow_up(game, since)
        out = [LogEntry(step, since.turn, ln.kind, ln.text, ln.audience, ln.detail) for ln in lines]
        if since.automatic and out:
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

    def _rolled(self, game: Game, since: _Since, step: int) -> list[Line]:
        """A roll: the report under the dice starts; the ship's advance; a 7 says so."""
        roll = game.last_roll
        assert roll is not None
        again = roll.total == 7 and not game.rolled
        self.last_roll = RollReport(step, roll.player, roll, False, rolled_again=again)
        lines = []
        if game.barbarian_position != since.barbarians:
            lines.append(
                Line(
                    EntryKind.BARBARIANS,
                    f"the ship advances ({game.barbarian_position}"
                    f" of {game.config.barbarian_track_length})",
                )
            )
        if roll.total == 7:
            lines.append(
                Line(EntryKind.SEVEN, production_words(game.config.names, self.last_roll)[0])
            )
        return lines

    def _follow_up(self, game: Game, since: _Since) -> list[Line]:
        """What any action may set off: an attack, production, draws, the longest road moving,
        the win, the next turn."""
        names = game.config.names
        lines = _attack_lines(game, since)
        pending = self.last_roll
        for event in game.events:
            if isinstance(event, Production) and pending is not None and not pending.paid:
                report = production_report(pending.step, pending.roll, event)
                self.last_roll = report
                lines += [
                    Line(EntryKind.PRODUCTION, text)
                    for text in production_words(names, report, everyone=False)
                ]
        lines += _draw_lines(game)
        if since.longest != game.longest_road_holder:
            holder = game.longest_road_holder
            lines.append(
                Line(
                    EntryKind.BUILD,
                    "nobody holds the longest road"
                    if holder == NOBODY
                    else f"{names[holder]} takes the longest road",
                )
            )
        if game.is_over and not since.over:
            lines.append(Line(EntryKind.WIN, f"{names[game.winner]} wins the game"))
        new_turn = game.turn != since.turn or (since.in_setup and not game.in_setup)
        if new_turn and not game.is_over:
            lines.append(Line(EntryKind.TURN, f"Turn {game.turn + 1} · {names[game.active]}"))
        return lines


def _attack_lines(game: Game, since: _Since) -> list[Line]:
    attack = game.last_attack
    if game.barbarian_attacks <= since.attacks or attack is None:
        return []
    names = game.config.names
    defence = (
        ", ".join(f"{names[p]} {d}" for p, d in enumerate(attack.defence) if d) or "no knights"
    )
    verdict = "Catan holds" if attack.defended else "the barbarians win"
    lines = [
        Line(
            EntryKind.ATTACK,
            f"Barbarian attack {attack.number}: strength {attack.strength}"
            f" against {attack.total_defence} ({defence}): {verdict}",
        )
    ]
    if attack.defender != NOBODY:
        lines.append(
            Line(EntryKind.ATTACK, f"{names[attack.defender]} is Defender of Catan (1 VP)")
        )
    if attack.tied:
        lines.append(
            Line(
                EntryKind.ATTACK,
                "tied strongest, each draws a progress card: "
                + ", ".join(names[p] for p in attack.tied),
            )
        )
    if attack.losers:
        lines.append(
            Line(
                EntryKind.ATTACK,
                "weakest, each loses a city: " + ", ".join(names[p] for p in attack.losers),
            )
        )
    return lines


def _draw_lines(game: Game) -> list[Line]:
    """Progress cards drawn, seat by seat: a count for everyone, the card for its drawer; a VP
    card is shown at once (§9)."""
    names = game.config.names
    drawn = [e for e in game.events if isinstance(e, ProgressDrawn)]
    lines = []
    for q in range(game.player_count):
        mine = [e.card for e in drawn if e.player == q]
        for card in sorted((c for c in mine if not c.is_vp), key=lambda c: c.value):
            lines.append(
                Line(
                    EntryKind.DRAW,
                    f"{names[q]} draws a {card.track.value} card",
                    frozenset({q}),
                    f"{names[q]} draws {card.title}",
                )
            )
        for card in mine:
            if card.is_vp:
                lines.append(
                    Line(EntryKind.DRAW, f"{names[q]} draws {card.title} (1 VP, shown at once)")
                )
    return lines


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


def log_for(log: GameLog | None, game: Game) -> GameLog:
    """``log`` caught up with ``game``, or a new log when ``game`` is another game."""
    if log is None or log.start is not None or log.config != game.config:
        log = GameLog(game.config)
    log.sync(game.history)
    return log
