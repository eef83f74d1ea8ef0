"""The rules core's exceptions: every bad input is a ValueError subclass naming the problem.

A refusal the table reads (an illegal action, nothing to undo) carries its reason as a
:class:`~messages.Msg` in ``message``; ``str()`` is its English text, for logs and tracebacks.
"""

from __future__ import annotations

from typing import Protocol

from companion_app.rules.messages import Msg, msg


class NamedAction(Protocol):
    """What an error tells of an action: its type's name. (The errors sit below every other
    module of the rules, the actions too, so they do not import them even for a type.)"""

    @property
    def type_name(self) -> str: ...


class RulesError(ValueError):
    """Base class of the rules core's errors: ``message`` is what the table reads, when a
    person may meet it (a :class:`~messages.Msg`); None for a file's or an engineer's fault,
    whose English ``str()`` says it all."""

    def __init__(self, message: Msg | str) -> None:
        super().__init__(str(message))
        self.message: Msg | None = message if isinstance(message, Msg) else None


class IllegalActionError(RulesError):
    """An action that is not legal now. The message names the rule; the state is unchanged."""

    message: Msg

    def __init__(self, message: Msg) -> None:
        super().__init__(message)
        self.message = message


class NothingToUndoError(RulesError):
    """Undo with no action taken yet (the rules' undo, and the journal's at a game's start)."""

    message: Msg

    def __init__(self, message: Msg | None = None) -> None:
        super().__init__(message or msg("nothing to undo: no action was taken yet"))


class ReplayError(IllegalActionError):
    """An action of a replayed sequence that cannot be applied where it stands.

    The one error of :func:`companion_app.rules.game.replay_steps`, whoever replays (undo,
    ``Game.replay``, the journal, export validation, the statistics).
    """

    def __init__(self, index: int, action: NamedAction, reason: Msg) -> None:
        super().__init__(
            msg(
                "action {index} ({action}): {reason}",
                index=index,
                action=action.type_name,
                reason=reason,
            )
        )
        self.index = index
        """Position of the action in the replayed sequence (0 = the first)."""
        self.action = action
        self.reason = reason


class MalformedActionError(IllegalActionError):
    """Action data (usually JSON) that does not describe any action. Its problem stays in
    English: hostile or broken data, for the engineer reading the log; the table reads one
    sentence around it."""

    def __init__(self, problem: str) -> None:
        super().__init__(msg("not an action of this game ({problem})", problem=problem))
        self.args = (problem,)  # str(): the problem itself, as files and logs have it
        self.problem = problem


class BoardError(RulesError):
    """A board description that is not a valid Catan board; the message names the first problem."""


class ConfigError(RulesError):
    """A game configuration that cannot start a game."""


class StateError(RulesError):
    """Game state JSON that cannot be loaded."""
