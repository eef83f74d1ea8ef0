"""The bot's players, one per level and two below them for benchmarks.

Every player decides from what its seat may know: the random ones read only the legal actions
(its own hand decides them), the greedy player and the expert look ahead on a redrawn game
(:func:`companion_app.rules.hidden.redraw_hidden`) where the cards the seat cannot see were
dealt again, so nothing they choose can depend on another hand, a deck or the dice to come.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion_app.bot import reasons
from companion_app.bot.decision import Decision
from companion_app.bot.sim import bot_rng, roll_answer
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
    EndSpecialBuild,
    EndTurn,
    OfferTrade,
    PlaceMetropolis,
    PromoteKnight,
    Roll,
    StartSpecialBuild,
)
from companion_app.rules.game import Game
from companion_app.rules.rng import SplitMix64

OFFERS_MAX = 2
"""The most domestic offers a bot makes on one turn (the setting's range is 0-2)."""


def seat_options(game: Game, seat: int) -> list[Action]:
    """What ``seat`` may answer now, rolls left out (the dice box rolls them).

    At the roll: the plays before it (the Alchemist; chasing the robber with quick knights).
    While the table says who special-builds (5-6 players): this seat's own start, if it may.
    """
    prompt = game.prompt
    if asks_who_builds(game):
        if seat in game.special_builders_left():
            return [StartSpecialBuild(prompt.player, seat)]
        return []
    if prompt.player != seat:
        return []
    return [a for a in game.legal_actions() if not isinstance(a, Roll)]


def asks_who_builds(game: Game) -> bool:
    """The table says who special-builds (5-6 players, §12): the next roll ends the phase."""
    phase = game.special_build
    return game.awaiting_roll and phase is not None and not phase.building


def is_building_turn(options: Sequence[Action]) -> bool:
    """A turn's (or a special build's) choices: those that may be ended by the player."""
    return any(isinstance(a, EndTurn | EndSpecialBuild) for a in options)


def must_roll(game: Game, seat: int) -> Decision:
    """The answer when the seat does nothing before the dice: roll them."""
    return Decision(roll_answer(game, game.prompt.player), reasons.ROLL)


def kind_of(action: Action) -> object:
    """An action's kind for choosing among kinds first: its type, a progress card by card."""
    if isinstance(action, progress.PLAY_TYPES):
        return progress.card_of(action)
    return type(action)


def by_kind(actions: Sequence[Action]) -> list[list[Action]]:
    groups: dict[object, list[Action]] = {}
    for action in actions:
        groups.setdefault(kind_of(action), []).append(action)
    return list(groups.values())


def offers_this_turn(game: Game, seat: int) -> list[OfferTrade]:
    """The domestic offers ``seat`` made since its roll on this turn (the history is public)."""
    made: list[OfferTrade] = []
    for action in reversed(game.history):
        if isinstance(action, Roll | EndTurn):
            break
        if isinstance(action, OfferTrade) and action.player == seat:
            made.append(action)
    return made


class RandomPlayer:
    """A kind of action uniformly, then one of its actions uniformly (as random play does);
    before the roll a card is played one time in four, a special build one time in two."""

    salt = 1

    def decide(self, game: Game, seat: int) -> Decision:
        rng = bot_rng(game, seat, self.salt)
        options = seat_options(game, seat)
        if game.awaiting_roll:
            if options and rng.below(2 if asks_who_builds(game) else 4) == 0:
                action = options[rng.below(len(options))]
                return Decision(action, reasons.summary(action))
            return must_roll(game, seat)
        if not options:
            raise ValueError(f"seat {seat} has no decision now: {game.describe_prompt()}")
        chosen = options
        if is_building_turn(options):
            groups = by_kind(options)
            chosen = groups[rng.below(len(groups))]
        action = chosen[rng.below(len(chosen))]
        return Decision(action, reasons.summary(action))


WEIGHTS: dict[object, int] = {
    BuildCity: 40,
    PlaceMetropolis: 40,
    BuildSettlement: 30,
    BuyImprovement: 25,
    BuildKnight: 12,
    ActivateKnight: 12,
    PromoteKnight: 10,
    BuildCityWall: 6,
    BuildRoad: 6,
    BankTrade: 3,
    EndTurn: 2,
}
"""The weighted random player's preference per kind of action (progress cards and the rest
weigh 4)."""


def weighted_choice(rng: SplitMix64, groups: list[list[Action]]) -> Action:
    weights = [WEIGHTS.get(kind_of(g[0]), 4) for g in groups]
    pick = rng.below(sum(weights))
    for group, weight in zip(groups, weights, strict=True):
        if pick < weight:
            return group[rng.below(len(group))]
        pick -= weight
    raise AssertionError("weights exhausted")  # pragma: no cover


class WeightedRandomPlayer(RandomPlayer):
    """Random, but cities, settlements, improvements and knights first (:data:`WEIGHTS`)."""

    salt = 2

    def decide(self, game: Game, seat: int) -> Decision:
        options = seat_options(game, seat)
        if game.awaiting_roll or not is_building_turn(options):
            return super().decide(game, seat)
        rng = bot_rng(game, seat, self.salt)
        action = weighted_choice(rng, by_kind(options))
        return Decision(action, reasons.summary(action))
