"""No phone page, log line or view shows a seat another seat's private things, on random games.

A seat's private things are its cards (the view's hands and progress cards) and the log details
told only to some seats (the card a thief took, the progress card drawn, the Spy's take, a
Wedding gift...). Each property is one of non-interference: change what a seat may not know, and
what it is shown does not change.
"""

from __future__ import annotations

import copy
import json
import re

from hypothesis import given
from hypothesis import strategies as st
from phones_helpers import game_after, others_changed, play_until, without_moves

from companion_app.game_log import GameLog, LogEntry
from companion_app.phones.view import LOG_LINES, seat_page
from companion_app.rules.cards import Card, ProgressCard
from companion_app.rules.events import Steal
from companion_app.rules.game import Game
from companion_app.rules.pieces import NOBODY
from companion_app.rules.prompts import PromptKind
from companion_app.rules.words import LineKind
from tests.said import said

SECRET = "SECRET-DETAIL"
"""What every detail a seat is not told says, in the log a test builds for that seat."""

SHOWN_TO_THE_DECIDER = (PromptKind.SPY, PromptKind.MASTER_MERCHANT)
"""Prompts whose decider is shown a victim's cards by the rules (``view_for``'s "shown")."""

CARD_NAMES = re.compile(
    r"\b("
    + "|".join(re.escape(c.label) for c in Card)
    + "|"
    + "|".join(re.escape(str(c.title)) for c in ProgressCard)
    + r")\b"
)


def seats_named(names: tuple[str, ...], text: str) -> set[int]:
    return {q for q, name in enumerate(names) if re.search(rf"\b{re.escape(name)}\b", text)}


def told_only_to_others(log: GameLog, seat: int) -> GameLog:
    """``log`` as a game could have left it where every detail ``seat`` is not told says
    something else (the entries' public words unchanged)."""
    other = copy.copy(log)
    other.entries = [
        LogEntry(e.step, e.turn, e.kind, said(e.text), e.audience, SECRET, e.automatic)
        if said(e.detail) and seat not in e.audience
        else e
        for e in log.entries
    ]
    return other


def assert_view_hides_the_others(game: Game, seat: int) -> None:
    view = game.view_for(seat)
    deciding = game.prompt.player == seat and game.prompt.kind in SHOWN_TO_THE_DECIDER
    assert ("shown" in view) == (deciding and game.card_target != NOBODY)
    for q in range(game.player_count):
        if q == seat:
            continue
        assert view["hands"][q] == {"cards": game.card_count(q)}
        assert view["progress_hands"][q] == {"cards": len(game.progress_hands[q])}
    for q, gained in enumerate(view["last_production"]):
        assert q == seat or set(gained) == {"cards"}
    assert all(isinstance(n, int) for n in view["decks"].values())  # counts, not the order
    assert "rng" not in view and "seed" not in view["config"]


@given(seed=st.integers(0, 2**32), steps=st.integers(0, 700))
def test_no_page_log_line_or_view_shows_another_seats_private_things(seed: int, steps: int) -> None:
    game = game_after(seed, steps)
    log = GameLog.of(game)
    names = game.config.names
    for entry in log.entries:
        if said(entry.detail):
            # A detail is told only to the seats its line is about ("Red steals a card from
            # Blue"), never to everyone; the words for everyone name no card it names.
            assert entry.audience <= seats_named(names, said(entry.text)), entry
            assert len(entry.audience) < len(names), entry
            assert not set(CARD_NAMES.findall(said(entry.text))) & set(
                CARD_NAMES.findall(said(entry.detail))
            ), entry
        # The shared screen reads the words for everyone.
        assert said(entry.words_for(None)) == said(entry.text), entry
    for seat in range(game.player_count):
        assert_view_hides_the_others(game, seat)
        page = said(seat_page(game, seat, log))
        assert len(page["log"]) == min(len(log.entries), LOG_LINES)
        # The log's private details this seat is not told: neither its page nor its log lines
        # change when they say something else.
        blind = told_only_to_others(log, seat)
        assert said(seat_page(game, seat, blind)) == page
        assert SECRET not in json.dumps(page)
        assert SECRET not in " ".join(said(blind.words_for(seat)))
        # The other seats' cards: the page does not change when they are other cards.
        if game.prompt.player == seat and game.prompt.kind in SHOWN_TO_THE_DECIDER:
            continue
        changed, _ = others_changed(game, seat)
        assert without_moves(said(seat_page(changed, seat, log))) == without_moves(page)


def test_a_steal_is_told_to_the_thief_and_the_victim_only() -> None:
    """A worked example: the card the robber's owner took is on the thief's and the victim's
    pages; the others' pages say only "steals a card" (§8)."""
    config, actions = play_until(lambda g: any(isinstance(e, Steal) for e in g.events), seed=2)
    game = Game.replay(config, actions)
    taken = next(e for e in game.events if isinstance(e, Steal))
    log = GameLog.of(game)
    steal = next(e for e in log.entries if e.kind is LineKind.STEAL)
    assert steal.audience == {taken.thief, taken.victim}
    assert taken.card.label in said(steal.detail) and not CARD_NAMES.search(said(steal.text))
    for seat in range(game.player_count):
        texts = [line["text"] for line in said(seat_page(game, seat, log))["log"]]
        told = seat in (taken.thief, taken.victim)
        assert (said(steal.detail) in texts) == told and (said(steal.text) in texts) == (not told)
