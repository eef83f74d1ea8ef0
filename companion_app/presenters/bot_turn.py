"""The seats the tablet plays (bots), at the table, without a window.

A bot seat's decisions are the bot's (``companion_app.bot.decide``); its choices go through the
same path as a tap, so the journal, undo, the log, the dice box and the phones follow. The
table still moves the bot's pieces by hand: what the bot did since the table last confirmed is
one list of physical steps (:func:`turn_steps`), each with the bot's reason, confirmed by one
"Done". The bot's cards live on the tablet (its production stays in the physical bank), so a
card that goes between a person and a bot goes between that person and the bank.

The bot never rolls: at a roll due on its turn it may play a card first, then answers "roll"
(a :class:`Roll`), and the roll is a press on the dice box by anyone. Who special-builds (5-6
players) is the table's to say, as for people.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from companion_app.presenters.board_geometry import Spot
from companion_app.presenters.board_picture import action_spot
from companion_app.rules.actions import (
    Action,
    DisplaceKnight,
    MoveKnight,
    MoveShip,
    NobodyBuilds,
    Roll,
    StartSpecialBuild,
)
from companion_app.rules.cards import CARD_KINDS
from companion_app.rules.game import Game
from companion_app.rules.messages import Msg, msg, nmsg
from companion_app.rules.registry import button_words, told_lines
from companion_app.rules.words import Prior, Telling, hand_words

HINT_LEVEL = "expert"
"""The level whose choice "What would the Expert do?" shows a person."""

MAX_BOT_RUN = 200
"""A bound on the bot's decisions in a row before a person decides or the dice roll (a turn
of building, trading and cards is far shorter)."""


class BotChoice(Protocol):
    """What ``companion_app.bot.decide`` returns: an action legal now and why, in a line."""

    @property
    def action(self) -> Action: ...

    @property
    def reason(self) -> Msg: ...


Decide = Callable[[Game, int, str], BotChoice]


def bot_level(game: Game, seat: int) -> str | None:
    """The level the tablet plays ``seat`` at; None for a person."""
    players = game.config.players
    return players[seat].bot if 0 <= seat < len(players) else None


def has_bots(game: Game) -> bool:
    return any(p.bot is not None for p in game.config.players)


def bot_to_decide(game: Game, passed: Collection[int] = ()) -> int | None:
    """The bot seat whose decision is due now (its roll too: it may play a card before); while
    the table says who special-builds (5-6 players, §12) each bot seat that may still build, in
    the phase's order, until one builds: ``passed`` are the seats that said they do not at this
    decision. None when a person decides, the dice roll, or the game is over.

    The phase goes in seat order: a bot seat after a person who may still build waits for the
    table (the person builds, or the table names the bot's seat: the people before it pass,
    and the bot builds or is done at once), as the person waits for a bot seat before them."""
    if game.is_over:
        return None
    phase = game.special_build
    if game.awaiting_roll and phase is not None and not phase.building:
        for builder in game.special_builders_left():
            if bot_level(game, builder) is None:
                return None  # a person's word comes first
            if builder not in passed:
                return builder
        return None
    seat = game.prompt.player
    if bot_level(game, seat) is not None and seat not in passed:
        return seat
    return None


def play_bots(game: Game, apply: Callable[[Action], object], decide: Decide) -> dict[int, Msg]:
    """The bots decide until a person decides or the dice must roll (every bot asked at the
    decision answered "roll", or "I do not build"), each choice applied by ``apply`` (the app's
    path of a tap); returns each choice's reason by its history index."""
    reasons: dict[int, Msg] = {}
    passed: set[int] = set()
    at = len(game.history)
    for _step in range(MAX_BOT_RUN):
        if len(game.history) != at:
            passed, at = set(), len(game.history)
        seat = bot_to_decide(game, passed)
        if seat is None:
            break
        choice = ask(game, seat, decide)
        if choice is None:
            passed.add(seat)
            continue
        reasons[len(game.history)] = choice.reason
        apply(choice.action)
    return reasons


def ask(game: Game, seat: int, decide: Decide) -> BotChoice | None:
    """The bot's choice for ``seat`` now, or None when it waits for the dice (the box rolls:
    a press by anyone). ``decide`` gets a copy: the game is changed only through ``apply``."""
    level = bot_level(game, seat)
    assert level is not None
    choice = decide(copy.deepcopy(game), seat, level)
    return None if waits_for_table(choice.action) else choice


def waits_for_table(action: Action) -> bool:
    """The bot's answer leaves the decision to the table: "roll" (the box rolls), or "nobody
    (else) builds" (the people at the table may still say they do)."""
    return isinstance(action, Roll | NobodyBuilds)


# ---- the steps the table does by hand -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BotStep:
    """One thing the table does by hand for a bot: ``words`` (what to do), ``reason`` (the
    bot's, or None for a card move), ``spot`` (the place to highlight), the seat it is for."""

    seat: int
    words: Msg
    reason: Msg | None = None
    spot: Spot | None = None


@dataclass
class BotSteps:
    """The steps since the table last confirmed: what the screen shows until "Done"."""

    steps: list[BotStep] = field(default_factory=list)

    @property
    def spots(self) -> list[Spot]:
        return [s.spot for s in self.steps if s.spot is not None]


def step_spot(action: Action) -> Spot | None:
    """Where the bot's piece goes (a knight's move: where it arrives)."""
    if isinstance(action, MoveKnight | DisplaceKnight):
        return ("node", action.to)
    if isinstance(action, MoveShip):
        return ("edge", action.to)
    return action_spot(action)


def turn_steps(before: Game, actions: Sequence[Action], reasons: Mapping[int, Msg]) -> BotSteps:
    """The physical steps of ``actions`` played on from ``before`` (``reasons`` by history
    index): each bot decision's public log words with its reason and place, and each card that
    went between a person and a bot, as a move between that person and the bank."""
    game = copy.deepcopy(before)
    names = game.config.names
    steps: list[BotStep] = []
    for action in actions:
        index = len(game.history)
        # A roll is the box's press, who builds the table's say: not the bot's steps.
        decider = None if waits_for_table(action) else _decider(game, action)
        prior = Prior.of(game)
        hands = [list(game.hand(p)) for p in range(game.player_count)]
        progress = [len(game.progress_hand(p)) for p in range(game.player_count)]
        button = None
        if decider is not None:
            what = button_words(game, action, names)
            button = msg("{player}: {action}", player=names[decider], action=what)
        game.apply(action)
        lines = told_lines(Telling(game, names, prior, game.events), action)
        private = any(line.audience for line in lines)
        if decider is not None:
            # An action the log tells by what follows it (End turn) reads as its button.
            said = [line.text for line in lines] or ([button] if button is not None else [])
            for n, words in enumerate(said):
                reason = reasons.get(index) if n == 0 else None
                spot = step_spot(action) if n == 0 else None
                steps.append(BotStep(decider, words, reason, spot))
        steps += _bank_moves(game, hands, progress, private)
    return BotSteps(steps)


def _decider(game: Game, action: Action) -> int | None:
    """The bot seat that chose ``action`` (about to be applied to ``game``), or None for a
    person's: a special build is started by its builder's word."""
    if isinstance(action, StartSpecialBuild):
        return action.builder if bot_level(game, action.builder) is not None else None
    return bot_to_decide(game)


def _bank_moves(
    game: Game, hands: list[list[int]], progress: list[int], private: bool
) -> list[BotStep]:
    """Cards that went between a person and a bot in one action, as each person's move with
    the bank: a person gives to the bank what a bot got from them, takes from the bank what
    they got from a bot. A private exchange (a steal) names only the count: the person's own
    cards (their phone, "Show my cards") say which."""
    seats = range(game.player_count)
    bots = [p for p in seats if bot_level(game, p) is not None]
    if not bots:
        return []
    delta = [[game.hand(p)[c] - hands[p][c] for c in range(CARD_KINDS)] for p in seats]
    bot_got = [sum(max(0, delta[b][c]) for b in bots) for c in range(CARD_KINDS)]
    bot_gave = [sum(max(0, -delta[b][c]) for b in bots) for c in range(CARD_KINDS)]
    names = game.config.names
    bot_names = ", ".join(names[b] for b in bots if any(delta[b]))
    if not bot_names:
        progress_moves = _progress_moves(game, progress, bots)
        return progress_moves
    steps: list[BotStep] = []
    for p in seats:
        if p in bots:
            continue
        give = [min(max(0, -delta[p][c]), bot_got[c]) for c in range(CARD_KINDS)]
        take = [min(max(0, delta[p][c]), bot_gave[c]) for c in range(CARD_KINDS)]
        for c in range(CARD_KINDS):
            bot_got[c] -= give[c]
            bot_gave[c] -= take[c]
        if any(give):
            words = (
                nmsg(
                    "{person}: give {count} card to the bank, taken by {bot} (the tablet); "
                    "your own cards say which",
                    "{person}: give {count} cards to the bank, taken by {bot} (the tablet); "
                    "your own cards say which",
                    sum(give),
                    person=names[p],
                    bot=bot_names,
                )
                if private
                else msg(
                    "{person}: give {cards} to the bank, for {bot} (the tablet)",
                    person=names[p],
                    cards=hand_words(give),
                    bot=bot_names,
                )
            )
            steps.append(BotStep(p, words))
        if any(take):
            words = (
                nmsg(
                    "{person}: take {count} card from the bank, from {bot} (the tablet); "
                    "your own cards say which",
                    "{person}: take {count} cards from the bank, from {bot} (the tablet); "
                    "your own cards say which",
                    sum(take),
                    person=names[p],
                    bot=bot_names,
                )
                if private
                else msg(
                    "{person}: take {cards} from the bank, from {bot} (the tablet)",
                    person=names[p],
                    cards=hand_words(take),
                    bot=bot_names,
                )
            )
            steps.append(BotStep(p, words))
    return steps + _progress_moves(game, progress, bots)


def _progress_moves(game: Game, progress: list[int], bots: list[int]) -> list[BotStep]:
    """A progress card that went between a person and a bot (a Spy, a Deserter's trade): the
    person puts it under its deck or draws it from the tablet's word, by count only."""
    counts = [len(game.progress_hand(p)) - progress[p] for p in range(game.player_count)]
    if not any(counts[b] for b in bots):
        return []
    names = game.config.names
    steps = []
    bot_names = ", ".join(names[b] for b in bots if counts[b])
    for p in range(game.player_count):
        if p in bots or not counts[p]:
            continue
        if counts[p] < 0 and any(counts[b] > 0 for b in bots):
            words = nmsg(
                "{person}: put {count} progress card back under its deck, taken by {bot} "
                "(the tablet)",
                "{person}: put {count} progress cards back under their decks, taken by {bot} "
                "(the tablet)",
                -counts[p],
                person=names[p],
                bot=bot_names,
            )
            steps.append(BotStep(p, words))
        elif counts[p] > 0 and any(counts[b] < 0 for b in bots):
            words = nmsg(
                "{person}: take {count} progress card from its deck, given by {bot} (the "
                "tablet); Show my cards names it",
                "{person}: take {count} progress cards from their decks, given by {bot} (the "
                "tablet); Show my cards names them",
                counts[p],
                person=names[p],
                bot=bot_names,
            )
            steps.append(BotStep(p, words))
    return steps


# ---- what the table has still to confirm ------------------------------------------------------


@dataclass
class BotTable:
    """The bots' choices since the table last tapped "Done": kept from the position then
    (``start``), with each choice's reason by history index. An undo below that position
    starts again from where the game is (what was undone needs no hand)."""

    start: Game | None = None
    reasons: dict[int, Msg] = field(default_factory=dict)

    def follow(self, game: Game) -> None:
        """Keep up with ``game``: a new game, or an undo below the start, starts afresh."""
        start = self.start
        if start is None or not _continues(start, game):
            self.confirm(game)

    def confirm(self, game: Game) -> None:
        """ "Done": the table did every step so far."""
        self.start = copy.deepcopy(game)
        self.reasons = {i: r for i, r in self.reasons.items() if i >= len(game.history)}

    def note(self, index: int, reason: Msg) -> None:
        """The bot's reason for the choice it made at history ``index``."""
        self.reasons[index] = reason

    def steps(self, game: Game, *, deciding: bool) -> BotSteps:
        """The steps to show now: none while a bot is still ``deciding``."""
        self.follow(game)
        start = self.start
        assert start is not None
        if deciding or len(game.history) == len(start.history):
            return BotSteps()
        return turn_steps(start, game.history[len(start.history) :], self.reasons)


def _continues(start: Game, game: Game) -> bool:
    """``game`` is ``start``'s game played on (the same config, its history a prefix)."""
    before, now = start.history, game.history
    return (
        start.config == game.config
        and len(before) <= len(now)
        and list(now[: len(before)]) == list(before)
    )


def undoes_with_bots(game: Game) -> bool:
    """After an undo, the decision due is a bot seat's (its roll too: the box was pressed for
    it): one Undo takes back the bot's choices together with the person's tap before them."""
    return not game.is_over and bot_level(game, game.prompt.player) is not None


# ---- a hint for people --------------------------------------------------------------------------


def hint(game: Game, seat: int, decide: Decide) -> Msg | None:
    """ "What would the Expert do?" for a person deciding now: the Expert's choice in its button
    words and its reason, from what that seat may know (the bot reads only that); None when
    ``seat`` does not decide now, is the tablet's, or the game is over."""
    if game.is_over or game.prompt.player != seat or bot_level(game, seat) is not None:
        return None
    choice = decide(copy.deepcopy(game), seat, HINT_LEVEL)
    if isinstance(choice.action, Roll):
        action = msg("roll the dice")
    else:
        action = button_words(game, choice.action, game.config.names)
    return msg("The Expert would: {action}. {reason}", action=action, reason=choice.reason)
