"""The new-game form for three to six players (§12): green and brown seats, the 30-hex board's
choices, and the table's own 30-hex board entered position by position."""

from __future__ import annotations

from companion_app.presenters.forms import BoardEntry, NewGameForm
from companion_app.rules.board import FRAME_19, FRAME_30, random_balanced_board
from companion_app.rules.config import MAX_PLAYERS, MIN_PLAYERS
from companion_app.rules.topology import ISLAND_30


def test_six_seats_four_seated_green_and_brown_empty_at_first() -> None:
    form = NewGameForm()
    assert [(p.colour, p.plays) for p in form.players] == [
        ("red", True),
        ("blue", True),
        ("white", True),
        ("orange", True),
        ("green", False),
        ("brown", False),
    ]
    assert len(form.players) == MAX_PLAYERS == 6
    assert form.frame is FRAME_19


def test_seating_green_and_brown_makes_six_on_the_thirty_hex_board() -> None:
    form = NewGameForm(board_choice="starter", seed=42)
    form.toggle_plays(4)
    assert form.player_count == 5
    # Five play on 30 hexes, which have no starter layout: the random board is chosen.
    assert form.frame is FRAME_30
    assert form.board_choices == ("random", "table")
    assert form.board_choice == "random"
    form.toggle_plays(5)
    assert form.player_count == 6
    board = form.board()
    assert board is not None and board.topology is ISLAND_30
    assert board == random_balanced_board(42, FRAME_30)
    config = form.config(board)
    assert [p.colour for p in config.players] == [
        "red",
        "blue",
        "white",
        "orange",
        "green",
        "brown",
    ]
    # Back to four: the starter layout may be chosen again (the random board stays chosen).
    form.toggle_plays(5)
    form.toggle_plays(4)
    assert form.frame is FRAME_19
    assert form.board_choices == ("starter", "random", "table")
    assert form.board_choice == "random"


def test_the_seats_stay_between_the_rules_cores_bounds() -> None:
    form = NewGameForm()
    for index in range(6):
        if not form.players[index].plays:
            form.toggle_plays(index)
    assert form.player_count == MAX_PLAYERS
    for index in range(6):
        form.toggle_plays(index)
    assert form.player_count == MIN_PLAYERS
    assert [p.plays for p in form.players] == [False, False, False, True, True, True]


def test_a_seat_taken_gets_a_colour_nobody_seated_has() -> None:
    form = NewGameForm()
    form.players[0].colour = "green"  # red's seat took green while it was free
    form.toggle_plays(4)
    seated = [p.colour for p in form.seated]
    assert len(set(seated)) == len(seated) == 5
    assert form.players[4].colour == "brown"


def test_a_thirty_hex_board_is_entered_position_by_position() -> None:
    entry = BoardEntry(frame=FRAME_30)
    assert entry.positions == 41  # 30 hexes and 11 harbours
    board, error = entry.check()
    assert board is None and error
    known = random_balanced_board(7, FRAME_30)
    entry = BoardEntry.from_board(known)
    assert entry.entered == 41
    assert entry.check() == (known, "")
    picture = entry.picture()
    assert picture.topology is ISLAND_30
    assert len(picture.hexes) == 30 and len(picture.harbours) == 11


def test_the_table_says_which_desert_the_robber_starts_on() -> None:
    known = random_balanced_board(7, FRAME_30)
    entry = BoardEntry.from_board(known)
    first, second = known.deserts
    assert known.desert_hex in (first, second)  # the rule's own: the one nearer the middle
    other = second if known.desert_hex == first else first
    entry.set_robber(other)
    board, error = entry.check()
    assert error == "" and board is not None
    assert board.desert_hex == other
    assert entry.picture().robber_hex == other
