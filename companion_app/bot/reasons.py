"""Why a bot chose its action: one line in the table's words (messages, translated)."""

from __future__ import annotations

from companion_app.rules import registry
from companion_app.rules.actions import Action
from companion_app.rules.messages import Msg, msg

ROLL = msg("Roll the dice")


def summary(action: Action) -> Msg:
    """The action's kind in words ("build a road"): the reason of a random choice."""
    return registry.summary(action)
