"""Why a bot chose its action: one line in the table's words (messages, translated).

Each reason is a sentence of its own, shown after the action ("The Expert would: ... .
{reason}") or under a bot's step: its words begin with a capital letter in every language, so
none begins with a placeholder that may be a lower-case word (a card, an action's kind).
"""

from __future__ import annotations

from companion_app.bot import sea
from companion_app.rules import progress
from companion_app.rules.actions import (
    Action,
    ActivateKnight,
    BankTrade,
    BuildCity,
    BuildCityWall,
    BuildKnight,
    BuildRoad,
    BuildSettlement,
    BuyImprovement,
    CommitKnights,
    DiscardCard,
    EndSpecialBuild,
    EndTurn,
    MoveRobber,
    OfferTrade,
    PromoteKnight,
    StealFrom,
)
from companion_app.rules.cards import IMPROVEMENT_NAMES, Card
from companion_app.rules.game import Game
from companion_app.rules.messages import Msg, listing, msg

ROLL = msg("Roll the dice")
SPECIAL_BUILD = msg("I build in the special build phase")


RANDOM = msg("Picked at random among the moves allowed")
"""The reason of a random choice."""
BEST = msg("It scores best of the options looked at")
"""The reason of a searched choice without a line of its own."""


def summary(action: Action) -> Msg:
    """The reason of a random choice (the action itself is shown beside it)."""
    return RANDOM


def numbers_at(game: Game, node: int) -> str:
    """The number tokens around an intersection, highest odds first ("6, 9, 4")."""
    tokens = [game.tokens[h] for h in game.topology.node_hexes[node]]
    shown = sorted((t for t in tokens if t is not None), key=lambda t: abs(7 - t))
    return ", ".join(str(t) for t in shown) or "-"


def cards_words(hand: tuple[int, ...]) -> Msg:
    return listing([Card(c).counted(n) for c, n in enumerate(hand) if n], msg("nothing"))


def explain(game: Game, seat: int, action: Action) -> Msg:  # noqa: PLR0912 - a line per kind
    """The line for the table about ``action``, chosen by ``seat`` in ``game`` (before it)."""
    if game.topology.has_sea:
        line = sea.explain(game, seat, action)
        if line is not None:
            return line
    if isinstance(action, BuildCity):
        return msg(
            "A city on {numbers}: twice the cards there", numbers=numbers_at(game, action.node)
        )
    if isinstance(action, BuildSettlement):
        return msg(
            "A settlement on {numbers}: a point and new cards",
            numbers=numbers_at(game, action.node),
        )
    if isinstance(action, BuildRoad):
        return msg("A road toward the next settlement")
    if isinstance(action, BuildKnight | ActivateKnight | PromoteKnight | CommitKnights):
        return msg("Knights against the barbarians")
    if isinstance(action, BuildCityWall):
        return msg("A city wall: more cards kept on a 7")
    if isinstance(action, BuyImprovement):
        level = game.improvements[seat][action.track.index]
        return msg(
            "{improvement}: toward the metropolis",
            improvement=IMPROVEMENT_NAMES[action.track][level],
        )
    if isinstance(action, BankTrade):
        return msg(
            "A trade with the bank, {give} for {take}: for the next build",
            give=action.give.words,
            take=action.take.words,
        )
    if isinstance(action, progress.PLAY_TYPES):
        return msg("{card} now: it helps most this turn", card=progress.card_of(action).title)
    if isinstance(action, EndTurn | EndSpecialBuild):
        return msg("Nothing better to do: end the turn")
    if isinstance(action, MoveRobber):
        return msg("The robber where it hurts the leader most")
    if isinstance(action, StealFrom):
        return msg(
            "Stealing from {player}: the leader first", player=game.config.names[action.victim]
        )
    if isinstance(action, DiscardCard):
        return msg("Keeping the cards for the next build")
    return BEST


def offer(action: OfferTrade) -> Msg:
    return msg(
        "An offer: {give} for {take}, for the next build",
        give=cards_words(action.give),
        take=cards_words(action.take),
    )


def accepted(game: Game, offerer: int) -> Msg:
    return msg("The trade helps me more than {player}", player=game.config.names[offerer])


def declined(game: Game, offerer: int) -> Msg:
    return msg("The trade helps {player} more than me", player=game.config.names[offerer])


def declined_near_win(game: Game, offerer: int) -> Msg:
    return msg("{player} is close to winning: no trade", player=game.config.names[offerer])
