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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion_app.rules.actions import Action, Roll
from companion_app.rules.cards import Card, Hand, Track
from companion_app.rules.config import GameConfig
from companion_app.rules.events import Production, ProgressDrawn, Shortage
from companion_app.rules.game import Game
from companion_app.rules.messages import Msg, listing, msg
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
    text: Msg
    """What everyone may read (a message: the reader's language renders it)."""
    audience: frozenset[int] = EVERYONE
    """The seats that may read ``detail`` instead; empty when nothing is private."""
    detail: Msg | None = None
    automatic: bool = False
    """Taken at once: the only option of its decider, with nothing private in it."""

    @property
    def is_public(self) -> bool:
        return not self.audience

    def words_for(self, seat: int | None) -> Msg:
        """The line as ``seat`` may read it (None: the shared screen)."""
        if seat is not None and seat in self.audience and self.detail is not None:
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
    def words(self) -> Msg:
        return dice_words(self.roll)


def production_words(
    names: Sequence[str], report: RollReport, *, everyone: bool = True
) -> list[Msg]:
    """One line per seat, in seat order, and one per shortage: "Ben +1 ore, +1 coin".

    Without ``everyone`` (the log) seats that got nothing for no particular reason are left
    out, and a roll that paid nobody says so in one line.
    """
    if report.rolled_again:
        return [msg("7 in the first turns: roll again")]
    if report.roll.total == 7:
        return [msg("7: no production")]
    if not report.paid:
        return [msg("production after the barbarians' decisions")]
    lines = []
    for p, name in enumerate(names):
        got = report.gained[p]
        if any(got):
            line = msg("{player} {cards}", player=name, cards=hand_words(got, sign="+"))
        else:
            line = msg("{player}: nothing", player=name)
        reasons = []
        if any(report.robbed[p]):
            reasons.append(msg("robber holds {cards}", cards=hand_words(report.robbed[p])))
        if report.missed[p]:
            short = listing([c.words for c in report.missed[p]], msg("nothing"))
            reasons.append(msg("bank short of {cards}", cards=short))
        for reason in reasons:
            line = msg("{line} ({reason})", line=line, reason=reason)
        if everyone or reasons or any(got):
            lines.append(line)
    if not lines:
        lines.append(msg("nobody produces"))
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
    _discarder: str = ""
    """Whose discards the last line counts (consecutive discards read as one line)."""
    _discarded: list[int] = field(default_factory=list)

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
            self._discarder = ""
        for action in history[len(self._applied) :]:
            self._apply(action)

    def words_for(self, seat: int | None) -> list[Msg]:
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
                _only_choice(first.text),
                first.audience,
                None if first.detail is None else _only_choice(first.detail),
                True,
            )
        self._merge(out)

    def _merge(self, out: list[LogEntry]) -> None:
        """Consecutive discards of one player read as one line."""
        for entry in out:
            last = self.entries[-1] if self.entries else None
            discard = _discard(entry)
            if (
                discard is not None
                and last is not None
                and _discard(last) is not None
                and self._discarder == discard[0]
                and last.audience == entry.audience
            ):
                self._discarded[discard[1]] += 1
                self.entries[-1] = self._merged_discard(last)
                continue
            if discard is not None:
                self._discarder = discard[0]
                self._discarded = list(discard[1].amount(1))
            self.entries.append(entry)

    def _merged_discard(self, last: LogEntry) -> LogEntry:
        text = msg(
            "{player} discarded {cards}", player=self._discarder, cards=hand_words(self._discarded)
        )
        return LogEntry(last.step, last.turn, last.kind, text, automatic=last.automatic)

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
                    msg(
                        "the ship advances ({position} of {length})",
                        position=game.barbarian_position,
                        length=game.config.barbarian_track_length,
                    ),
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
                    Line(EntryKind.PRODUCTION, words)
                    for words in production_words(names, report, everyone=False)
                ]
        lines += _draw_lines(game)
        if since.longest != game.longest_road_holder:
            holder = game.longest_road_holder
            lines.append(
                Line(
                    EntryKind.BUILD,
                    msg("nobody holds the longest road")
                    if holder == NOBODY
                    else msg("{player} takes the longest road", player=names[holder]),
                )
            )
        if game.is_over and not since.over:
            lines.append(
                Line(EntryKind.WIN, msg("{player} wins the game", player=names[game.winner]))
            )
        new_turn = game.turn != since.turn or (since.in_setup and not game.in_setup)
        if new_turn and not game.is_over:
            turn = msg("Turn {turn} · {player}", turn=game.turn + 1, player=names[game.active])
            lines.append(Line(EntryKind.TURN, turn))
        return lines


def _attack_lines(game: Game, since: _Since) -> list[Line]:
    attack = game.last_attack
    if game.barbarian_attacks <= since.attacks or attack is None:
        return []
    names = game.config.names
    defence = listing(
        [
            msg("{player} {strength}", player=names[p], strength=d)
            for p, d in enumerate(attack.defence)
            if d
        ],
        msg("no knights"),
    )
    verdict = msg("Catan holds") if attack.defended else msg("the barbarians win")
    lines = [
        Line(
            EntryKind.ATTACK,
            msg(
                "Barbarian attack {number}: strength {strength} against {defence} "
                "({defenders}): {verdict}",
                number=attack.number,
                strength=attack.strength,
                defence=attack.total_defence,
                defenders=defence,
                verdict=verdict,
            ),
        )
    ]
    if attack.defender != NOBODY:
        defender = msg("{player} is Defender of Catan (1 VP)", player=names[attack.defender])
        lines.append(Line(EntryKind.ATTACK, defender))
    if attack.tied:
        tied = ", ".join(names[p] for p in attack.tied)
        lines.append(
            Line(
                EntryKind.ATTACK,
                msg("tied strongest, each draws a progress card: {players}", players=tied),
            )
        )
    if attack.losers:
        losers = ", ".join(names[p] for p in attack.losers)
        lines.append(
            Line(EntryKind.ATTACK, msg("weakest, each loses a city: {players}", players=losers))
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
                    _DRAWS_FROM[card.track](names[q]),
                    frozenset({q}),
                    msg("{player} draws {card}", player=names[q], card=card.title),
                )
            )
        for card in mine:
            if card.is_vp:
                lines.append(
                    Line(
                        EntryKind.DRAW,
                        msg(
                            "{player} draws {card} (1 VP, shown at once)",
                            player=names[q],
                            card=card.title,
                        ),
                    )
                )
    return lines


_ONE_CARD = {card.counted(1): card for card in Card}
DISCARDED = "{player} discarded {card}"
"""The message id of one card discarded (declared with the discard, ``rules/robber.py``)."""
DISCARDED_SEVERAL = "{player} discarded {cards}"


def _discard(entry: LogEntry) -> tuple[str, Card] | None:
    """Who discarded which card, for a line of one card discarded (or of several, merged:
    then the card is of no use and is any)."""
    text = entry.text
    if entry.kind is not EntryKind.DISCARD or text.text not in (DISCARDED, DISCARDED_SEVERAL):
        return None
    player = text.value("player")
    if text.text == DISCARDED_SEVERAL:
        card: Card | None = Card.BRICK
    else:
        one = text.value("card")
        card = _ONE_CARD.get(one) if isinstance(one, Msg) else None
    if not isinstance(player, str) or card is None:
        return None
    return player, card


def _only_choice(words: Msg) -> Msg:
    return msg("{line} (the only choice)", line=words)


_DRAWS_FROM: dict[Track, Callable[[str], Msg]] = {
    Track.TRADE: lambda who: msg("{player} draws a trade card", player=who),
    Track.POLITICS: lambda who: msg("{player} draws a politics card", player=who),
    Track.SCIENCE: lambda who: msg("{player} draws a science card", player=who),
}


def log_for(log: GameLog | None, game: Game) -> GameLog:
    """``log`` caught up with ``game``, or a new log when ``game`` is another game."""
    if log is None or log.start is not None or log.config != game.config:
        log = GameLog(game.config)
    log.sync(game.history)
    return log
