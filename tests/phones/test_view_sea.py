"""A New Shores seat on its phone (§13): a gold field's choice answered there, the island
chits and the Longest Trade Route in the page's VP breakdown, and where the robber and the
pirate stand."""

from __future__ import annotations

from companion_app.app.tour.plan import SCENARIO_PLAN_SEEDS, make_plan
from companion_app.i18n import catalogue, render
from companion_app.phones.view import decision, phone_decider, phone_refusal, seat_page
from companion_app.rules.actions import TakeGold
from companion_app.rules.cards import RESOURCES, Card
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from tests.rules.builders import make_game
from tests.rules.sea.ck_builders import ck_sea_game
from tests.rules.sea.sea_builders import SEA, T


def _at_first_gold() -> tuple[Game, TakeGold]:
    plan = make_plan(SCENARIO_PLAN_SEEDS[("new_shores", 4)], 4, scenario="new_shores")
    game = Game.new(plan.config)
    for action in plan.actions:
        if isinstance(action, TakeGold):
            return game, action
        game.apply(action)
    raise AssertionError("the plan's gold field never pays")


def test_a_gold_choice_is_answered_on_the_seats_phone() -> None:
    game, planned = _at_first_gold()
    seat = planned.player
    assert game.prompt.kind is PromptKind.GOLD and phone_decider(game) == seat
    asked = decision(game, seat)
    assert asked is not None and asked["kind"] == "gold"
    held = [c for c in RESOURCES if game.bank[c]]
    assert [c["action"] for c in asked["choices"]] == [TakeGold(seat, c).to_json() for c in held]
    assert [render(c["label"], "en") for c in asked["choices"]] == [
        f"Take 1 {c.label}" for c in held
    ]
    # Nobody else's phone is asked, or may answer it.
    other = (seat + 1) % game.player_count
    assert decision(game, other) is None
    assert phone_refusal(game, other, TakeGold(other, Card.ORE)) is not None
    # The seat's answer, as its phone sends it, is what the table takes.
    choice = next(c for c in asked["choices"] if c["action"] == planned.to_json())
    before = game.hands[seat][planned.card]
    assert phone_refusal(game, seat, planned) is None
    assert game.apply_json(choice["action"]) == planned
    assert game.hands[seat][planned.card] == before + 1
    # A commodity is never a gold field's (§13.5): the phone cannot send one either.
    assert phone_refusal(game, seat, TakeGold(seat, Card.CLOTH)) is not None


def test_the_page_counts_island_chits_and_names_the_trade_route() -> None:
    plan = make_plan(SCENARIO_PLAN_SEEDS[("new_shores", 4)], 4, scenario="new_shores")
    game = Game.new(plan.config)
    for action in plan.actions:
        game.apply(action)
    chits = [p for p in range(game.player_count) if game.islands_settled[p]]
    holder = game.longest_road_holder
    assert chits and holder >= 0
    for seat in {chits[0], holder}:
        vp = seat_page(game, seat)["vp"]
        parts = {render(words, "en"): n for words, n in vp["parts"]}
        assert sum(parts.values()) == vp["total"] == game.victory_points(seat)
        if game.islands_settled[seat]:
            count = 2 * len(game.islands_settled[seat])
            assert parts[f"{count} island chits"] == count
        if seat == holder:
            assert parts["longest trade route"] == 2
            assert "longest road" not in parts


def _where(game: Game, code: str = "en") -> tuple[str | None, str | None]:
    """The page's robber and pirate lines in language ``code``."""
    page = seat_page(game, 1)
    words = catalogue(code)
    robber, pirate = page["robber"], page["pirate"]
    return (
        None if robber is None else words.render(robber),
        None if pirate is None else words.render(pirate),
    )


def test_s13_4_a_seats_page_says_where_the_robber_and_the_pirate_stand() -> None:
    """Map ids (``tests/rules/sea``): the robber on the desert (hex 26); the pirate on sea hex
    22, whose land neighbours are the 9 forest (16), 9 pasture (21), 10 gold (23) and 5 forest
    (28): named by the numbered one of lowest id; on the frame cell west of hex 0 it is named by
    the land nearest that hex, hex by hex outwards."""
    game = ck_sea_game(pirate=SEA)
    assert (SEA, game.robber_hex) == (22, 26)
    assert _where(game) == ("Robber: the desert", "Pirate: the sea beside the 9 forest")
    assert _where(game, "de") == ("Räuber: Wüste", "Piratenschiff: das Meer neben Wald 9")
    frame = T.hex_count  # the first frame cell, in reading order
    game = ck_sea_game(pirate=frame, robber_hex=23)
    assert _where(game)[0] == "Robber: the 10 gold field"
    assert (_where(game)[1] or "").startswith("Pirate: the frame beside the ")


def test_an_islands_page_says_where_the_robber_stands_and_has_no_pirate() -> None:
    game = make_game(robber_hex=0)
    number, terrain = game.tokens[0], game.board.terrains[0].value
    assert _where(game) == (f"Robber: the {number} {terrain}", None)
