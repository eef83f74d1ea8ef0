"""The host session state machine on simulated time: handshake, rolls, de-duplication, ACKs
scoped to a boot, wanted state repaired until confirmed, offline rolls, reordering, timeouts."""

from __future__ import annotations

from typing import Any

from companion_app.device import protocol as p
from companion_app.device.box_state import BoxState, box_state
from companion_app.device.events import (
    Connected,
    DeviceInfo,
    DeviceRoll,
    LinkEvent,
    OfflineRollsOffered,
    PressedWhileDisarmed,
    RollArrived,
)
from companion_app.device.session import (
    CONFIRM_S,
    DEVICE_TIMEOUT_S,
    RESEND_REQUEST_S,
    HostSession,
)
from companion_app.rules.actions import EventDie
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game

DEV = "D1CE0000000000E1"


def line(kind: str, **fields: Any) -> bytes:
    return p.encode_device(kind, fields)


def hello(boot: str = "0000BEEF", unacked: int = 0) -> bytes:
    return line("HELLO", fw="1.0.0", proto=1, dev=DEV, boot=boot, up=5, unacked=unacked, lost=0)


def roll(seq: int, y: int = 3, r: int = 4, e: str = "ship", **extra: int) -> bytes:
    return line("ROLL", seq=seq, y=y, r=r, e=e, t=100 * seq, **extra)


def sent(session: HostSession) -> list[str]:
    """The host's output since the last call, as decoded 'TYPE k=v' strings."""
    out = []
    for raw in p.LineSplitter().feed(session.take_output()):
        message = p.decode(raw, p.HOST_MESSAGES)
        fields = " ".join(f"{k}={v}" for k, v in message.fields.items())
        out.append(f"{message.type} {fields}".strip())
    return out


def connected(boot: str = "0000BEEF") -> HostSession:
    session = HostSession(0.0)
    session.open(0.0)
    events = session.feed(b"\n" + hello(boot), 0.01)
    assert events == [Connected(DeviceInfo(DEV, boot, "1.0.0", 1))]
    session.take_output()
    return session


def rolls_in(events: list[LinkEvent]) -> list[tuple[int, int, int, EventDie]]:
    return [
        (e.roll.seq, e.roll.yellow, e.roll.red, e.roll.event)
        for e in events
        if isinstance(e, RollArrived)
    ]


def test_open_ends_any_partial_line_and_says_hello() -> None:
    session = HostSession(0.0)
    session.open(0.0)
    assert session.take_output() == b"\r\nHELLO proto=1 boots=1*98EE\r\n"
    assert not session.connected
    # unanswered: said again after a second, with heartbeats meanwhile
    session.tick(0.5)
    assert sent(session) == ["HB"]
    session.tick(1.01)
    assert sent(session) == ["HELLO proto=1 boots=1"]
    session.tick(1.5)
    assert sent(session) == ["HB"]


def test_a_damaged_first_line_after_opening_is_forgiven() -> None:
    session = HostSession(0.0)
    session.open(0.0)
    events = session.feed(b"y=3 r=4 e=ship t=7*0000\r\n" + hello(), 0.1)
    assert [type(e) for e in events] == [Connected]
    assert session.counters.bad_frames == 0  # the tail was not counted as a bad frame
    session.feed(b"y=3 r=4 e=ship t=7*0000\r\n", 0.2)
    assert session.counters.bad_frames == 1  # later, the same is damage on the wire


def test_a_good_first_line_after_opening_is_used() -> None:
    session = HostSession(0.0)
    session.open(0.0)
    assert [type(e) for e in session.feed(hello(), 0.1)] == [Connected]


def test_a_roll_is_passed_on_once_and_acked_only_when_asked() -> None:
    session = connected()
    events = session.feed(roll(1, 6, 2, "politics"), 1.0)
    assert rolls_in(events) == [(1, 6, 2, EventDie.POLITICS)]
    assert sent(session) == []  # no ACK before the game committed it
    assert session.feed(roll(1, 6, 2, "politics"), 1.5) == []  # the box's resend
    assert session.counters.duplicates == 1
    first = events[0]
    assert isinstance(first, RollArrived)
    session.acknowledge(first.roll)
    assert sent(session) == ["ACK seq=1"]
    # our ACK was lost: the box sends it again, we ACK again without passing it on
    assert session.feed(roll(1, 6, 2, "politics"), 3.0) == []
    assert sent(session) == ["ACK seq=1"]
    assert session.counters.duplicates == 2
    assert session.counters.rolls == 1


def test_alchemist_and_offline_flags_are_carried() -> None:
    session = connected()
    (event,) = session.feed(roll(1, 2, 5, "trade", alc=1), 1.0)
    assert isinstance(event, RollArrived)
    assert event.roll.alchemist and not event.roll.offline


def test_ack_goes_only_to_the_boot_that_made_the_roll() -> None:
    session = connected("00000001")
    (event,) = session.feed(roll(1), 1.0)
    assert isinstance(event, RollArrived)
    # the box restarts before the game committed roll 1; its new roll 1 is another roll
    events = session.feed(hello("00000002") + roll(1, 1, 1, "science"), 1.2)
    assert [type(e) for e in events] == [Connected, RollArrived]
    session.take_output()
    session.acknowledge(event.roll)
    assert sent(session) == []  # "ACK seq=1" would make the new boot forget its own roll 1
    new = events[1]
    assert isinstance(new, RollArrived)
    session.acknowledge(new.roll)
    assert sent(session) == ["ACK seq=1"]


def test_wanted_state_is_sent_again_until_ok_and_after_a_box_restart() -> None:
    session = HostSession(0.0)
    session.set_track(3, 8)
    session.set_armed(False)
    session.open(0.0)
    session.take_output()
    session.feed(b"\n" + hello(), 0.1)
    assert sent(session) == ["TRACK pos=3 len=8", "DISARM"]
    session.feed(line("OK", cmd="TRACK"), 0.11)
    session.tick(0.1 + CONFIRM_S / 2)
    assert "DISARM" not in sent(session)
    session.tick(0.1 + CONFIRM_S + 0.01)
    assert sent(session) == ["DISARM"]  # its OK never came
    assert session.counters.commands_resent == 1
    session.feed(line("OK", cmd="DISARM"), 0.5)
    assert session.state_confirmed
    session.tick(2.0)
    assert sent(session) == ["HB"]
    session.feed(hello("0000F00D"), 2.1)  # restarted: it knows nothing of the game
    # HELLO boots=1 first, so that it offers the rolls it kept from its earlier boot
    assert sent(session) == ["HELLO proto=1 boots=1", "TRACK pos=3 len=8", "DISARM"]
    assert not session.state_confirmed


def test_same_state_is_not_sent_twice_and_track_is_clamped() -> None:
    session = connected()
    session.set_armed(True)
    session.set_armed(True)
    session.set_track(40, 30)
    assert sent(session) == ["ARM", "TRACK pos=15 len=16"]


def test_a_sea_boards_track_says_so_an_islands_line_is_as_before() -> None:
    """§13: a New Shores game's TRACK carries sea=1 (the box's 7 then says robber or pirate);
    an island's carries no sea field, byte for byte the line a box before it knew."""
    for scenario, track in ((None, "TRACK pos=0 len=8"), ("new_shores", "TRACK pos=0 len=8 sea=1")):
        session = connected()
        game = Game.new(GameConfig.for_players(4, scenario=scenario, seed=1))
        state = box_state(game)
        assert state.sea is (scenario is not None)
        session.want(state, first=True)
        assert track in sent(session)


def test_heartbeat_that_shows_a_missing_roll_asks_for_all_again_now_and_then() -> None:
    session = connected()
    session.feed(roll(1), 0.5)
    session.take_output()
    session.feed(line("HB", up=900, last=2, unacked=2, armed=1), 1.0)
    assert sent(session) == ["HELLO proto=1 boots=1"]
    session.feed(line("HB", up=1900, last=2, unacked=2, armed=1), 2.0)
    assert sent(session) == []  # not again at once
    session.feed(line("HB", up=2900, last=2, unacked=2, armed=1), 1.0 + RESEND_REQUEST_S)
    assert sent(session) == ["HELLO proto=1 boots=1"]
    assert session.counters.resend_requests == 2


def test_a_roll_that_overtook_an_earlier_one_waits_for_it_however_long() -> None:
    session = connected()
    assert rolls_in(session.feed(roll(1), 1.0)) == [(1, 3, 4, EventDie.SHIP)]
    assert session.feed(roll(3, 1, 1), 1.1) == []  # roll 2 was lost on the way
    assert session.early_rolls == 1
    assert [r[0] for r in rolls_in(session.feed(roll(2, 2, 2), 1.2))] == [2, 3]
    # roll 5 is missing: 6 waits, through any time and heartbeats showing 5 still in the box
    assert rolls_in(session.feed(roll(4), 1.3)) == [(4, 3, 4, EventDie.SHIP)]
    for seq in (1, 2, 3, 4):  # committed and acknowledged: the box forgets them
        session.acknowledge(DeviceRoll(DEV, "0000BEEF", seq, 3, 4, EventDie.SHIP))
    assert session.feed(roll(6), 2.0) == []
    assert session.tick(1000.0) == []
    heartbeat = line("HB", up=1_000_490, last=6, unacked=2, armed=1)  # 5 and 6
    assert rolls_in(session.feed(heartbeat, 1000.5)) == []
    assert [r[0] for r in rolls_in(session.feed(roll(5), 1001.0))] == [5, 6]
    assert session.counters.reordered == 2


def test_a_gap_is_given_up_only_when_a_heartbeat_shows_the_box_holds_nothing_more() -> None:
    session = connected()
    # Rolls 1-3 were acknowledged by an earlier run of the app; the box offers 4 and 5.
    assert session.feed(roll(4) + roll(5), 1.0) == []
    # The box counts 3 unacknowledged: one of them never reached us, so nothing is given up.
    assert session.feed(line("HB", up=1000, last=5, unacked=3, armed=1), 1.1) == []
    # After its next HELLO it lists exactly 4 and 5: the gap 1-3 is gone for good.
    events = session.feed(hello(unacked=2) + roll(4) + roll(5), 1.2)
    assert rolls_in(events) == []
    events = session.feed(line("HB", up=2000, last=5, unacked=2, armed=1), 1.3)
    assert [r[0] for r in rolls_in(events)] == [4, 5]
    assert session.early_rolls == 0
    # A roll given up for gone that exists after all is passed on late (counted), not lost.
    assert [r[0] for r in rolls_in(session.feed(roll(3), 1.4))] == [3]
    assert session.counters.duplicates == 2


def test_offline_rolls_are_offered_together_not_passed_on() -> None:
    session = HostSession(0.0)
    session.open(0.0)
    events = session.feed(
        b"\n"
        + hello(unacked=2)
        + line("OFFLINE", n=2, first=1, last=2)
        + roll(1, off=1)
        + roll(2, 5, 5, "trade", off=1),
        0.1,
    )
    assert [type(e) for e in events] == [Connected, OfflineRollsOffered]
    offered = events[1]
    assert isinstance(offered, OfflineRollsOffered)
    assert [(r.seq, r.offline) for r in offered.rolls] == [(1, True), (2, True)]
    assert session.feed(roll(2, 5, 5, "trade", off=1), 2.0) == []  # resend: known


def test_an_incomplete_offline_batch_is_offered_at_the_next_other_message() -> None:
    session = connected()
    events = session.feed(line("OFFLINE", n=3, first=1, last=3) + roll(1, off=1), 0.2)
    assert events == []
    events = session.feed(line("HB", up=1, last=3, unacked=3, armed=1), 0.3)
    assert [type(e) for e in events] == [OfflineRollsOffered]


def test_an_online_roll_is_not_passed_on_before_the_offline_rolls_ahead_of_it() -> None:
    """The box lists its offline rolls again (after our HELLO: a reconnect, a resend request),
    counting one we were offered already: the batch waits for a roll that never comes new.
    Its roll 3, made once it heard us, must not overtake roll 2 waiting in that batch."""
    session = HostSession(0.0)
    session.open(0.0)
    events = session.feed(
        b"\n" + hello(unacked=1) + line("OFFLINE", n=1, first=1, last=1) + roll(1, off=1), 0.1
    )
    assert [type(e) for e in events] == [Connected, OfflineRollsOffered]
    events = session.feed(
        hello(unacked=2)
        + line("OFFLINE", n=2, first=1, last=2)
        + roll(1, off=1)  # offered already: a duplicate
        + roll(2, 5, 5, "trade", off=1)
        + roll(3, 6, 1, "science"),
        0.5,
    )
    passed = [
        [r.seq for r in e.rolls] if isinstance(e, OfflineRollsOffered) else [e.roll.seq]
        for e in events
        if isinstance(e, OfflineRollsOffered | RollArrived)
    ]
    assert passed == [[2], [3]]
    assert session.feed(line("HB", up=1000, last=3, unacked=3, armed=1), 0.6) == []


def test_press_while_disarmed_is_reported() -> None:
    session = connected()
    assert session.feed(line("PRESS", armed=0, t=1000), 1.0) == [PressedWhileDisarmed()]


def test_rolls_before_the_box_said_hello_are_left_for_its_resend() -> None:
    session = HostSession(0.0)
    session.open(0.0)
    assert session.feed(b"\n" + roll(1), 0.1) == []
    assert session.counters.rolls == 0


def test_silence_for_four_heartbeats_is_a_timeout() -> None:
    session = connected()
    session.feed(line("HB", up=1, last=0, unacked=0, armed=1), 1.0)
    assert not session.timed_out(1.0 + DEVICE_TIMEOUT_S - 0.01)
    assert session.timed_out(1.0 + DEVICE_TIMEOUT_S + 0.01)
    # garbage does not keep a session alive; a CRC-correct line of a newer dialect does
    session.feed(b"\x00\xffnoise\r\n", 4.0)
    assert session.timed_out(1.0 + DEVICE_TIMEOUT_S + 0.01)
    session.feed(p.frame("NEWS x=1"), 4.5)
    assert not session.timed_out(4.5 + DEVICE_TIMEOUT_S - 0.01)
    assert (session.counters.bad_frames, session.counters.bad_messages) == (1, 1)


def test_an_attack_waits_for_a_connection() -> None:
    session = HostSession(0.0)
    session.attack()
    session.open(0.0)
    session.take_output()
    session.feed(b"\n" + hello(), 0.1)
    assert sent(session) == ["ATTACK"]


def test_an_earlier_boots_rolls_after_a_newer_hello_are_taken_once_and_acked_by_boot() -> None:
    """The box kept rolls of boot 1 in flash across a reset: after boot 2's HELLO they come
    with boot=00000001, are applied once under their own key, and acknowledged with boot=."""
    session = connected("00000001")
    first = session.feed(roll(1), 1.0)
    assert rolls_in(first) == [(1, 3, 4, EventDie.SHIP)]
    session.acknowledge(first[0].roll)  # type: ignore[attr-defined]
    session.feed(roll(2, 6, 6, "trade"), 1.1)  # roll 2 arrives; the box resets before its ACK
    session.take_output()
    events = session.feed(hello("00000002", unacked=2), 2.0)
    # roll 2 of boot 1 again (already passed on: a duplicate), roll 3 of boot 1 (new), then
    # roll 1 of the new boot
    events += session.feed(line("ROLL", seq=2, y=6, r=6, e="trade", t=200, boot="00000001"), 2.1)
    events += session.feed(line("ROLL", seq=3, y=2, r=2, e="ship", t=300, boot="00000001"), 2.1)
    events += session.feed(roll(1, 5, 1, "science"), 2.2)
    arrived = [e.roll for e in events if isinstance(e, RollArrived)]
    assert [(r.boot_id, r.seq) for r in arrived] == [("00000001", 3), ("00000002", 1)]
    assert session.counters.duplicates == 1
    session.take_output()
    for r in arrived:
        session.acknowledge(r)
    # A box that names boots is always told which boot's roll is acknowledged.
    assert sent(session) == ["ACK seq=3 boot=00000001", "ACK seq=1 boot=00000002"]


def test_an_old_box_never_gets_an_ack_with_boot() -> None:
    """A box that never sent boot= would read "ACK seq=1 boot=..." as its own roll 1."""
    session = connected("00000001")
    (event,) = session.feed(roll(1), 1.0)
    session.feed(hello("00000002"), 1.2)
    session.take_output()
    session.acknowledge(event.roll)  # type: ignore[attr-defined]
    assert sent(session) == []


def test_show_goes_out_on_change_and_after_every_hello_without_holding_rolls() -> None:
    session = HostSession(0.0)
    session.show("Red")
    session.open(0.0)
    session.take_output()
    session.feed(b"\n" + hello(), 0.1)
    assert "SHOW turn=Red" in sent(session)
    session.show("Red")
    assert sent(session) == []  # unchanged: not sent again
    session.show("Red", ("Red", "Blue"))
    assert sent(session) == ["SHOW turn=Red draw=Red.Blue"]
    # a box from before the display refuses it; that holds nothing up
    session.feed(line("ERR", code="unknown", cmd="SHOW"), 0.2)
    session.feed(line("OK", cmd="TRACK"), 0.2)
    assert rolls_in(session.feed(roll(1), 0.3)) == [(1, 3, 4, EventDie.SHIP)]


def test_show_with_four_long_names_still_fits_a_token() -> None:
    session = connected()
    names = ("Abcdefghij", "Bcdefghijk", "Cdefghijkl", "Defghijklm")
    session.show(names[0], names)
    assert sent(session) == ["SHOW turn=Abcdefghij draw=Abcdefg.Bcdefgh.Cdefghi.Defghij"]


def test_a_wanted_box_state_sends_only_what_differs_and_each_attack_once() -> None:
    session = connected()
    state = BoxState((2, 8), True, None, "Red", (), 1)
    session.want(state)
    assert sent(session) == ["TRACK pos=2 len=8", "SHOW turn=Red", "ARM", "ALCH"]
    changes = session.counters.state_changes
    session.want(state)
    assert sent(session) == [] and session.counters.state_changes == changes
    # a roll: the ship moves on and attacks (one more attack), the box disarms; Red's castle
    rolled = BoxState((0, 8), False, None, "Red", ("Red", "Bo"), 2)
    session.want(rolled)
    assert sent(session) == ["TRACK pos=0 len=8", "ATTACK", "SHOW turn=Red draw=Red.Bo", "DISARM"]
    assert session.counters.state_changes == changes + 4
    session.want(BoxState((0, 8), False, (2, 5), "Red", ("Red", "Bo"), 1))  # an undo: no attack
    assert sent(session) == ["ALCH y=2 r=5"]
    session.want(None)  # no game on the tablet: the button rolls nothing
    assert sent(session) == []  # disarmed already
    # another game is opened, with three attacks behind it: not played
    session.want(BoxState((1, 8), True, None, "Bo", (), 3), first=True)
    assert sent(session) == ["TRACK pos=1 len=8", "SHOW turn=Bo", "ARM", "ALCH"]
