"""What a bot answers: one legal action and its reason in the table's words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from companion_app.rules.actions import Action
from companion_app.rules.game import Game
from companion_app.rules.messages import Msg


@dataclass(frozen=True, slots=True)
class Decision:
    """The seat's answer to the decision due. ``action`` is legal in the game it was asked
    about; a :class:`~companion_app.rules.actions.Roll` means "roll the dice": the table's dice
    decide its values (see :func:`companion_app.bot.decide`)."""

    action: Action
    reason: Msg
    """One line for the table: why this action."""


class Player(Protocol):
    """A level's way of playing one seat."""

    def decide(self, game: Game, seat: int) -> Decision: ...
