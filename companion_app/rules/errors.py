"""The rules core's exceptions: every bad input is a ValueError subclass naming the problem."""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of the rules core's errors."""


class IllegalActionError(RulesError):
    """An action that is not legal now. The message names the rule; the state is unchanged."""


class MalformedActionError(IllegalActionError):
    """Action data (usually JSON) that does not describe any action."""


class BoardError(RulesError):
    """A board description that is not a valid Catan board; the message names the first problem."""


class ConfigError(RulesError):
    """A game configuration that cannot start a game."""


class StateError(RulesError):
    """Game state JSON that cannot be loaded."""
