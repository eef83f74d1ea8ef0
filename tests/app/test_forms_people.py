"""The New game form offers the people who played here before, each in their colour."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion_app.journal import Journal
from companion_app.journal.people import Person
from companion_app.presenters.forms import NewGameForm
from companion_app.rules.board import STARTER_BOARD
from companion_app.rules.config import GameConfig, PlayerConfig
from companion_app.rules.errors import ConfigError

STAMP = "2026-11-20T20:00:00.000+00:00"
ANNA = Person(1, "Anna", "blue", STAMP)
BEN = Person(2, "Ben", "green", STAMP)
CLEO = Person(3, "Cleo", "red", STAMP)


def _form() -> NewGameForm:
    return NewGameForm(known=[ANNA, BEN, CLEO])


def test_picking_a_person_seats_them_in_their_colour_and_keeps_colours_apart() -> None:
    form = _form()
    form.pick(0, ANNA)  # slot 0 was Red/red; Anna plays blue, which slot 1 (Blue) had
    assert [(p.name, p.colour) for p in form.players] == [
        ("Anna", "blue"),
        ("Blue", "red"),
        ("White", "white"),
        ("Orange", "orange"),
        ("Green", "green"),  # the empty seats of a fifth and sixth player
        ("Brown", "brown"),
    ]
    config = form.config(STARTER_BOARD)
    assert config.players[0] == PlayerConfig("Anna", "blue")


def test_a_seated_person_is_not_offered_to_another_slot() -> None:
    form = _form()
    form.pick(0, ANNA)
    assert form.offers(1) == [BEN, CLEO]
    assert form.offers(0) == [ANNA, BEN, CLEO]
    form.toggle_plays(3)
    form.pick(3, BEN)
    assert form.offers(1) == [BEN, CLEO]  # an empty seat holds nobody
    form.toggle_plays(3)
    assert form.offers(1) == [CLEO]


def test_next_person_goes_round_the_known_people() -> None:
    form = _form()
    form.pick(1, BEN)
    assert form.next_person(0) == ANNA
    assert form.next_person(0) == CLEO  # Ben sits in slot 1
    assert form.next_person(0) == ANNA
    assert form.players[0].colour == "blue"
    assert NewGameForm().next_person(0) is None


def test_people_of_a_journal_come_back_on_the_form(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        journal.new_game(
            GameConfig(
                players=(
                    PlayerConfig("Zoë", "green"),
                    PlayerConfig("Ivo", "brown"),
                    PlayerConfig("Ada", "white"),
                )
            )
        )
        form = NewGameForm(known=journal.people())
    assert {(p.name, p.colour) for p in form.known} == {
        ("Zoë", "green"),
        ("Ivo", "brown"),
        ("Ada", "white"),
    }
    form.next_person(2)
    assert form.players[2].name in {"Zoë", "Ivo", "Ada"}


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("x" * 25, "a player's name is at most 24 characters (25 given)"),
        ("Bo\tb", "a player's name cannot hold the control character U+0009"),
        ("  ", "a player's name cannot be empty"),
    ],
)
def test_a_name_that_cannot_be_a_person_is_refused_by_the_form(name: str, reason: str) -> None:
    form = NewGameForm()
    form.players[1].name = name
    with pytest.raises(ConfigError) as refused:
        form.config(STARTER_BOARD)
    assert str(refused.value) == reason


def test_names_are_tidied_before_the_game_starts() -> None:
    form = NewGameForm()
    form.players[0].name = "  Jo   Ann "
    assert form.config(STARTER_BOARD).players[0].name == "Jo Ann"


def test_a_tapped_person_takes_the_first_seat_without_a_known_person() -> None:
    form = _form()
    assert form.unseated() == [ANNA, BEN, CLEO]
    assert form.seat_known(CLEO) == 0
    assert form.seat_known(ANNA) == 1
    assert [(p.name, p.colour) for p in form.players[:2]] == [("Cleo", "red"), ("Anna", "blue")]
    assert form.unseated() == [BEN]
    form.toggle_plays(2)  # White's seat is left empty: Ben goes to Orange's
    assert form.seat_known(BEN) == 3
    assert form.unseated() == []
    form.toggle_plays(2)
    form.players[2].name = "Ben"  # typed by hand: a known person too
    form.players[3].name = "Dora"
    assert form.unseated() == []
    assert form.seat_known(ANNA) is None  # she sits in slot 1 already
    assert form.players[3].name == "Dora"
