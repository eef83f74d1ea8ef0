"""What the table has rolled and produced so far, for the statistics screen.

Everything is recomputed from the game's history (the journal's action list), so the figures
survive undo, resume and import without a second store. Alchemist rolls have chosen production
dice: only their event die counts towards fairness.

The fairness figure is Pearson's chi-square test of the observed counts against 2d6 (each die
1/6 a face, the sums in their 1…6…1 ways of 36); its p-value is the chance dice that behave as
the game's dice mode says would look at least this uneven. Per mode (docs/protocol.md):

- fair: independent dice, the plain test.
- deck: the 36 pairs drawn without replacement, 31 before each reshuffle. Over a whole cycle a
  count's variance is the dice's times the finite-population correction (36 - 31) / 35 = 1/7,
  so the statistic is divided by that factor (``deck_variance_factor``, the cycles assumed to
  run from the game's first roll: the host does not see the box's reshuffles) and then read
  as chi-square. A deck, which is as even as a deck must be, looks like one, never "too good";
  independent dice in a game that says deck look about 7 times too uneven and are flagged.
- balanced: the sums keep 2d6 within a tolerance and repeat less; the plain test is the
  tolerance (a balanced box is flagged only where fair dice would be), and the repeats of a sum
  within 5 rolls are counted against fair dice's expectation (``DiceCounts.repeats``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum

from companion_app.rules.actions import EVENT_DIE_FACES, Action, EventDie, Roll
from companion_app.rules.cards import CARD_KINDS, Hand
from companion_app.rules.events import Production
from companion_app.rules.game import Game, replay_steps
from companion_app.rules.pieces import CITY, NOBODY
from companion_app.rules.state import BarbarianAttack

SUMS: tuple[int, ...] = tuple(range(2, 13))
"""The dice sums 2–12, in the order of :attr:`DiceCounts.sums`."""

SUM_PROBABILITIES: tuple[float, ...] = tuple((6 - abs(s - 7)) / 36 for s in SUMS)
EVENT_FACES: tuple[EventDie, ...] = tuple(EventDie)
EVENT_PROBABILITIES: tuple[float, ...] = tuple(
    EVENT_DIE_FACES.count(face) / len(EVENT_DIE_FACES) for face in EVENT_FACES
)
DIE_PROBABILITIES: tuple[float, ...] = (1 / 6,) * 6

MIN_EXPECTED_PER_CELL = 5.0
"""Below this expected count in some cell the chi-square approximation is too rough to judge."""

SUSPICIOUS_P = 0.01
"""A p-value below this is worth a look at the dice (1 fair session in 100 gets flagged)."""

DECK_CARDS = 36
DECK_DRAWN = 31
"""Cards of the deck mode drawn between reshuffles (reshuffled when 5 are left)."""
REPEAT_WINDOW = 5
"""A balanced box weighs down a sum for each time it came in this many last rolls."""
FAIR_REPEAT_CHANCE: float = sum(p * (1 - (1 - p) ** REPEAT_WINDOW) for p in SUM_PROBABILITIES)
"""With fair dice, the chance a roll's sum came in the 5 rolls before it (about 0.439)."""


def deck_variance_factor(rolls: int, drawn: int = DECK_DRAWN) -> float:
    """The variance of a count over ``rolls`` draws from reshuffled decks of 36, as a fraction of
    independent dice's: whole cycles of ``drawn`` cards at (36 - drawn) / 35, the cycle under
    way at (36 - r) / 35 for its r cards. 1 for no rolls."""
    if rolls <= 0:
        return 1.0
    cycles, rest = divmod(rolls, drawn)
    spread = cycles * drawn * (DECK_CARDS - drawn) + rest * (DECK_CARDS - rest)
    return spread / (DECK_CARDS - 1) / rolls


class Fairness(Enum):
    """The verdict the statistics screen shows at a glance."""

    TOO_FEW_ROLLS = "too few rolls to judge"
    LOOKS_FAIR = "looks fair"
    SUSPICIOUS = "suspicious"


@dataclass(frozen=True, slots=True)
class ChiSquare:
    """Pearson's chi-square statistic, its degrees of freedom and p-value."""

    statistic: float
    degrees_of_freedom: int
    p_value: float
    smallest_expected: float

    @property
    def fairness(self) -> Fairness:
        if self.smallest_expected < MIN_EXPECTED_PER_CELL:
            return Fairness.TOO_FEW_ROLLS
        return Fairness.SUSPICIOUS if self.p_value < SUSPICIOUS_P else Fairness.LOOKS_FAIR


@dataclass(frozen=True, slots=True)
class DiceCounts:
    """How often each sum, face and event face came up."""

    sums: tuple[int, ...]
    """Counts for 2, 3, … 12 (rolls with random production dice only)."""
    yellow: tuple[int, ...]
    red: tuple[int, ...]
    events: tuple[int, ...]
    """Counts in :data:`EVENT_FACES` order (every roll, Alchemist rolls included)."""
    mode: str = "fair"
    """The game's dice mode: what the production dice are tested against."""
    repeats: int = 0
    """Production rolls whose sum came in the 5 production rolls before them."""

    @property
    def production_rolls(self) -> int:
        return sum(self.sums)

    @property
    def event_rolls(self) -> int:
        return sum(self.events)

    def expected_sums(self) -> tuple[float, ...]:
        n = self.production_rolls
        return tuple(n * p for p in SUM_PROBABILITIES)

    def expected_repeats(self) -> float:
        """Repeats fair dice would make in these rolls (the first 5 have fewer rolls before)."""
        n = self.production_rolls
        return sum(
            p * (1 - (1 - p) ** min(i, REPEAT_WINDOW)) for i in range(n) for p in SUM_PROBABILITIES
        )

    def _production_test(
        self, counts: tuple[int, ...], probabilities: tuple[float, ...]
    ) -> ChiSquare:
        if self.mode == "deck":
            return chi_square(counts, probabilities, deck_variance_factor(sum(counts)))
        return chi_square(counts, probabilities)

    def sum_fairness(self) -> ChiSquare:
        return self._production_test(self.sums, SUM_PROBABILITIES)

    def yellow_fairness(self) -> ChiSquare:
        return self._production_test(self.yellow, DIE_PROBABILITIES)

    def red_fairness(self) -> ChiSquare:
        return self._production_test(self.red, DIE_PROBABILITIES)

    def event_fairness(self) -> ChiSquare:
        return chi_square(self.events, EVENT_PROBABILITIES)

    def overall(self) -> Fairness:
        """Suspicious if any die is; too few rolls while any test can't judge yet."""
        tests = (
            self.yellow_fairness(),
            self.red_fairness(),
            self.event_fairness(),
            self.sum_fairness(),
        )
        verdicts = [t.fairness for t in tests]
        if Fairness.SUSPICIOUS in verdicts:
            return Fairness.SUSPICIOUS
        if Fairness.TOO_FEW_ROLLS in verdicts:
            return Fairness.TOO_FEW_ROLLS
        return Fairness.LOOKS_FAIR


@dataclass(frozen=True, slots=True)
class GameStatistics:
    """The dice, each player's production and the barbarian attacks of one game so far."""

    dice: DiceCounts
    production: tuple[Hand, ...]
    """Cards (resources and commodities) each player received from production rolls, as the
    rules core paid them (production held back by a barbarian attack's decisions included)."""
    attacks: int
    attack_log: tuple[BarbarianAttack, ...] = ()
    """Every barbarian attack so far, first one first."""

    @classmethod
    def from_game(cls, game: Game) -> GameStatistics:
        """Replay ``game``'s history once and count what happened."""
        replay = game.at_history_start()
        sums = [0] * len(SUMS)
        yellow = [0] * 6
        red = [0] * 6
        events = [0] * len(EVENT_FACES)
        recent: list[int] = []
        repeats = 0
        production = [[0] * CARD_KINDS for _ in range(game.player_count)]
        attack_log: list[BarbarianAttack] = []
        fixed = replay.alchemist_dice is not None
        attacks_before = replay.barbarian_attacks
        for _, action in replay_steps(replay, game.history):
            chosen, fixed = fixed, replay.alchemist_dice is not None
            if replay.barbarian_attacks > attacks_before and replay.last_attack is not None:
                attack_log.append(replay.last_attack)
            attacks_before = replay.barbarian_attacks
            for event in replay.events:
                if isinstance(event, Production):
                    for player, gained in enumerate(event.gained):
                        for card, amount in enumerate(gained):
                            production[player][card] += amount
            if not isinstance(action, Roll):
                continue
            events[EVENT_FACES.index(action.event)] += 1
            if not chosen:
                repeats += action.total in recent
                recent = [*recent[-(REPEAT_WINDOW - 1) :], action.total]
                sums[action.total - 2] += 1
                yellow[action.yellow - 1] += 1
                red[action.red - 1] += 1
        return cls(
            dice=DiceCounts(
                tuple(sums),
                tuple(yellow),
                tuple(red),
                tuple(events),
                game.config.dice_mode,
                repeats,
            ),
            production=tuple(tuple(p) for p in production),
            attacks=game.barbarian_attacks,
            attack_log=tuple(attack_log),
        )


SUM_WAYS: dict[int, int] = {s: 6 - abs(s - 7) for s in SUMS}
"""Of the 36 equally likely throws of two fair dice, how many make each sum."""


def luck_figure(produced: int, expected_36: int) -> float:
    """Cards above (+) or below (-) what fair dice would have given on average (``expected_36``
    is 36 × that average, see :class:`Luck`): the one formula of the luck figure."""
    return produced - expected_36 / 36


@dataclass(frozen=True, slots=True)
class Luck:
    """Cards the dice paid each seat against what fair 2d6 would have paid on average.

    For every roll with random production dice (an Alchemist's chosen dice are left out on both
    sides), ``expected_36`` adds 36 × the cards the seat's buildings standing at that roll
    would get on average: each number's ways out of 36 times the cards its hexes pay (2 for a
    city, 1 for a settlement or a destroyed city). The robber counts: its hex pays nothing in
    either figure, so luck measures the numbers alone. ``produced`` adds the cards the rules
    core paid for those rolls (a bank shortage makes it a little smaller). Any dice source
    (box, virtual, balanced) is measured against fair dice.
    """

    produced: tuple[int, ...]
    expected_36: tuple[int, ...]
    """36 × the expected cards, so the figure is exact in whole numbers."""
    rolls: int
    """Rolls counted (random production dice)."""

    def expected(self, seat: int) -> float:
        return self.expected_36[seat] / 36

    def figure(self, seat: int) -> float:
        """Cards above (+) or below (-) what fair dice would have given on average."""
        return luck_figure(self.produced[seat], self.expected_36[seat])

    @classmethod
    def from_game(cls, game: Game) -> Luck:
        """Replay ``game``'s history once and weigh every production roll."""
        return cls.count(game.at_history_start(), game.history, checked=False)

    @classmethod
    def count(cls, game: Game, actions: Iterable[Action], *, checked: bool = True) -> Luck:
        """Apply ``actions`` to ``game`` (it moves on) and weigh every production roll.

        :raises ReplayError: at the first action that cannot be applied where it stands.
        """
        produced = [0] * game.player_count
        expected = [0] * game.player_count
        counted: list[bool] = []  # per roll so far: random production dice

        def weighed() -> Iterator[Action]:
            # Pulled by the replay just before it applies the action: the state before it.
            for action in actions:
                if isinstance(action, Roll):
                    counted.append(game.alchemist_dice is None)
                    if counted[-1]:
                        for seat, cards in enumerate(expected_cards_36(game)):
                            expected[seat] += cards
                yield action

        for _ in replay_steps(game, weighed(), checked=checked):
            if not (counted and counted[-1]):
                continue
            for event in game.events:
                if isinstance(event, Production):
                    for seat, gained in enumerate(event.gained):
                        produced[seat] += sum(gained)
        rolls = sum(counted)
        return cls(tuple(produced), tuple(expected), rolls)


def expected_cards_36(game: Game) -> tuple[int, ...]:
    """36 × the cards each seat's buildings get from one fair roll now (robber hex excluded)."""
    expected = [0] * game.player_count
    owner, level, robber = game.node_owner, game.node_level, game.robber_hex
    hex_nodes = game.topology.hex_nodes
    for hex_id, token in enumerate(game.tokens):
        if token is None or token not in SUM_WAYS or hex_id == robber:
            continue
        ways = SUM_WAYS[token]
        for node in hex_nodes[hex_id]:
            seat = owner[node]
            if seat != NOBODY:
                expected[seat] += ways * (2 if level[node] == CITY else 1)
    return tuple(expected)


def chi_square(
    observed: tuple[int, ...], probabilities: tuple[float, ...], variance_factor: float = 1.0
) -> ChiSquare:
    """Pearson's goodness-of-fit test of ``observed`` counts against ``probabilities``; the
    statistic is divided by ``variance_factor`` (counts that vary less than independent draws',
    as a deck's: `deck_variance_factor`).

    :raises ValueError: if the lengths differ or the probabilities do not sum to 1.
    """
    if len(observed) != len(probabilities):
        raise ValueError(f"{len(observed)} counts but {len(probabilities)} probabilities")
    if abs(sum(probabilities) - 1.0) > 1e-9:
        raise ValueError(f"probabilities sum to {sum(probabilities)}, not 1")
    n = sum(observed)
    df = len(observed) - 1
    if n == 0:
        return ChiSquare(0.0, df, 1.0, 0.0)
    expected = [n * p for p in probabilities]
    statistic = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    statistic /= variance_factor
    return ChiSquare(statistic, df, chi_square_survival(statistic, df), min(expected))


def chi_square_survival(statistic: float, degrees_of_freedom: int) -> float:
    """P(X ≥ statistic) for X chi-square distributed: the regularised upper gamma Q(k/2, x/2).

    :raises ValueError: for fewer than 1 degree of freedom or a negative statistic.
    """
    if degrees_of_freedom < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {degrees_of_freedom}")
    if statistic < 0:
        raise ValueError(f"a chi-square statistic is never negative, got {statistic}")
    return _upper_regularised_gamma(degrees_of_freedom / 2, statistic / 2)


def _upper_regularised_gamma(a: float, x: float) -> float:
    if x == 0:
        return 1.0
    log_prefactor = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        # Lower series: P(a, x) = x^a e^-x / Γ(a) · Σ x^n / (a (a+1) … (a+n)).
        term = total = 1.0 / a
        denominator = a
        for _ in range(1000):
            denominator += 1
            term *= x / denominator
            total += term
            if term < total * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_prefactor))
    # Continued fraction for Q(a, x) (modified Lentz).
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, h * math.exp(log_prefactor))
