"""The phone page's "Why not?": on its seat's own turn, each kind of action it cannot take now
with the rules core's reason (those that read its hand too: the page is the seat's alone), in
every language of the product; nothing on another seat's page."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from phones_helpers import game_after, others_changed

from companion_app.i18n import LANGUAGES
from companion_app.phones.view import seat_page
from companion_app.rules.cards import ProgressCard, hand_of
from tests.rules.builders import e, make_game

ROADS = {e(8, 13): 0, e(13, 18): 0, e(18, 23): 0}


def test_the_seat_on_turn_reads_why_not_in_each_language_others_read_nothing() -> None:
    # §5: a city costs 2 grain + 3 ore; Red (seat 0) holds 1 grain. §10: no opponent has a
    # knight for Red's Deserter.
    game = make_game(
        buildings={8: (0, "settlement")},
        roads=ROADS,
        hands={0: hand_of(grain=1), 1: hand_of(ore=5)},
        progress={0: (ProgressCard.DESERTER,)},
    )
    page = seat_page(game, 0)
    assert set(page["why_not"]) == set(LANGUAGES)
    english = {row["title"]: row for row in page["why_not"]["en"]}
    assert english["City"]["text"] == "A city needs 2 grain and 3 ore: you have 1 grain."
    assert english["Deserter"]["text"] == (
        "The Deserter needs an opponent with a knight on the board."
    )
    german = {row["title"]: row for row in page["why_not"]["de"]}
    assert german["Stadt"]["text"] == "Eine Stadt kostet 2 Getreide und 3 Erz: du hast 1 Getreide."
    czech = {row["title"]: row for row in page["why_not"]["cs"]}
    assert czech["Město"]["text"] == "Město stojí 2 obilí a 3 rudy; máš: 1 obilí."
    for seat in (1, 2, 3):
        assert seat_page(game, seat)["why_not"] == {}


def test_before_the_roll_the_reasons_say_roll_first_with_the_rule() -> None:
    game = make_game(buildings={8: (0, "settlement")}, roads=ROADS, prompt="roll")
    rows = {row["title"]: row for row in seat_page(game, 0)["why_not"]["en"]}
    assert rows["Road"] == {
        "title": "Road",
        "text": "Roll the dice first.",
        "rule": "Roads are built on your own turn, after the roll (§5).",
    }


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 600))
def test_the_reasons_of_the_seat_on_turn_read_no_other_seats_cards(seed: int, steps: int) -> None:
    """Every other seat's cards swapped for others of the same counts: the seat on turn's
    reasons read the same (they read its own hand, and of the others only what the table
    sees)."""
    game = game_after(seed, steps)
    seat = game.active
    changed, _swapped = others_changed(game, seat)
    assert seat_page(changed, seat)["why_not"] == seat_page(game, seat)["why_not"]
