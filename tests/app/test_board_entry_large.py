"""Entering the table's own 30-hex board (§12) through the presenter the 19-hex entry uses."""

from __future__ import annotations

from companion_app.presenters.forms import BoardEntry
from companion_app.rules.board import FRAME_19, FRAME_30, random_balanced_board


def test_a_fresh_entry_has_the_frames_positions() -> None:
    assert (len(BoardEntry().terrains), len(BoardEntry().harbours)) == (19, 9)
    large = BoardEntry(frame=FRAME_30)
    assert (len(large.terrains), len(large.tokens), len(large.harbours)) == (30, 30, 11)
    assert large.entered == 0
    assert large.check() == (
        None,
        "hex 0 is missing; a board has 30 hexes",
    )


def test_a_large_board_entered_in_full_is_the_board_with_the_tables_robber() -> None:
    board = random_balanced_board(17, FRAME_30)
    entry = BoardEntry(frame=FRAME_30)
    for h, (terrain, token) in enumerate(zip(board.terrains, board.tokens, strict=True)):
        entry.set_terrain(h, terrain)
        entry.set_token(h, token)
    for s, harbour in enumerate(board.harbours):
        entry.set_harbour(s, harbour)
    assert entry.entered == 41
    assert entry.check() == (board, "")
    other = next(h for h in board.deserts if h != board.desert_hex)
    entry.set_robber(other)
    chosen, error = entry.check()
    assert error == "" and chosen is not None and chosen.desert_hex == other
    again = BoardEntry.from_board(chosen)
    assert again.frame is FRAME_30 and again.robber == other and again.check() == (chosen, "")
    assert BoardEntry.from_board(random_balanced_board(3)).frame is FRAME_19
