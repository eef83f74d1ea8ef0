"""Privacy audit of the shared screen's words: every value the game screen and the info screens
show, for games where every hand holds distinctive cards, names no progress card in a hand and
no count of a card kind in a hand (the decider's own included, until they uncover it).

The covered parts (a hidden decision's cards, the progress cards behind "Progress card") are
left out here because the screen shows them only after "Show my cards"; the UI scenarios check
that cover on the real widgets.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from test_turn_presenter import STATES

from companion_app.game_log import GameLog
from companion_app.i18n import SOURCE, catalogue
from companion_app.presenters import choices as C
from companion_app.presenters import info_presenter as I
from companion_app.presenters import wording as W
from companion_app.presenters.why_not import why_not_rows
from companion_app.rules.cards import Card, ProgressCard, hand_of
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from companion_app.rules.registry import PRIVATE_PROMPTS
from tests.rules.builders import corner, make_game
from tests.said import said

HANDS = {  # counts found nowhere else (improvement costs are 1–5 commodities)
    0: hand_of(brick=6, cloth=7),
    1: hand_of(lumber=7, coin=8),
    2: hand_of(wool=8, paper=9),
    3: hand_of(grain=9, ore=10),
}
PROGRESS = {
    0: (ProgressCard.BISHOP,),
    1: (ProgressCard.SPY,),
    2: (ProgressCard.WEDDING,),
    3: (ProgressCard.ALCHEMIST, ProgressCard.MEDICINE),
}


def _steps(step: C.ChoiceStep | None) -> Iterator[str]:
    if step is None:
        return
    yield step.title
    for choice in step.choices:
        yield choice.label
        yield from _steps(choice.then)


def shared_words(game: Game, log: GameLog) -> list[str]:
    """Every text the shared screen shows for ``game`` with nothing uncovered."""
    words = [said(game.describe_prompt()), W.turn_words(game), W.bank_words(game)]
    words += [repr(W.prompt_view(game, revealed=False)), *W.production_lines(game, log)]
    for button in C.action_bar(game):
        words.append(button.title)
        if button.key not in (C.PROGRESS_KEY, C.OFFER_KEY):
            words += _steps(C.bar_step(game, button.key))
    if game.prompt.kind not in PRIVATE_PROMPTS:
        words += _steps(C.prompt_step(game))
    words += [repr(k) for k in C.commit_knights(game) or ()]
    words += [repr(line) for line in I.panel_lines(game)]
    for seat in range(game.player_count):
        words.append(repr(I.improvement_chart(game, seat)))
    words += [repr(I.attack_view(game)), repr(I.statistics_view(game))]
    words += [I.cover_words(game, seat) for seat in I.open_hands(game)]
    words += said(log.words_for(None))
    # Why not?, as it opens: the reasons that read a hand wait behind "Show my cards".
    words += [repr(row) for row in why_not_rows(game, catalogue(SOURCE), revealed=False)]
    return words


def _constructed(active: int, prompt: str) -> Game:
    return make_game(
        buildings={corner(4, 0): (0, "city"), corner(10, 3): (1, "settlement")},
        hands=HANDS,
        progress=PROGRESS,
        active=active,
        prompt=prompt,
        robber_unlocked=True,
    )


def _leaks(game: Game, words: list[str], public: str = "") -> list[str]:
    text = "\n".join(words)
    found = []
    for seat in range(game.player_count):
        for card in game.progress_hand(seat):
            title = str(card.title)
            if title in text and title not in public:
                found.append(f"{game.config.names[seat]}'s {title}")
    return found


@pytest.mark.parametrize(("active", "prompt"), [(p, k) for p in range(4) for k in ("turn", "roll")])
def test_no_card_of_any_hand_on_the_shared_screen(active: int, prompt: str) -> None:
    game = _constructed(active, prompt)
    log = GameLog.from_position(game)
    words = shared_words(game, log)
    assert not _leaks(game, words)
    text = "\n".join(words)
    for seat, hand in HANDS.items():
        for card in Card:
            if hand[card]:
                pattern = rf"(?<!\d){hand[card]} {card.label}\b"
                assert not re.search(pattern, text), (game.config.names[seat], pattern)


def test_the_progress_button_is_there_for_every_holder_playable_or_not() -> None:
    for active in range(4):
        game = _constructed(active, "roll")
        keys = [b.key for b in C.action_bar(game)]
        # Only Orange holds an Alchemist, the one card played before the roll; every holder
        # gets the button, so the bar does not tell who holds it.
        assert C.PROGRESS_KEY in keys


def test_only_the_deciding_player_may_open_a_hand_during_the_game() -> None:
    game = _constructed(2, "turn")
    assert I.open_hands(game) == [2]


@pytest.mark.parametrize("index", range(0, len(STATES), 9))
def test_random_states_show_no_progress_card_still_in_a_hand(index: int) -> None:
    game = STATES[index]
    if game.is_over:
        return
    log = GameLog.of(game)
    public = "\n".join(said(log.words_for(None)))
    # A title in the public log (another copy played earlier) is not this hand's secret.
    assert not _leaks(game, shared_words(game, log), public)
    assert game.prompt.kind is PromptKind.GAME_OVER or I.open_hands(game) == [game.prompt.player]
