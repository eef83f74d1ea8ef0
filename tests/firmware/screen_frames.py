"""The display states the golden frames hold, and how a frame is drawn and read under CPython:
shared by the screen tests and the script that rewrites the frames by hand."""

from __future__ import annotations

from pathlib import Path

from fwtools import S, rows

GOLDEN = Path(__file__).parent / "golden_frames"

# name -> (yellow, red, event, shake, pos, len, attack, host, armed, waiting, turn, draw, mode
# [, sea])
FRAMES: dict[str, list] = {
    "no_roll_solo": [0, 0, "", -1, 0, 8, -1, False, True, 0, "", "", 0],
    "face_1_ship": [1, 1, "ship", -1, 1, 8, -1, False, True, 1, "", "", 0],
    "face_2_trade": [2, 2, "trade", -1, 0, 8, -1, True, True, 0, "RED", "", 0],
    "face_3_politics": [3, 3, "politics", -1, 0, 8, -1, True, True, 0, "BLUE", "", 0],
    "face_4_science": [4, 4, "science", -1, 0, 8, -1, True, True, 0, "WHITE", "", 0],
    "face_5_draw": [5, 5, "science", -1, 2, 8, -1, True, True, 0, "RED", "RED.BLUE", 0],
    "face_6_lock": [6, 6, "trade", -1, 3, 8, -1, True, False, 0, "ORANGE", "", 0],
    "seven_robber": [3, 4, "trade", -1, 0, 8, -1, True, True, 0, "RED", "", 0],
    # a sea board (TRACK sea=1, §13): the 7 moves the robber or the pirate
    "seven_robber_or_pirate": [4, 3, "ship", -1, 2, 8, -1, True, True, 0, "RED", "", 0, True],
    "shake_first_frame": [2, 5, "ship", 0, 4, 8, -1, False, True, 3, "", "", 0],
    "track_arrived_attack_on": [6, 1, "ship", -1, 7, 8, 0, False, True, 12, "", "", 0],
    "track_attack_off": [6, 1, "ship", -1, 7, 8, 1, False, True, 12, "", "", 0],
    "track_16_spaces": [1, 6, "politics", -1, 9, 16, -1, True, True, 2, "RED", "", 0],
    # the dice mode's mark, first of the marks (fair dice show none: every frame above)
    "mode_balanced_solo": [4, 2, "ship", -1, 1, 8, -1, False, True, 1, "", "", 1],
    "mode_deck_tablet": [5, 6, "trade", -1, 2, 8, -1, True, False, 0, "ANNA", "", 2],
    # six players, all drawing on the widest colour's castle (SHOW draws=): two rows of names
    "draw_six_names": [
        4,
        6,
        "trade",
        -1,
        3,
        8,
        -1,
        True,
        True,
        0,
        "CENEK",
        "ANNA.BOGDAN.CENEK.DUC.EVA.FRANTISEK",
        0,
    ],
}


def draw_cpython(state: list) -> list[str]:
    screen = S.Screen()
    screen.draw(tuple(state))
    return rows(screen.buf)


def golden(name: str) -> list[str]:
    return (GOLDEN / f"{name}.txt").read_text().splitlines()
