"""The bot: a seat the tablet plays (3 levels), deciding from what that seat may know.

Kivy-free and typed; it reads the rules core's public API, the rules core never imports it.
:func:`decide` answers the decision due for a seat at a level; the players behind the levels
are in :mod:`companion_app.bot.players`. See docs/bot.md.
"""

from __future__ import annotations

from companion_app.bot.decision import Decision, Player
from companion_app.bot.players import ExpertPlayer, GreedyPlayer, WeightedRandomPlayer
from companion_app.rules.game import Game
from companion_app.rules.messages import N_, Msg, msg

LEVELS: tuple[str, ...] = ("learner", "player", "expert")
"""The levels a table chooses from, weakest first."""

LEVEL_WORDS: dict[str, str] = {
    "learner": N_("Learner"),
    "player": N_("Player"),
    "expert": N_("Expert"),
}


def player_for(level: str, *, offers: int = 1) -> Player:
    """The player behind ``level``.

    :raises ValueError: for a level that is not one of :data:`LEVELS`.
    """
    if level == "learner":
        return WeightedRandomPlayer()
    if level == "player":
        return GreedyPlayer(offers)
    if level == "expert":
        return ExpertPlayer(offers)
    raise ValueError(f"no bot level {level!r} (levels: {', '.join(LEVELS)})")


def decide(game: Game, seat: int, level: str, *, offers: int = 1) -> Decision:
    """The seat's answer to the decision due, at ``level``, from what the seat may know.

    Called when ``game.prompt.player == seat`` (an offer to answer, a discard, a robber, the
    turn), at the roll when the seat may play a card first, and while the table asks who
    special-builds (5-6 players) for each seat that still may: a returned
    :class:`~companion_app.rules.actions.Roll` means "roll the dice" (the dice box rolls; its
    values are placeholders) and, while the table asks who builds, "I do not build".
    ``offers`` (0-2) is how many domestic trade offers the seat makes on one turn at most.
    The same position (history), seat and level give the same decision.
    """
    return player_for(level, offers=offers).decide(game, seat)


def level_name(level: str) -> Msg:
    """The level's word for the table ("Expert").

    :raises ValueError: for a level that is not one of :data:`LEVELS`.
    """
    if level not in LEVEL_WORDS:
        raise ValueError(f"no bot level {level!r} (levels: {', '.join(LEVELS)})")
    return msg(LEVEL_WORDS[level])


__all__ = ["LEVELS", "Decision", "Player", "decide", "level_name", "player_for"]
