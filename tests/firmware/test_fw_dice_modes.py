"""The dice modes on the box: fair, balanced and the card deck (`dicebox.dice`), the MODE command
and HELLO's ``dice=``, the gesture on the box, and each mode's deck kept across a reset."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from fwtools import Dice, DiceBox, ScriptedDice, SimBox, Xoshiro128, host_main, hw_host, p
from fwtools import Store as S
from hypothesis import given, settings
from hypothesis import strategies as st

from companion_app.device import protocol as host_protocol
from companion_app.device.events import Connected, RollArrived
from companion_app.device.session import HostSession

FAIR, BALANCED, DECK = 0, 1, 2
TWO_D6 = {s: (6 - abs(s - 7)) / 36 for s in range(2, 13)}
DEV = "D1CE0000000000E1"


def dice(mode: int, seed: int = 1) -> Dice:
    d = Dice(Xoshiro128(seed).getrandbits)
    d.mode = mode
    return d


def pair(card: int) -> tuple[int, int]:
    return card // 6 + 1, card % 6 + 1


def left_in(cards: bytearray) -> set[tuple[int, int]]:
    """The pairs still in a deck (a card left is the character 1, a card drawn 0)."""
    assert set(bytes(cards)) <= set(b"01")
    return {pair(i) for i in range(36) if cards[i] == ord("1")}


def count(cards: bytearray) -> int:
    return len(left_in(cards))


# ---- the deck ---------------------------------------------------------------------------------
@given(st.integers(min_value=0, max_value=2**32 - 1))
@settings(max_examples=60)
def test_deck_draws_no_pair_twice_and_the_drawn_plus_the_five_left_are_the_36(seed: int) -> None:
    d = dice(DECK, seed)
    for _ in range(3):  # three decks in a row; the first card of each reshuffles (5 were left)
        drawn = [d.roll()[:2] for _ in range(31)]
        assert len(set(drawn)) == 31  # no pair twice before the reshuffle
        left = left_in(d.deck)
        assert len(left) == 5 and left.isdisjoint(drawn)
        assert set(drawn) | left == {(y, r) for y in range(1, 7) for r in range(1, 7)}


def test_the_deck_and_balanced_decks_are_kept_apart_and_untouched_by_fair_rolls() -> None:
    d = dice(DECK, 3)
    for _ in range(10):
        d.roll()
    deck = bytes(d.deck)
    d.mode = BALANCED
    for _ in range(4):
        d.roll()
    d.mode = FAIR
    for _ in range(20):
        d.roll()
    assert bytes(d.deck) == deck and count(d.balanced) == 32 and count(d.deck) == 26


def test_the_event_die_stays_fair_in_every_mode() -> None:
    for mode in (BALANCED, DECK):
        d = dice(mode, 9)
        events = Counter(d.roll()[2] for _ in range(36_000))
        for face, share in (("ship", 0.5), ("trade", 1 / 6), ("politics", 1 / 6)):
            assert abs(events[face] / 36_000 - share) < 0.01, (mode, face)


# ---- balanced ---------------------------------------------------------------------------------
def test_balanced_weights_of_a_worked_example_by_hand() -> None:
    """A deck with 20 cards left: every 7 but (1,6), every 6 but (1,5) and (2,4), no 2, and the
    rest as dealt below; the last five sums 7, 8, 7, 6, 11. Weights are the pairs of a sum left
    over the cards left, cut by 30 % for each time the sum came in the last 5 rolls; the box
    keeps them x 100,000 and without the common divisor (20 cards)."""
    d = dice(BALANCED)
    keep = {
        (2, 5), (3, 4), (4, 3), (5, 2), (6, 1),  # 7: five of six
        (2, 4), (3, 3), (4, 2), (5, 1),  # 6: four of five ... minus (2,4) below
        (1, 2), (2, 1),  # 3: both
        (3, 5), (4, 4), (5, 3), (6, 2),  # 8: four of five
        (5, 6), (6, 5),  # 11: both
        (6, 6),  # 12
        (1, 3), (2, 2),  # 4: two of three
    }  # fmt: skip
    keep.discard((2, 4))  # 6: (3,3) (4,2) (5,1) left
    keep.add((4, 6))  # 10: one of three
    assert len(keep) == 20
    for i in range(36):
        d.balanced[i] = ord("1" if pair(i) in keep else "0")
    d.recent[:] = b"7876B"  # 7, 8, 7, 6, 11 (sums as the characters 0123456789ABC)
    d.count_sums()
    weights = {s: d.weight(s) for s in range(2, 13)}
    # by hand: pairs left x 0.7^(times in the last 5)
    #   2: 0          3: 2           4: 2           5: 0          6: 3 x 0.7 = 2.1
    #   7: 5 x 0.49 = 2.45           8: 4 x 0.7 = 2.8               9: 0
    #  10: 1         11: 2 x 0.7 = 1.4               12: 1
    assert weights == {
        2: 0, 3: 200_000, 4: 200_000, 5: 0, 6: 210_000, 7: 245_000, 8: 280_000,
        9: 0, 10: 100_000, 11: 140_000, 12: 100_000,
    }  # fmt: skip
    # the chance of an 8 now: 2.8 / (2 + 2 + 2.1 + 2.45 + 2.8 + 1 + 1.4 + 1) = 2.8 / 14.75
    assert weights[8] / sum(weights.values()) == pytest.approx(2.8 / 14.75)


def test_balanced_draws_a_real_pair_of_the_chosen_sum_from_its_deck() -> None:
    d = dice(BALANCED, 5)
    for _ in range(200):
        before = left_in(d.balanced)
        if len(before) < 13:
            before = left_in(bytearray(b"1" * 36))  # reshuffled first
        y, r, _ = d.roll()
        assert (y, r) in before and (y, r) not in left_in(d.balanced)
        assert d.recent[-1] == ord("0123456789ABC"[y + r])
        assert count(d.balanced) >= 12  # reshuffled once fewer than 13 are left


def sums(mode: int, rolls: int, seed: int) -> list[int]:
    d = dice(mode, seed)
    out = []
    for _ in range(rolls):
        y, r, _ = d.roll()
        out.append(y + r)
    return out


def repeat_rate(seq: list[int]) -> float:
    """How often a sum already came in the 5 rolls before it."""
    return sum(seq[i] in seq[i - 5 : i] for i in range(5, len(seq))) / (len(seq) - 5)


def test_balanced_keeps_the_2d6_distribution_and_makes_streaks_rarer() -> None:
    """Over 100,000 rolls each sum's share is within 1 percentage point of 2d6 (balanced dice
    flatten the curve a little: the 7, which is most often cut, comes about 0.8 points less),
    while a sum comes again within 5 rolls about 30 % less often than with fair dice."""
    balanced = sums(BALANCED, 100_000, 2026)
    fair = sums(FAIR, 100_000, 2026)
    counts = Counter(balanced)
    for s, share in TWO_D6.items():
        assert abs(counts[s] / len(balanced) - share) < 0.01, s
    assert counts[7] == max(counts.values())  # still the most common sum
    assert repeat_rate(fair) == pytest.approx(0.44, abs=0.01)  # 2d6: 1 - sum of (1-q)^5 q
    assert repeat_rate(balanced) < repeat_rate(fair) - 0.1


def test_fair_mode_rolls_exactly_as_before() -> None:
    """The default: the same draws as the box has always made (yellow, red, event)."""
    a, b = dice(FAIR, 42), Dice(Xoshiro128(42).getrandbits)
    got = [a.roll() for _ in range(50)]
    expected = [(b.below(6) + 1, b.below(6) + 1, b.event()) for _ in range(50)]
    assert got == expected


def test_state_line_round_trip_and_refusals() -> None:
    d = dice(BALANCED, 8)
    for _ in range(7):
        d.roll()
    d.mode = DECK
    for _ in range(3):
        d.roll()
    text = d.state_text()
    assert b"".join(d.state_parts()) == (text + "\n").encode()  # what the record is written from
    again = dice(FAIR, 99)
    again.restore(text)
    assert (again.mode, again.state_text()) == (DECK, text)
    fresh = dice(FAIR)
    for bad in (
        text.replace("dice deck", "dice loaded"),
        text[:-1],
        text.replace(" 1", " 2", 1),
        "dice fair " + "0" * 36 + " 00000 " + "1" * 36,  # an empty deck
        text.replace(text.split(" ")[3], "00010"),  # a sum of 1
        text + " 1",
        text.replace(text.split(" ")[3], "0001Z"),
    ):
        with pytest.raises(ValueError):
            fresh.restore(bad)
        assert fresh.state_text() == dice(FAIR).state_text()  # nothing changed


# ---- the box ----------------------------------------------------------------------------------
def lines_of(sim: SimBox) -> list[tuple[str, dict]]:
    return sim.out()


def test_mode_command_sets_and_confirms_and_hello_names_the_mode() -> None:
    sim = SimBox()
    sim.advance(50)
    sim.send("HELLO")
    hello = [f for k, f in lines_of(sim) if k == "HELLO"]
    assert hello[-1]["dice"] == "fair"
    sim.send("MODE", (("dice", "deck"),))
    assert lines_of(sim) == [("OK", {"cmd": "MODE", "dice": "deck"})]
    assert sim.box.dice.mode == DECK
    sim.send("MODE", (("dice", "loaded"),))
    assert lines_of(sim) == [("ERR", {"code": "range", "cmd": "MODE"})]
    assert sim.box.dice.mode == DECK  # unchanged
    sim.send("HELLO")
    assert [f["dice"] for k, f in lines_of(sim) if k == "HELLO"] == ["deck"]
    drawn = set()
    for _ in range(31):
        sim.press()
        roll = [f for k, f in lines_of(sim) if k == "ROLL"][-1]
        drawn.add((roll["y"], roll["r"]))
        sim.send("ACK", (("seq", roll["seq"]),))
    assert len(drawn) == 31  # from the deck


def test_an_alchemist_roll_draws_nothing_from_the_deck() -> None:
    sim = SimBox()
    sim.advance(50)
    sim.send("HELLO")
    sim.send("MODE", (("dice", "deck"),))
    sim.press()
    deck = bytes(sim.box.dice.deck)
    sim.send("ALCH", (("y", 2), ("r", 3)))
    sim.press()
    assert bytes(sim.box.dice.deck) == deck
    assert [(f["y"], f["r"], f.get("alc")) for k, f in lines_of(sim) if k == "ROLL"][-1] == (
        2,
        3,
        1,
    )


def test_an_old_host_never_sends_mode_and_gets_the_boxs_own_mode() -> None:
    """The app's host side as it is before the modes (never says MODE) against this box, set
    to the card deck on the box: it connects, reads HELLO (ignoring ``dice=``) and gets rolls
    from the deck."""
    box = DiceBox(Dice(Xoshiro128(4).getrandbits), DEV, "0000BEEF", 0, 8, None, DECK)
    session = HostSession(0.0)
    session.open(0.0)
    pairs = []
    now = 0
    connected = False

    def pump(ms: int) -> None:
        nonlocal now, connected
        for _ in range(ms // 10):
            now += 10
            box.tick(now)
            while (line := box.next_line()) is not None:
                for event in session.feed(line, now / 1000):
                    connected = connected or isinstance(event, Connected)
                    if isinstance(event, RollArrived):
                        pairs.append((event.roll.yellow, event.roll.red))
                        session.acknowledge(event.roll)
            session.tick(now / 1000)
            out = session.take_output()
            assert b"MODE" not in out
            if out:
                box.feed(out, now)

    pump(500)
    assert connected and box.host
    for _ in range(31):
        box.press(now)
        pump(300)
    assert len(pairs) == 31 == len(set(pairs))  # the deck: no pair twice
    assert box.dice.mode == DECK and not box.ring  # every roll delivered and acknowledged
    # and the host's codec reads the new HELLO with the box's mode (a host that knows the modes)
    hello = host_protocol.decode(box._hello(now)[:-2])
    assert hello.type == "HELLO" and hello.fields["dice"] == "deck"


def test_a_new_hosts_mode_against_an_old_box_gets_err_unknown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A box before the modes does not know MODE: ``ERR code=unknown cmd=MODE``, nothing else
    changes (the host then knows it is an old box and its dice are fair). The old box is this
    one with MODE taken out of its codec."""
    old_commands = {k: v for k, v in p.HOST_MESSAGES.items() if k != "MODE"}
    monkeypatch.setattr(p, "HOST_MESSAGES", old_commands)
    sim = SimBox()
    sim.advance(50)
    sim.send("HELLO")
    lines_of(sim)
    sim.send("MODE", (("dice", "balanced"),))
    assert lines_of(sim) == [("ERR", {"code": "unknown", "cmd": "MODE"})]
    assert sim.box.dice.mode == FAIR


def gesture(sim: SimBox, hold_ms: int) -> None:
    """A press, and a second press 150 ms after the first, held ``hold_ms``."""
    sim.press(hold_ms=60, gap_ms=90)
    sim.press(hold_ms=hold_ms, gap_ms=100)


def test_the_gesture_on_the_box_moves_to_the_next_mode_and_each_press_rolls() -> None:
    sim = SimBox(ScriptedDice([(2, 3, "ship")]))
    sim.advance(100)
    modes = []
    for _ in range(4):
        gesture(sim, 1100)
        modes.append(sim.box.dice.mode)
        sim.advance(600)
    assert modes == [BALANCED, DECK, FAIR, BALANCED]
    rolls = [f for k, f in sim.out() if k == "ROLL"]
    assert len(rolls) == 8  # both presses of each gesture rolled, as any press
    assert sim.box.screen_state(sim.now)[12] == BALANCED


def test_the_gesture_clashes_with_neither_a_long_press_nor_ordinary_presses() -> None:
    sim = SimBox(ScriptedDice([(2, 3, "trade")]))
    sim.advance(100)
    sim.press(hold_ms=2100)  # one long press: the ship goes home, the mode stays
    sim.press(hold_ms=60, gap_ms=60)
    sim.press(hold_ms=900, gap_ms=600)  # a double press held less than 1 s: rolls only
    for _ in range(5):
        sim.press(hold_ms=60, gap_ms=60)  # quick presses, not held: rolls only
    assert sim.box.dice.mode == FAIR
    sim.advance(600)
    sim.box.lights.set_track(3, 8)
    gesture(sim, 2500)  # the gesture held past 2 s: the mode changes, the ship stays
    assert sim.box.dice.mode == BALANCED and sim.box.lights.pos == 3


def test_the_gesture_is_refused_while_a_host_that_set_the_mode_is_present() -> None:
    sim = SimBox()
    sim.advance(100)
    sim.send("HELLO")
    sim.send("MODE", (("dice", "deck"),))
    gesture(sim, 1100)
    assert sim.box.dice.mode == DECK  # the game's mode rules
    sim.send("HELLO")  # a new session that has not set the mode (an old host)
    sim.advance(600)
    gesture(sim, 1100)
    assert sim.box.dice.mode == FAIR  # deck -> fair on the box


# ---- across a reset ---------------------------------------------------------------------------
def test_the_mode_and_each_deck_continue_across_a_reset(tmp_path: Path) -> None:
    path = str(tmp_path / "flash.dat")
    box = DiceBox(Dice(Xoshiro128(1).getrandbits), DEV, "00000001", 0, 8, S.Store(path), DECK)
    for i in range(20):
        box.press(1000 + 300 * i)
    box.dice.mode = BALANCED
    box.press(9000)
    deck, balanced = bytes(box.dice.deck), bytes(box.dice.balanced)
    drawn = 36 - count(bytearray(deck))
    assert drawn == 20
    # a power cut: the next boot (another generator) continues the same decks, in balanced mode
    box = DiceBox(Dice(Xoshiro128(2).getrandbits), DEV, "00000002", 0, 8, S.Store(path))
    assert box.dice.mode == BALANCED
    assert (bytes(box.dice.deck), bytes(box.dice.balanced)) == (deck, balanced)
    box.feed(p.encode("HELLO"), 10)
    assert b"dice=balanced" in b"".join(iter(box.next_line, None))
    box.dice.mode = DECK
    seen = set()
    for i in range(11):  # the rest of the deck down to 5: none of the 20 drawn before the cut
        box.press(20_000 + 300 * i)
        assert box.last_roll is not None
        seen.add(box.last_roll[:2])
    assert {pair(i) for i in range(36) if deck[i] == ord("0")}.isdisjoint(seen)
    assert count(box.dice.deck) == 5


def test_a_record_of_the_previous_version_reads_as_fair_with_fresh_decks(tmp_path: Path) -> None:
    path = tmp_path / "flash.dat"
    body = b"DICEBOX 1\ntrack 2\nroll 5EED0001 4 3 5 ship 1200 1 0\n"
    path.write_bytes(body + b"crc %04X\n" % p.crc16(body))
    box = DiceBox(Dice(Xoshiro128(1).getrandbits), DEV, "00000002", 0, 8, S.Store(str(path)))
    assert [(r.boot, r.seq) for r in box.ring] == [("5EED0001", 4)]  # the roll is kept
    assert box.lights.pos == 2
    assert box.dice.mode == FAIR and count(box.dice.deck) == count(box.dice.balanced) == 36
    box.save()
    assert path.read_bytes().startswith(b"DICEBOX 2\ntrack 2\ndice fair ")


def test_a_record_whose_dice_line_is_damaged_keeps_its_rolls(tmp_path: Path) -> None:
    path = tmp_path / "flash.dat"
    body = b"DICEBOX 2\ntrack 0\ndice deck 0101 00000 11\nroll 5EED0001 4 3 5 ship 1200 1 0\n"
    path.write_bytes(body + b"crc %04X\n" % p.crc16(body))
    box = DiceBox(Dice(Xoshiro128(1).getrandbits), DEV, "00000002", 0, 8, S.Store(str(path)))
    assert len(box.ring) == 1 and box.dice.mode == FAIR


def test_the_flag_overrides_the_records_mode_and_keeps_its_decks(tmp_path: Path) -> None:
    path = str(tmp_path / "flash.dat")
    box = DiceBox(Dice(Xoshiro128(1).getrandbits), DEV, "00000001", 0, 8, S.Store(path), DECK)
    box.press(100)
    box = DiceBox(Dice(Xoshiro128(1).getrandbits), DEV, "00000002", 0, 8, S.Store(path), FAIR)
    assert box.dice.mode == FAIR and count(box.dice.deck) == 35
    assert b"dice=fair" in box.next_line()  # type: ignore[operator]


def test_the_flags_mode_is_kept_in_flash_before_any_roll(tmp_path: Path) -> None:
    """A box started in deck mode with nothing saved is still in deck mode after a reset (the
    mode given at power-up is kept as a mode set on the box is), with a fresh deck."""
    path = str(tmp_path / "flash.dat")
    DiceBox(Dice(Xoshiro128(1).getrandbits), DEV, "00000001", 0, 8, S.Store(path), DECK)
    box = DiceBox(Dice(Xoshiro128(1).getrandbits), DEV, "00000002", 0, 8, S.Store(path))
    assert box.dice.mode == DECK and count(box.dice.deck) == 36 and not box.ring
    assert b"dice=deck" in box.next_line()  # type: ignore[operator]


def test_the_flag_in_the_records_mode_writes_nothing(tmp_path: Path) -> None:
    path = str(tmp_path / "flash.dat")
    DiceBox(Dice(Xoshiro128(1).getrandbits), DEV, "00000001", 0, 8, S.Store(path), FAIR)
    assert not Path(path).exists()  # fair is what a box without a record rolls: nothing to keep


# ---- the emulator -----------------------------------------------------------------------------
def test_the_emulators_dice_mode_reaches_the_firmware(capsys: pytest.CaptureFixture[str]) -> None:
    from companion_app.emulator.__main__ import parse_args
    from companion_app.emulator.firmware import firmware_args

    assert parse_args(["--dice-mode", "deck"]).dice_mode == "deck"
    assert parse_args([]).dice_mode is None  # the box's own (its flash record's)
    with pytest.raises(SystemExit):
        parse_args(["--dice-mode", "loaded"])
    args = firmware_args(
        seed=3, boot_id=None, device_id=None, script=None, resend_ms=None, dice_mode="balanced"
    )
    box, _hw, _runner = host_main.build(host_main.parse_args(args), hw_host.MemorySerial())
    assert box.dice.mode == BALANCED
    assert b"dice=balanced" in box.next_line()
    with pytest.raises(SystemExit):
        host_main.parse_args(["--dice-mode", "loaded"])
    assert "usage" in capsys.readouterr().err
