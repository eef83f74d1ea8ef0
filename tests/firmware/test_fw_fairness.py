"""Fair dice: rejection sampling has no modulo bias, and seeded chi-square tests over >= 100k
rolls per die find nothing (while the same test does catch a modulo-biased die)."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from fwtools import Dice, Xoshiro128, p

ROLLS = 120_000
FACES = (1, 2, 3, 4, 5, 6)


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X ~ chi-square with ``df`` degrees of freedom (closed forms, no scipy)."""
    if x <= 0:
        return 1.0
    if df % 2 == 0:  # Q = exp(-x/2) * sum_{i < df/2} (x/2)^i / i!
        term = total = math.exp(-x / 2)
        for i in range(1, df // 2):
            term *= (x / 2) / i
            total += term
        return min(1.0, total)
    # odd: Q = erfc(sqrt(x/2)) + sqrt(2x/pi) exp(-x/2) sum_{i=1}^{(df-1)/2} x^(i-1) / (2i-1)!!
    total = 0.0
    term = math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    for i in range(1, (df - 1) // 2 + 1):
        if i > 1:
            term *= x / (2 * i - 1)
        total += term
    return min(1.0, math.erfc(math.sqrt(x / 2)) + total)


def chi2(counts: Counter, expected: dict) -> tuple[float, int]:
    n = sum(counts.values())
    stat = sum((counts.get(k, 0) - n * q) ** 2 / (n * q) for k, q in expected.items())
    return stat, len(expected) - 1


def test_chi2_sf_matches_table_values() -> None:
    # critical values from standard chi-square tables
    for x, df, q in [
        (11.070, 5, 0.05),
        (15.086, 5, 0.01),
        (7.815, 3, 0.05),
        (49.802, 35, 0.05),
        (9.488, 4, 0.05),
        (3.841, 1, 0.05),
    ]:
        assert chi2_sf(x, df) == pytest.approx(q, rel=2e-3)
    assert chi2_sf(0.0, 5) == 1.0


def test_rejection_sampling_maps_bits_to_faces_evenly() -> None:
    """Exhaustive: over every 3-bit value the kept ones hit each face exactly once."""
    for n in (2, 3, 5, 6, 7, 8, 36):
        k = (n - 1).bit_length()
        faces = []
        for value in range(1 << k):
            dice = Dice(lambda bits, v=value, k=k: v if bits == k else pytest.fail("bits"))
            if value < n:
                faces.append(dice.below(n))
        assert sorted(faces) == list(range(n))


def test_generator_matches_the_xoshiro128ss_reference() -> None:
    rng = Xoshiro128()
    rng._s = [1, 2, 3, 4]  # reference outputs of xoshiro128** 1.0 for this state
    assert [rng.next32() for _ in range(6)] == [11520, 0, 5927040, 70819200, 2031721883, 1637235492]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 20260705])
def test_seeded_chi_square_per_die(seed: int) -> None:
    dice = Dice(Xoshiro128(seed).getrandbits)
    yellow: Counter = Counter()
    red: Counter = Counter()
    event: Counter = Counter()
    pairs: Counter = Counter()
    successive: Counter = Counter()  # (this roll's yellow, the next roll's yellow)
    previous = None
    for _ in range(ROLLS):
        y, r, e = dice.roll()
        yellow[y] += 1
        red[r] += 1
        event[e] += 1
        pairs[(y, r)] += 1
        if previous is not None:
            successive[(previous, y)] += 1
        previous = y
    uniform = {f: 1 / 6 for f in FACES}
    event_p = {"ship": 3 / 6, "trade": 1 / 6, "politics": 1 / 6, "science": 1 / 6}
    results = {
        "yellow": chi2(yellow, uniform),
        "red": chi2(red, uniform),
        "event": chi2(event, event_p),
        "yellow x red": chi2(pairs, {(a, b): 1 / 36 for a in FACES for b in FACES}),
        "yellow then yellow": chi2(successive, {(a, b): 1 / 36 for a in FACES for b in FACES}),
    }
    for name, (stat, df) in results.items():
        assert chi2_sf(stat, df) > 0.001, f"{name}: chi2={stat:.1f} df={df}"
    assert sum(yellow.values()) == sum(event.values()) == ROLLS
    assert set(event) == set(p.EVENTS)
    # rejection costs 8/6 draws per face on average: 3 faces per roll
    assert dice.draws == pytest.approx(ROLLS * 3 * 8 / 6, rel=0.01)


@pytest.mark.slow
def test_the_same_test_catches_modulo_bias() -> None:
    rng = Xoshiro128(1)
    biased: Counter = Counter(rng.getrandbits(3) % 6 + 1 for _ in range(ROLLS))
    stat, df = chi2(biased, {f: 1 / 6 for f in FACES})
    assert chi2_sf(stat, df) < 1e-12
