"""The game: the state with its public API (legal actions, apply, undo, replay, JSON, views).

Style of python-chess: :meth:`Game.legal_actions` lists exactly the legal choices now (domestic
trade offers excepted: their amounts are free, :meth:`Game.is_legal` decides them);
:meth:`Game.apply` rejects anything else with :class:`IllegalActionError` naming the rule and
leaves the state untouched; :meth:`Game.undo` takes the last action back.

The layers below, imported one way (see docs/architecture.md): :mod:`state` (data and derived
indexes) <- :mod:`operations` (shared operations) <- :mod:`turnflow` (the prompt queue and
stage) <- the mechanics (:mod:`base`, :mod:`robber`, :mod:`knights`, :mod:`barbarians`,
:mod:`improvements`, :mod:`progress`), each declaring its actions <- :mod:`registry` <- this
facade, with :mod:`codec` (JSON) and :mod:`views` (hidden information) beside it.

Section numbers (§) refer to the project's rules reference.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from companion_app.rules import codec, forecast, operations, registry, turnflow, views, whynot
from companion_app.rules.actions import EVENT_DIE_FACES, Action, action_from_json
from companion_app.rules.cards import Track
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import (
    IllegalActionError,
    NothingToUndoError,
    ReplayError,
    StateError,
)
from companion_app.rules.messages import Msg, msg
from companion_app.rules.pieces import NOBODY
from companion_app.rules.prompts import PromptKind
from companion_app.rules.state import GameState, VictoryPoints, copy_fields

STATE_VERSION = codec.STATE_VERSION
SNAPSHOT_EVERY = 128
"""Actions between the state snapshots undo starts from (undo replays at most this many)."""
_TAIL_COPIED = 32
"""The longest history tail :meth:`Game.copy` copies; a longer one is joined to it first."""


class Game(GameState):
    """A game of Cities & Knights in progress. Create with :meth:`new` or :meth:`from_json`.

    Seats are 0 … n-1 in seat order (``config.players``). Public attributes are read-only for
    callers; only :meth:`apply` and :meth:`undo` change a game.
    """

    def __init__(self, config: GameConfig) -> None:
        """Use :meth:`new`; this sets up the empty board before the setup rounds."""
        super().__init__(config)
        self._history: list[Action] = []
        """:attr:`history`, or while shared with copies (never changed then) its start."""
        self._history_tail: list[Action] = []
        """The rest, this game's own, while ``_history`` is shared (:meth:`copy`)."""
        self._restored_from: dict[str, Any] | None = None
        self._snapshots: list[tuple[int, dict[str, Any]]] = []
        """(len(history), the fields then, copied) every :data:`SNAPSHOT_EVERY` actions: undo
        replays from the latest one instead of from the start. Never changed: copied when
        used."""
        self._legal_cache: list[Action] | None = None
        self._history_shared = False
        """``_history`` is shared with a copy (:meth:`copy`): it never changes any more."""
        self._undo_records: list[tuple[int, dict[str, Any]]] = []
        """(index in history, the fields before that action) per action taken with :meth:`push`
        and not yet undone: :meth:`undo` restores them instead of replaying."""

    @classmethod
    def new(cls, config: GameConfig) -> Game:
        """A new game at the first setup placement (§2)."""
        return cls(config)

    @classmethod
    def replay(cls, config: GameConfig, actions: Iterable[Action]) -> Game:
        """A new game with ``actions`` applied in order.

        :raises ReplayError: at the first action that is not legal where it stands.
        """
        return replay_onto(cls(config), actions)

    @property
    def history(self) -> list[Action]:
        """Actions applied since :meth:`at_history_start`; read-only for callers."""
        if self._history_tail:  # joined when read
            self._history, self._history_tail = self._history + self._history_tail, []
            self._history_shared = False
        return self._history

    # ---- legality ---------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every legal action now, except domestic trade offers (see :meth:`is_legal`).

        The list is cached until the state changes; do not modify it.
        """
        if self._legal_cache is None:
            prompt = self.prompt
            options = registry.OPTIONS.get(prompt.kind)
            self._legal_cache = [] if options is None else options(self, prompt.player)
        return self._legal_cache

    def describe_prompt(self) -> Msg:
        """The decision due in plain words: "Anna: discard 4 cards"."""
        return registry.describe_prompt(self.prompt, self.config.names, sea=self.topology.has_sea)

    def may_offer_trade(self) -> bool:
        """True while the player on turn may make domestic trade offers."""
        return self.prompt.kind is PromptKind.TURN and self.card_count(self.active) > 0

    def is_legal(self, action: Action) -> bool:
        return self.illegal_reason(action) is None

    def illegal_reason(self, action: Action) -> Msg | None:
        """Why ``action`` is not legal now, in words naming the rule; None if it is legal."""
        prompt = self.prompt
        if prompt.kind is PromptKind.GAME_OVER:
            return msg("the game is over")
        quick = self.config.quick_knights
        allowed = registry.ALLOWED_QUICK_KNIGHTS if quick else registry.ALLOWED
        if type(action) not in allowed[prompt.kind]:
            return msg(
                "{action} is not possible now: {prompt}",
                action=registry.summary(action),
                prompt=self.describe_prompt(),
            )
        if action.player != prompt.player:
            names = self.config.names
            who = names[action.player] if 0 <= action.player < len(names) else action.player
            return msg(
                "it is not {player}'s decision: {prompt}", player=who, prompt=self.describe_prompt()
            )
        return registry.CHECKS[type(action)](self, action)

    def castle_draws(self) -> tuple[int, ...]:
        """The seats that draw a progress card on this turn's castle (§9), the active player
        first: each whose level on the castle's track draws on the red die. Empty while a roll
        is due and after a ship."""
        return forecast.castle_draws(self)

    def barbarian_forecast(self) -> forecast.BarbarianForecast:
        """The next attack as it would go now, with the spaces and rolls left (§7)."""
        return forecast.barbarian_forecast(self)

    def castle_table(self) -> dict[Track, tuple[tuple[int, ...], ...]]:
        """Per track, per red number 1-6, the seats that would draw on its castle (§9)."""
        return forecast.castle_table(self)

    def why_not(self, kind: whynot.Kind, player: int) -> whynot.Reason | None:
        """Why ``player`` cannot take ``kind`` of action now (an action type, or playing a
        progress card), in the table's words; None if they can. A ``private`` reason tells what
        the hand holds."""
        return whynot.why_not(self, kind, player, self.legal_actions())

    def why_not_now(self, player: int) -> list[tuple[Msg, whynot.Reason]]:
        """Every kind of the turn's actions, and every progress card held, that ``player``
        cannot take now: its name and its reason."""
        return whynot.why_not_now(self, player, self.legal_actions())

    def longest_road(self, player: int) -> int:
        """Length of the player's longest road (§11)."""
        return operations.longest_road(self, player)

    # ---- applying ---------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply a legal action.

        :raises IllegalActionError: naming the rule if ``action`` is not legal now; the state
            is then unchanged.
        """
        if not self._listed(action):
            reason = self.illegal_reason(action)
            if reason is not None:
                raise IllegalActionError(reason)
        self._apply_unchecked(action)

    def _listed(self, action: Action) -> bool:
        """``action`` is one of the listed legal actions (the very value): legal by
        construction, as the property tests hold, so its rules need no second check."""
        listed = self._legal_cache
        if listed is not None:
            for legal in listed:
                if legal is action:
                    return True
        return False

    def push(self, action: Action) -> None:
        """Apply a legal action as :meth:`apply` does, keeping what :meth:`undo` needs to take
        it back without a replay: a copy of the state before it (the cost of :meth:`copy`).
        For search: ``push`` each move, ``undo`` on the way back.

        :raises IllegalActionError: as :meth:`apply`; the state is then unchanged.
        """
        if not self._listed(action):
            reason = self.illegal_reason(action)
            if reason is not None:
                raise IllegalActionError(reason)
        before = self.copied_fields()
        self._apply_effects(action)
        self._undo_records.append((len(self._history) + len(self._history_tail) - 1, before))

    def copy(self) -> Game:
        """An independent copy: the same state, legal actions, history and JSON. Applying to
        either never changes the other. Costs a copy of the state's lists; the history (a list
        of immutable actions) is shared, each adding its own actions after it (a tail), and the
        legal-action list is shared (both are read-only for callers). Actions taken with
        :meth:`push` before the copy are undone by replay in the copy."""
        fields = self.copied_fields()
        fields["_snapshots"] = self._snapshots.copy()
        fields["_undo_records"] = []
        tail = self._history_tail
        if len(tail) > _TAIL_COPIED:
            self._history = fields["_history"] = self._history + tail
            tail = self._history_tail = []
        fields["_history_tail"] = tail.copy()
        self._history_shared = fields["_history_shared"] = True
        twin = Game.__new__(Game)
        twin.__dict__ = fields
        return twin

    def apply_json(self, data: object) -> Action:
        """Parse and apply an action's JSON form; returns the parsed action.

        :raises MalformedActionError: for data that describes no action.
        :raises IllegalActionError: for an action not legal now.
        """
        action = action_from_json(data)
        self.apply(action)
        return action

    def _apply_unchecked(self, action: Action) -> None:
        self._apply_effects(action)
        length = len(self._history) + len(self._history_tail)
        if length % SNAPSHOT_EVERY == 0:
            self._snapshots.append((length, self.copied_fields()))

    def _apply_effects(self, action: Action) -> None:
        """Apply ``action``, known legal, without a snapshot (:meth:`push` keeps its own)."""
        if self.events:
            self.events = []
        registry.EFFECTS[type(action)](self, action)
        (self._history_tail if self._history_shared else self._history).append(action)
        self._legal_cache = None
        turnflow.check_win(self)

    def undo(self) -> Action:
        """Take back the last action (a roll included): one taken with :meth:`push` from the
        copy it kept, any other by replaying the others.

        :raises NothingToUndoError: if no action was taken yet (since :meth:`from_json`).
        """
        kept = len(self._history) + len(self._history_tail) - 1
        if kept < 0:
            raise NothingToUndoError()
        history, tail, shared = self._history, self._history_tail, self._history_shared
        if shared and not tail:  # a shared list never changes: this game takes a copy
            history, tail, shared = history[:kept], [history[-1]], False
        undone = (tail or history).pop()
        snapshots = self._snapshots
        while snapshots and snapshots[-1][0] > kept:
            snapshots.pop()
        records = self._undo_records
        while records and records[-1][0] > kept:
            records.pop()
        if records and records[-1][0] == kept:
            self._restore(records.pop()[1], (history, tail, shared), snapshots, records)
            return undone
        history = history + tail
        if snapshots:
            start, fields = snapshots[-1]
            self._restore(copy_fields(fields), (history[:start], [], False), snapshots, records)
        else:
            start = 0
            self._restore(self.at_history_start().__dict__, ([], [], False), snapshots, records)
        replay_onto(self, history[start:kept], checked=False)
        return undone

    def _restore(
        self,
        fields: dict[str, Any],
        history: tuple[list[Action], list[Action], bool],
        snapshots: list[tuple[int, dict[str, Any]]],
        records: list[tuple[int, dict[str, Any]]],
    ) -> None:
        """Become ``fields`` (taken as it is) with this history, snapshots and records kept."""
        fields["_history"], fields["_history_tail"], fields["_history_shared"] = history
        fields["_snapshots"] = snapshots
        fields["_undo_records"] = records
        fields["_restored_from"] = self._restored_from
        self.__dict__ = fields

    @property
    def restored_from(self) -> Mapping[str, Any] | None:
        """The state :meth:`from_json` restored, which :attr:`history` starts from (the same
        object in every copy; read-only); None for a new game's history."""
        return self._restored_from

    def at_history_start(self) -> Game:
        """A new game in the state :attr:`history` starts from: a fresh game, or the restored
        state of :meth:`from_json`."""
        if self._restored_from is None:
            return Game(self.config)
        return Game.from_json(self._restored_from)

    # ---- JSON and views -----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole state (not the history) as JSON-compatible data."""
        return codec.state_to_json(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Game:
        """A game in the state :meth:`to_json` described, without history (undo starts here).

        :raises StateError: naming what is wrong.
        """
        game = cls._loaded(data)
        game._restored_from = game.to_json()
        return game

    @classmethod
    def resumed(
        cls, config: GameConfig, history: Iterable[Action], data: Mapping[str, Any]
    ) -> Game:
        """A new game of ``config`` with ``history`` applied, given the state :meth:`to_json`
        described after them, so that they need not be replayed (a journal's snapshot, checked
        by its keeper to be of these actions). Undo works as after a replay, from this state.

        :raises StateError: naming what is wrong, also a state of another config.
        """
        game = cls._loaded(data)
        if game.config != config:
            raise StateError("the state is of another game (its config differs)")
        game._history = list(history)
        game._snapshots = [(len(game._history), game.copied_fields())]
        return game

    @classmethod
    def _loaded(cls, data: Mapping[str, Any]) -> Game:
        game = cls(codec.config_of(data))
        codec.load_state(game, data)
        game.index_tokens()
        game.rebuild_indexes()
        return game

    def view_for(self, player: int) -> dict[str, Any]:
        """The state as ``player`` may see it (JSON-compatible): their own cards in full,
        others' cards as counts, the decks' order hidden. See :func:`views.view_for`."""
        return views.view_for(self, player)


def replay_steps(
    game: Game, actions: Iterable[Action], *, checked: bool = True
) -> Iterator[tuple[int, Action]]:
    """Apply ``actions`` to ``game`` in order, yielding ``(index, action)`` after each.

    The one replay loop. ``checked=False`` skips the legality check for a history this core
    wrote itself (undo).

    :raises ReplayError: at the first action that cannot be applied where it stands; an
        unexpected failure inside the rules core is reported the same way, so a file or a
        journal row can never crash a caller.
    """
    for index, action in enumerate(actions):
        try:
            if checked:
                game.apply(action)
            else:
                game._apply_unchecked(action)
        except IllegalActionError as exc:
            raise ReplayError(index, action, exc.message) from exc
        except Exception as exc:  # a rules bug, met through hostile input: still one error
            problem = repr(exc)  # a bug's own words, for the engineer
            raise ReplayError(
                index, action, msg("the rules core cannot apply it ({problem})", problem=problem)
            ) from exc
        yield index, action


def replay_onto(game: Game, actions: Iterable[Action], *, checked: bool = True) -> Game:
    """``game`` with ``actions`` applied in order (see :func:`replay_steps`)."""
    for _ in replay_steps(game, actions, checked=checked):
        pass
    return game


__all__ = [
    "EVENT_DIE_FACES",
    "NOBODY",
    "Game",
    "NothingToUndoError",
    "ReplayError",
    "VictoryPoints",
    "replay_onto",
    "replay_steps",
]
