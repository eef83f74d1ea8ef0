"""Who draws with five and six players (docs/protocol.md, "Who draws: six names"): the box says
``draws=6`` in HELLO, a host that reads it sends every name in SHOW's ``draws=``, an older host's
``draw=`` (32 characters, names cut to 7) still shows, and a new host sends ``draw=`` to an older
box. The host side is the app's `HostSession`, the box the firmware's `DiceBox`, in one process."""

from __future__ import annotations

import pytest
from fwtools import Dice, DiceBox, SimBox, Xoshiro128, p

from companion_app.device import protocol as host_protocol
from companion_app.device.box_state import BoxState
from companion_app.device.session import HostSession

DEV = "D1CE0000000000E1"
SIX = ("Anna", "Bogdan", "Cenek", "Duc", "Eva", "Frantisek")


class OldBox(DiceBox):
    """The box as it was before ``draws``: its HELLO does not name it (and its codec, patched
    by the test, does not know SHOW's ``draws=``)."""

    def _hello(self, now_ms: int) -> bytes:
        body = super()._hello(now_ms)[:-7].decode()
        return p.frame(body.replace(" draws=6", ""))


def run(box: DiceBox, session: HostSession, state: BoxState) -> list[str]:
    """The host says HELLO, the box answers, the host wants ``state``; the SHOW lines sent."""
    session.open(0.0)
    session.want(state, first=True)
    shows: list[str] = []
    now = 0
    for _ in range(50):
        now += 10
        box.tick(now)
        while (line := box.next_line()) is not None:
            session.feed(line, now / 1000)
        session.tick(now / 1000)
        out = session.take_output()
        shows += [text for text in out.decode().split("\r\n") if text.startswith("SHOW")]
        if out:
            box.feed(out, now)
    return shows


def six_players(turn: str = "Eva") -> BoxState:
    """A six-player game's state as `box_state` gives it, built directly: a castle on which
    every player draws."""
    return BoxState((3, 8), True, None, turn, SIX, 0)


def test_the_box_says_in_hello_that_it_takes_six_names() -> None:
    box = DiceBox(Dice(Xoshiro128(1).getrandbits), DEV, "0000BEEF", 0, 8)
    hello = host_protocol.decode(box.next_line()[:-2])  # type: ignore[index]
    assert hello.type == "HELLO" and hello.fields["draws"] == host_protocol.DRAWS_NAMES == 6


def test_new_host_new_box_every_name_reaches_the_display() -> None:
    box = DiceBox(Dice(Xoshiro128(1).getrandbits), DEV, "0000BEEF", 0, 8)
    shows = run(box, HostSession(0.0), six_players())
    assert shows[-1].startswith("SHOW turn=Eva draws=Anna.Bogdan.Cenek.Duc.Eva.Frantisek*")
    assert box.draws == "ANNA.BOGDAN.CENEK.DUC.EVA.FRANTISEK" and box.turn == "EVA"


def test_the_host_takes_any_number_of_players_from_the_game() -> None:
    for players in range(1, 7):
        names = tuple(f"Player{i}" for i in range(players))
        box = DiceBox(Dice(Xoshiro128(1).getrandbits), DEV, "0000BEEF", 0, 8)
        run(box, HostSession(0.0), BoxState((0, 8), True, None, names[0], names, 0))
        assert box.draws.split(".") == [name.upper() for name in names]


def test_six_names_of_ten_characters_fit_the_line() -> None:
    names = tuple(f"{c}bcdefghij" for c in "ABCDEF")
    box = DiceBox(Dice(Xoshiro128(1).getrandbits), DEV, "0000BEEF", 0, 8)
    shows = run(box, HostSession(0.0), BoxState((0, 8), True, None, names[5], names, 0))
    assert box.draws == ".".join(names).upper()  # 65 characters: every name whole
    assert len(shows[-1]) <= host_protocol.MAX_LINE


def test_new_host_old_box_gets_draw_cut_to_a_token(monkeypatch: pytest.MonkeyPatch) -> None:
    old_show = {**p.HOST_MESSAGES, "SHOW": "turn:t? draw:t?"}
    monkeypatch.setattr(p, "HOST_MESSAGES", old_show)
    box = OldBox(Dice(Xoshiro128(1).getrandbits), DEV, "0000BEEF", 0, 8)
    shows = run(box, HostSession(0.0), six_players())
    assert shows[-1].startswith("SHOW turn=Eva draw=Anna.Bogdan.Cenek.Duc.Eva.Franti*")
    assert "draws=" not in " ".join(shows) and box.errors == 0
    assert box.draws == "ANNA.BOGDAN.CENEK.DUC.EVA.FRANTI"  # 32 characters


def test_old_host_new_box_the_draw_token_still_shows() -> None:
    sim = SimBox()
    sim.advance(50)
    sim.send("HELLO")
    sim.send("SHOW", (("turn", "Red"), ("draw", "Red.Blue")))
    assert sim.box.screen_state(sim.now)[10:12] == ("RED", "RED.BLUE")


def test_a_box_restarted_with_draws_gets_the_names_again() -> None:
    """The same host, a box that answers HELLO with draws=6 after one that did not (a firmware
    update on the same port): SHOW goes again in the form the box now takes."""
    session = HostSession(0.0)
    session.open(0.0)
    session.want(six_players(), first=True)
    session.take_output()
    old = host_protocol.encode_device(
        "HELLO", {"fw": "1.1.0", "proto": 1, "dev": DEV, "boot": "00000001", "up": 5,
                  "unacked": 0, "lost": 0}
    )  # fmt: skip
    session.feed(b"\n" + old, 0.1)
    assert b"SHOW turn=Eva draw=Anna.Bogdan.Cenek.Duc.Eva.Franti*" in session.take_output()
    new = host_protocol.encode_device(
        "HELLO", {"fw": "1.2.0", "proto": 1, "dev": DEV, "boot": "00000002", "up": 5,
                  "unacked": 0, "lost": 0, "dice": "fair", "draws": 6}
    )  # fmt: skip
    session.feed(new, 0.2)
    assert b"SHOW turn=Eva draws=Anna.Bogdan.Cenek.Duc.Eva.Frantisek*" in session.take_output()


def test_a_names_list_longer_than_six_names_of_ten_is_refused() -> None:
    sim = SimBox()
    sim.advance(50)
    sim.send("HELLO")
    while sim.box.next_line() is not None:
        pass
    sim.send("SHOW", (("draws", "A" * 65),))
    assert sim.box.next_line().startswith(b"OK cmd=SHOW")  # type: ignore[union-attr]
    sim.send("SHOW", (("draws", "A" * 66),))
    assert sim.box.next_line().startswith(b"ERR code=field cmd=SHOW")  # type: ignore[union-attr]
    assert sim.box.draws == "A" * 65
