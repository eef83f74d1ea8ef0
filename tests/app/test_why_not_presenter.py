"""Why not? on the tablet (no Kivy): the kinds missing from the action bar with the rules
core's reasons, those that read a hand covered until the player on turn uncovers their cards,
and the progress cards held that cannot be played, named only once uncovered."""

from __future__ import annotations

from companion_app.i18n import SOURCE, catalogue
from companion_app.presenters import choices as C
from companion_app.presenters.why_not import (
    BAR_KINDS,
    WHY_NOT_KEY,
    WhyNotRow,
    has_covered_rows,
    why_not_button,
    why_not_rows,
)
from companion_app.rules.cards import ProgressCard, hand_of
from companion_app.rules.game import Game
from tests.rules.builders import e, make_game

ENGLISH = catalogue(SOURCE)
ROADS = {e(8, 13): 0, e(13, 18): 0, e(18, 23): 0}


def red_with_a_settlement(**kw: object) -> Game:
    return make_game(buildings={8: (0, "settlement")}, roads=ROADS, **kw)  # type: ignore[arg-type]


def rows_by_title(game: Game, *, revealed: bool) -> dict[str, WhyNotRow]:
    return {row.title: row for row in why_not_rows(game, ENGLISH, revealed=revealed)}


def test_the_bar_asks_why_not_only_on_the_turns_own_decisions() -> None:
    game = red_with_a_settlement()
    assert [b.key for b in why_not_button(game)] == [WHY_NOT_KEY]
    discarding = red_with_a_settlement(prompt="discard", hands={0: hand_of(ore=9)})
    assert why_not_button(discarding) == []


def test_a_city_short_of_grain_is_covered_until_the_cards_are_shown() -> None:
    # §5: a city costs 2 grain + 3 ore; Red holds 1 grain and 1 brick.
    game = red_with_a_settlement(hands={0: hand_of(grain=1, brick=1)})
    covered = rows_by_title(game, revealed=False)
    assert covered["City"] == WhyNotRow("City", "", "", True)
    # A wall needs a city: the board says so, for everyone to read.
    assert covered["City wall"] == WhyNotRow(
        "City wall", "A city wall goes under one of your cities: you have none.", "", False
    )
    assert has_covered_rows(list(covered.values()))
    shown = rows_by_title(game, revealed=True)
    assert shown["City"] == WhyNotRow(
        "City", "A city needs 2 grain and 3 ore: you have 1 grain.", "", False
    )
    assert not has_covered_rows(list(shown.values()))


def test_the_rows_are_the_bar_kinds_the_bar_does_not_show() -> None:
    game = red_with_a_settlement(hands={0: hand_of(brick=1, lumber=1)})
    offered = {b.key for b in C.action_bar(game)}
    assert "build_road" in offered
    titles = set(rows_by_title(game, revealed=True))
    missing = {C.bar_title(key) for key, _kind in BAR_KINDS if key not in offered}
    assert titles == missing


def test_before_the_roll_the_reason_is_the_roll_with_the_rule_under_it() -> None:
    game = red_with_a_settlement(prompt="roll", hands={0: hand_of(brick=1, lumber=1)})
    road = rows_by_title(game, revealed=False)["Road"]
    assert (road.text, road.rule, road.covered) == (
        "Roll the dice first.",
        "Roads are built on your own turn, after the roll (§5).",
        False,
    )


def test_progress_cards_held_are_named_only_once_uncovered() -> None:
    # §10: the Deserter needs an opponent with a knight; there is none on the board.
    game = red_with_a_settlement(progress={0: (ProgressCard.DESERTER,)})
    assert "Deserter" not in rows_by_title(game, revealed=False)
    deserter = rows_by_title(game, revealed=True)["Deserter"]
    assert deserter.text == "The Deserter needs an opponent with a knight on the board."


def test_a_row_reads_wholly_in_the_readers_language() -> None:
    """The row's title (the bar's word) and its reason both in Vietnamese: a panel must not
    say "City wall: Tường thành cần …"."""
    game = red_with_a_settlement(hands={0: hand_of(grain=1, brick=1)})
    vietnamese = catalogue("vi")
    rows = why_not_rows(game, vietnamese, revealed=True)
    titles = {row.title for row in rows}
    assert vietnamese.gettext("City wall") == "Tường thành"
    assert {"Tường thành", "Thành phố"} <= titles
    assert not titles & {"City wall", "City", "Road", "Settlement"}


def test_no_card_of_the_kinds_asked_reads_right_after_you_have() -> None:
    """§5, a city: 2 grain and 3 ore, and Red holds only wool. "You have none" cannot be said
    as "máš žádné" / "masz brak" (Czech and Polish negate the verb), so they name 0 cards."""
    game = red_with_a_settlement(hands={0: hand_of(wool=1)})

    def city(code: str) -> str:
        language = catalogue(code)
        title = language.gettext("City")
        return next(r.text for r in why_not_rows(game, language, revealed=True) if r.title == title)

    assert city(SOURCE) == "A city needs 2 grain and 3 ore: you have none."
    assert city("pl").endswith("; masz: 0 kart.")
    assert city("cs").endswith("; máš: 0 karet.")
    assert city("vi").endswith("bạn có 0 lá.")
