"""The bot's players, one per level and two below them for benchmarks.

Every player decides from what its seat may know: the random ones read only the legal actions
(its own hand decides them), the greedy player and the expert look ahead on a redrawn game
(:func:`companion_app.rules.hidden.redraw_hidden`) where the cards the seat cannot see were
dealt again, so nothing they choose can depend on another hand, a deck or the dice to come.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from companion_app.bot import reasons
from companion_app.bot.decision import Decision
from companion_app.bot.sim import bot_rng, clone, mix, roll_answer
from companion_app.bot.value import PIPS, expert_value, hand_points, value
from companion_app.rules import progress, registry
from companion_app.rules.actions import (
    AcceptTrade,
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
    DeclineTrade,
    EndSpecialBuild,
    EndTurn,
    OfferTrade,
    PlaceMetropolis,
    PlayAlchemist,
    PromoteKnight,
    Roll,
    StartSpecialBuild,
)
from companion_app.rules.cards import CARD_KINDS, COSTS, Build, Card
from companion_app.rules.game import Game
from companion_app.rules.hidden import redraw_hidden
from companion_app.rules.pieces import CITY
from companion_app.rules.progress import draws_card
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


def seat_seed(game: Game, seat: int, salt: int) -> int:
    return mix(game.config.seed, seat, len(game.history), salt)


Judge = Callable[[Game, int], float]
"""A seat's value of a game: :func:`~companion_app.bot.value.value`, or the expert's."""


def ranked(
    sample: Game, seat: int, options: Sequence[Action], judge: Judge = value
) -> list[tuple[float, int, Action]]:
    """Each option's value for the seat one action ahead on ``sample`` (and its follow-ups,
    see :func:`settle`), best first (ties in the options' order)."""
    scored: list[tuple[float, int, Action]] = []
    for i, action in enumerate(options):
        ahead = clone(sample)
        if not ahead.is_legal(action):  # pragma: no cover - a seat's options are its own
            continue
        ahead.apply(action)
        scored.append((settle(ahead, seat, judge), -i, action))
    scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
    return scored


FOLLOW_UPS = 6
"""Decisions an action sets off (a card's roads, promotions, a victim's card, the others'
discards on a Saboteur) played out before the value is read."""


def settle(game: Game, seat: int, judge: Judge = value) -> float:
    """The seat's value once what ``game``'s last action set off is decided: the seat's own
    follow-ups by their immediate value, the others' (forced answers) by their first option,
    until the turn or the roll is back."""
    for _ in range(FOLLOW_UPS):
        if game.is_over or game.awaiting_roll or registry.is_turn(game):
            break
        options = game.legal_actions()
        if not options or is_building_turn(options):
            break
        if game.prompt.player == seat:
            best, best_value = options[0], -math.inf
            for action in options:
                ahead = clone(game)
                ahead.apply(action)
                worth = judge(ahead, seat)
                if worth > best_value:
                    best, best_value = action, worth
            game.apply(best)
        else:
            game.apply(options[0])
    return judge(game, seat)


def cards_on_sum(game: Game, seat: int, total: int) -> int:
    """Cards the seat's buildings take on a production roll of ``total``."""
    cards = 0
    for h in game.token_hexes.get(total, ()):
        if h == game.robber_hex:
            continue
        for node in game.topology.hex_nodes[h]:
            if game.node_owner[node] == seat:
                cards += 2 if game.node_level[node] == CITY else 1
    return cards


def alchemist_choice(game: Game, seat: int, options: Sequence[Action]) -> PlayAlchemist | None:
    """The Alchemist's dice when they bring the seat 2 cards more than a roll on average:
    the best sum (never a 7), the red die that draws the most progress cards."""
    plays = [a for a in options if isinstance(a, PlayAlchemist)]
    if not plays:
        return None
    average = sum(PIPS[s] * cards_on_sum(game, seat, s) for s in range(2, 13)) / 36

    def worth(a: PlayAlchemist) -> tuple[int, int]:
        total = a.yellow + a.red
        if total == SEVEN:
            return (-1, 0)
        draws = sum(1 for level in game.improvements[seat] if draws_card(level, a.red))
        return (cards_on_sum(game, seat, total), draws)

    best = max(plays, key=worth)
    if worth(best)[0] >= average + ALCHEMIST_GAIN:
        return best
    return None


class GreedyPlayer:
    """One action ahead over the written value (:mod:`companion_app.bot.value`), on a game
    where what the seat cannot see was dealt again (the seat's own information only)."""

    salt = 3

    def __init__(self, offers: int = 1) -> None:
        self.offers = max(0, min(OFFERS_MAX, offers))

    def sample(self, game: Game, seat: int, index: int = 0) -> Game:
        return redraw_hidden(game, seat, seat_seed(game, seat, self.salt * 1000 + index))

    def decide(self, game: Game, seat: int) -> Decision:
        options = seat_options(game, seat)
        if game.awaiting_roll:
            return self.before_roll(game, seat, options)
        if not options:
            raise ValueError(f"seat {seat} has no decision now: {game.describe_prompt()}")
        if len(options) == 1:
            return Decision(options[0], reasons.explain(game, seat, options[0]))
        commits = [a for a in options if isinstance(a, CommitKnights)]
        if commits:
            action = commitment(game, seat, commits)
            return Decision(action, reasons.explain(game, seat, action))
        if any(isinstance(a, AcceptTrade) for a in options):
            return self.answer_offer(game, seat)
        best = self.choose(game, seat, options)
        if isinstance(best, EndTurn | BankTrade) and self.offers:
            offer = self.offer(game, seat)
            if offer is not None:
                return Decision(offer, reasons.offer(offer))
        return Decision(best, reasons.explain(game, seat, best))

    def choose(self, game: Game, seat: int, options: Sequence[Action]) -> Action:
        return ranked(self.sample(game, seat), seat, options)[0][2]

    def before_roll(self, game: Game, seat: int, options: Sequence[Action]) -> Decision:
        if asks_who_builds(game):
            if options and self.wants_special_build(game, seat, options[0]):
                return Decision(options[0], reasons.SPECIAL_BUILD)
            return must_roll(game, seat)
        alchemist = alchemist_choice(game, seat, options)
        if alchemist is not None:
            return Decision(alchemist, reasons.explain(game, seat, alchemist))
        others = [a for a in options if not isinstance(a, PlayAlchemist)]
        if others:
            sample = self.sample(game, seat)
            best = ranked(sample, seat, others)[0]
            if best[0] > value(sample, seat) + 1:
                return Decision(best[2], reasons.explain(game, seat, best[2]))
        return must_roll(game, seat)

    def wants_special_build(self, game: Game, seat: int, start: Action) -> bool:
        ahead = clone(self.sample(game, seat))
        ahead.apply(start)
        options = ahead.legal_actions()
        best = ranked(ahead, seat, options)[0][2]
        return not isinstance(best, EndSpecialBuild)

    def answer_offer(self, game: Game, seat: int) -> Decision:
        offer = game.offer
        assert offer is not None
        target = game.config.vp_target
        if game.victory_points(offer.player) >= target - WIN_REACH:
            return Decision(DeclineTrade(seat), reasons.declined_near_win(game, offer.player))
        sample = self.sample(game, seat)
        accepted, declined = clone(sample), clone(sample)
        accepted.apply(AcceptTrade(seat))
        declined.apply(DeclineTrade(seat))
        if value(accepted, seat) > value(declined, seat) + accept_margin(game, seat, offer.player):
            return Decision(AcceptTrade(seat), reasons.accepted(game, offer.player))
        return Decision(DeclineTrade(seat), reasons.declined(game, offer.player))

    def offer(self, game: Game, seat: int) -> OfferTrade | None:
        """One domestic offer: the card the seat's hand misses least for the one card its next
        city lacks, when that brings the hand :data:`OFFER_GAIN` or more; to a
        player not ahead of the seat and not near the win, the first one the seat's deals of
        the hidden cards say would accept; never an offer made on this turn already. One card
        for one: two for one hands the taker a card."""
        made = offers_this_turn(game, seat)
        if len(made) >= self.offers:
            return None
        wanted = card_for_city(game, seat)
        if wanted is None:
            return None
        gives = offer_gives(game, seat, wanted)
        if not gives:
            return None
        mine = game.victory_points(seat)
        reach = game.config.vp_target - WIN_REACH
        takers = [
            p
            for p in range(game.player_count)
            if p != seat
            and game.card_count(p) > 0
            and game.victory_points(p) <= mine
            and game.victory_points(p) < reach
        ]
        takers.sort(key=lambda p: (-game.card_count(p), p))
        take = Card(wanted).amount(1)
        samples = [self.sample(game, seat, OFFER_SAMPLE_BASE + i) for i in range(OFFER_SAMPLES)]
        for give in gives:
            for to in takers:
                candidate = OfferTrade(seat, to, give, take)
                if candidate in made or not game.is_legal(candidate):
                    continue
                if sum(would_accept(sample, candidate) for sample in samples) * 2 > len(samples):
                    return candidate
        return None


def offer_gives(game: Game, seat: int, wanted: int) -> list[tuple[int, ...]]:
    """What the seat may give for one ``wanted`` card, one card of another kind: those that
    leave its hand :data:`OFFER_GAIN` or more better off once the card comes, the best for
    the hand first."""
    hand = game.hands[seat]
    now = hand_points(game, seat)
    scored: list[tuple[float, tuple[int, ...]]] = []
    for card in range(CARD_KINDS):
        if card == wanted or hand[card] == 0:
            continue
        after = list(hand)
        after[card] -= 1
        after[wanted] += 1
        gain = hand_points(game, seat, after) - now
        if gain >= OFFER_GAIN:
            scored.append((-gain, Card(card).amount(1)))
    scored.sort()
    return [give for _, give in scored]


def would_accept(sample: Game, offer: OfferTrade) -> bool:
    """On a deal of the hidden cards: the taker holds the card and a greedy player would
    accept (its value after accepting above its value after declining, by the margin)."""
    ahead = clone(sample)
    ahead.apply(offer)
    accept, decline = AcceptTrade(offer.to), DeclineTrade(offer.to)
    if not ahead.is_legal(accept):
        return False
    accepted, declined = clone(ahead), ahead
    accepted.apply(accept)
    declined.apply(decline)
    margin = accept_margin(sample, offer.to, offer.player)
    return value(accepted, offer.to) > value(declined, offer.to) + margin


def accept_margin(game: Game, seat: int, offerer: int) -> float:
    """How much a trade must bring the seat to accept it: more from a player ahead in points
    (the trade helps them too)."""
    if game.victory_points(offerer) > game.victory_points(seat):
        return ACCEPT_MARGIN_AHEAD
    return ACCEPT_MARGIN


OFFER_GAIN = 25.0
"""How much better (in the value's points) the seat's hand must be after a domestic trade for
the seat to offer it: a card is worth 9, a card that completes a city far more."""
OFFER_SAMPLES = 3
OFFER_SAMPLE_BASE = 100


def commitment(game: Game, seat: int, commits: Sequence[CommitKnights]) -> CommitKnights:
    """Evil barbarians (§7): every active knight when a city of the seat's can be lost, or
    when the seat is the strongest and may take the Defender; else none (committed knights
    turn inactive after the attack)."""
    every = max(commits, key=lambda a: len(a.nodes))
    none = min(commits, key=lambda a: len(a.nodes))
    exposed = [n for n in game.cities_of(seat) if n not in game.metropolis]
    strongest = all(
        game.knight_strength(seat) >= game.knight_strength(p) for p in range(game.player_count)
    )
    return every if exposed or strongest else none


ALCHEMIST_GAIN = 1.5
"""Cards above a roll's average the Alchemist's dice must bring the seat."""
WIN_REACH = 2
"""An offer from a player this close to the target is declined: it may win them the game."""
ACCEPT_MARGIN = 5.0
ACCEPT_MARGIN_AHEAD = 40.0
SEVEN = 7


def card_for_city(game: Game, seat: int) -> int | None:
    """The one card the seat lacks for a city, if one is all it lacks. Not for a settlement:
    offers for settlements too lowered the share on paired deals (docs/bot.md, issue #39)."""
    if not (game.cities_left(seat) and game.settlements_on_board(seat)):
        return None
    hand, cost = game.hands[seat], COSTS[Build.CITY]
    lacking = [c for c in range(CARD_KINDS) if hand[c] < cost[c]]
    if len(lacking) == 1 and cost[lacking[0]] - hand[lacking[0]] == 1:
        return lacking[0]
    return None


NODE_BUDGET = 1500
"""The expert's look-ahead per decision, in options scored (each a copy of the game with one
action applied): a count, not a time, so a decision is the same on any machine."""
SAMPLES = 3
"""Deals of the hidden cards the expert averages over."""
WIDTH = 5
"""The greedy player's best options the expert looks further into."""
DEPTH = 3
"""The seat's own further actions of the turn the expert plays out after each option."""


class ExpertPlayer(GreedyPlayer):
    """A determinized search: the greedy player's best options, each followed by the seat's
    best further actions of the turn (the greedy player's, up to :data:`DEPTH`), averaged
    over deals of the hidden cards (:func:`~companion_app.rules.hidden.redraw_hidden`); at
    most :data:`NODE_BUDGET` options scored per decision. The options and the turn's further
    actions are judged by :func:`~companion_app.bot.value.expert_value` (the value and the
    expert's own terms)."""

    salt = 4

    def __init__(
        self,
        offers: int = 1,
        *,
        budget: int = NODE_BUDGET,
        samples: int = SAMPLES,
        width: int = WIDTH,
        depth: int = DEPTH,
    ) -> None:
        super().__init__(offers)
        self.budget = budget
        self.samples = samples
        self.width = width
        self.depth = depth

    def choose(self, game: Game, seat: int, options: Sequence[Action]) -> Action:
        samples = [self.sample(game, seat, i) for i in range(self.samples)]
        first = ranked(samples[0], seat, options, expert_value)
        nodes = len(options)
        candidates = [a for _, _, a in first[: self.width]]
        if len(candidates) == 1:
            return candidates[0]
        best: tuple[float, int, Action] | None = None
        for i, action in enumerate(candidates):
            total = 0.0
            for sample in samples:
                ahead = clone(sample)
                ahead.apply(action)
                settle(ahead, seat, expert_value)
                nodes += 1
                worth, nodes = self.follow(ahead, seat, nodes, self.depth)
                total += worth
            scored = (total / len(samples), -i, action)
            if best is None or scored[:2] > best[:2]:
                best = scored
        assert best is not None
        return best[2]

    def follow(self, game: Game, seat: int, nodes: int, depth: int) -> tuple[float, int]:
        """The seat's value after its best further actions of this turn (or none), within
        the budget; and the options scored so far."""
        now = expert_value(game, seat)
        if depth == 0 or game.is_over or game.awaiting_roll or game.prompt.player != seat:
            return now, nodes
        options = [a for a in game.legal_actions() if not isinstance(a, EndTurn | EndSpecialBuild)]
        if not options or nodes + len(options) > self.budget:
            return now, nodes
        top = ranked(game, seat, options, expert_value)[0]
        nodes += len(options)
        if top[0] <= now:
            return now, nodes
        ahead = clone(game)
        ahead.apply(top[2])
        settle(ahead, seat, expert_value)
        deeper, nodes = self.follow(ahead, seat, nodes, depth - 1)
        return max(now, top[0], deeper), nodes
