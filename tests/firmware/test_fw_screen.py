"""The display's frames, pixel for pixel: golden frames for each die face, the event die, the
barbarian track, the attack and the status marks, drawn under CPython (the `fbhost` stand-in)
and in the MicroPython VM (the real `framebuf`), both against the same files.

After a deliberate change of the layout, rewrite them by hand with
``.venv/bin/python tests/firmware/update_golden_frames.py`` (it refuses under CI) and look at the
frames (``python -m companion_app.emulator --display-png DIR`` shows them as pictures).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import venv_tool
from fwtools import FIRMWARE, S, ScriptedDice, SimBox, rows
from screen_frames import FRAMES, GOLDEN, draw_cpython, golden

HEIGHT, WIDTH = S.HEIGHT, S.WIDTH
UPDATE = Path(__file__).parent / "update_golden_frames.py"


@pytest.mark.parametrize("name", sorted(FRAMES))
def test_frame_matches_golden_on_cpython(name: str) -> None:
    got = draw_cpython(FRAMES[name])
    assert len(got) == HEIGHT and all(len(r) == WIDTH for r in got)
    assert got == golden(name)


_VM_SCRIPT = """
import sys, json
sys.path.insert(0, {fw!r})
from dicebox.screen import Screen
s = Screen()
for state in json.loads(sys.stdin.read()):
    s.draw(tuple(state))
    print(s.buf.hex())
"""


@pytest.mark.micropython
def test_frames_match_golden_in_the_micropython_vm(tmp_path: Path) -> None:
    script = tmp_path / "frames.py"
    script.write_text(_VM_SCRIPT.format(fw=str(FIRMWARE)))
    names = sorted(FRAMES)
    out = subprocess.run(
        [venv_tool("micropython"), str(script)],
        input=json.dumps([FRAMES[n] for n in names]),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.split()
    assert len(out) == len(names)
    for name, hexed in zip(names, out, strict=True):
        assert rows(bytes.fromhex(hexed)) == golden(name), name


def test_golden_frames_show_what_they_claim() -> None:
    """A few pixels checked by hand, so the golden files cannot drift into nonsense."""
    one = golden("face_1_ship")
    # yellow die: outlined, one pip in the middle (white); red die: solid, the pip is dark
    assert one[12][2:32] == "#" * 30 and one[27][2 + 15] == "#"
    assert one[27][38 + 15] == "." and one[14][38 + 2] == "#"
    six = golden("face_6_lock")
    # six pips in two columns on the yellow die: rows of pips at y 16-21, 24-29, 32-37
    for y in (18, 26, 34):
        assert six[y][2 + 4 : 2 + 10] == "######" and six[y][2 + 20 : 2 + 26] == "######"
        assert six[y][2 + 12 : 2 + 18] == "......"
    # the track: 8 cells of 16 px, the ship (filled) on the 4th
    assert six[60][48 + 1 : 48 + 15] == "#" * 14 and six[60][16 + 1 : 16 + 15] != "#" * 14
    attack_on, attack_off = golden("track_arrived_attack_on"), golden("track_attack_off")
    assert attack_on[43] == "#" * WIDTH and attack_off[43] == "." * WIDTH
    # the 7 inverted (x 76-121, y 10-33); on a sea board the pawn over a ship (the pirate)
    # beside it, with "OR": the ship's widest row (16 px, x 98-113) dark at y 30
    island, sea = golden("seven_robber"), golden("seven_robber_or_pirate")
    assert island[10][76:122] == sea[10][76:122] == "#" * 46
    assert sea[30][96:122] == "##" + "." * 16 + "#" * 8 and island[30][98:114] != "." * 16


def test_golden_frames_are_rewritten_only_by_hand_and_never_under_ci(tmp_path: Path) -> None:
    """The rewrite is its own script: no test run writes them, whatever its environment says;
    under CI the script refuses and writes nothing; by hand it writes what the code draws."""
    before = {p.name: p.read_bytes() for p in GOLDEN.iterdir()}
    env = {**os.environ, "CI": "true"}
    refused = subprocess.run(
        [sys.executable, str(UPDATE), str(tmp_path)], env=env, capture_output=True, text=True
    )
    assert refused.returncode == 2 and "CI" in refused.stderr
    assert list(tmp_path.iterdir()) == []
    env.pop("CI")
    written = subprocess.run(
        [sys.executable, str(UPDATE), str(tmp_path)], env=env, capture_output=True, text=True
    )
    assert written.returncode == 0, written.stderr
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    assert {p.name: p.read_bytes() for p in GOLDEN.iterdir()} == before


def test_box_screen_state_follows_a_roll() -> None:
    """Through the box: a roll shows at once with its faces, shakes, then stands still."""
    sim = SimBox(ScriptedDice([(2, 5, "ship")]))
    sim.advance(100)
    assert sim.box.screen_state(sim.now)[:3] == (0, 0, "")
    sim.box.press(sim.now)
    pressed = sim.now
    state = sim.box.screen_state(pressed)
    assert state[:4] == (2, 5, "ship", 0) and state[4] == 1  # ship advanced the solo track
    assert sim.box.screen_state(pressed + 120)[3] == 2
    assert sim.box.screen_state(pressed + 400)[3] == -1  # the animation is over within 400 ms
    assert state[9] == 1  # one offline roll waiting


def test_a_sea_boards_track_makes_the_seven_say_robber_or_pirate() -> None:
    """TRACK's optional sea=1 (§13): the screen state's last value; a TRACK without it (an
    island's, or an older tablet's) turns it off again."""
    sim = SimBox()
    sim.advance(50)
    sim.send("HELLO")
    assert sim.box.screen_state(sim.now)[13] is False
    sim.send("TRACK", (("pos", 2), ("len", 8), ("sea", 1)))
    assert sim.out()[-1] == ("OK", {"cmd": "TRACK"})
    state = sim.box.screen_state(sim.now)
    assert (state[4], state[5], state[13]) == (2, 8, True)
    sim.send("TRACK", (("pos", 2), ("len", 8)))
    assert sim.box.screen_state(sim.now)[13] is False


def test_show_from_the_tablet_reaches_the_screen_only_while_it_is_present() -> None:
    sim = SimBox()
    sim.advance(50)
    sim.send("HELLO")
    sim.send("SHOW", (("turn", "Anna"), ("draw", "Anna.Bo")))
    assert sim.out()[-1] == ("OK", {"cmd": "SHOW"})
    state = sim.box.screen_state(sim.now)
    # the names as sent: the screen lays them out
    assert (state[7], state[10], state[11]) == (True, "ANNA", "ANNA.BO")
    sim.send("SHOW")  # nothing to show: cleared
    assert sim.box.screen_state(sim.now)[10:12] == ("", "")
    sim.send("SHOW", (("turn", "Anna"),))
    sim.advance(6000)  # the tablet is gone: the screen shows no tablet, not a stale turn
    state = sim.box.screen_state(sim.now)
    assert (state[7], state[10]) == (False, "")
