"""The rules core's exceptions: every bad input is a ValueError subclass naming the problem."""

from __future__ import annotations

from typing import Protocol


class NamedAction(Protocol):
    """What an error tells of an action: its type's name. (The errors sit below every other
    module of the rules, the actions too, so they do not import them even for a type.)"""

    @property
    def type_name(self) -> str: ...


class RulesError(ValueError):
    """Base class of the rules core's errors."""


class IllegalActionError(RulesError):
    """An action that is not legal now. The message names the rule; the state is unchanged."""


class NothingToUndoError(RulesError):
    """Undo with no action taken yet (the rules' undo, and the journal's at a game's start)."""


class ReplayError(IllegalActionError):
    """An action of a replayed sequence that cannot be applied where it stands.

    The one error of :func:`companion_app.rules.game.replay_steps`, whoever replays (undo,
    ``Game.replay``, the journal, export validation, the statistics).
    """

    def __init__(self, index: int, action: NamedAction, reason: str) -> None:
        super().__init__(f"action {index} ({action.type_name}): {reason}")
        self.index = index
        """Position of the action in the replayed sequence (0 = the first)."""
        self.action = action
        self.reason = reason


class MalformedActionError(IllegalActionError):
    """Action data (usually JSON) that does not describe any action."""


class BoardError(RulesError):
    """A board description that is not a valid Catan board; the message names the first problem."""


class ConfigError(RulesError):
    """A game configuration that cannot start a game."""


class StateError(RulesError):
    """Game state JSON that cannot be loaded."""
