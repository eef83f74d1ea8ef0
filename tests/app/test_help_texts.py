"""The rule texts shown at the table: one for every progress card and every variant, in words a
player reads (no placeholders), naming where the rules reference says it."""

from __future__ import annotations

import dataclasses

from companion_app import help_texts as H
from companion_app.rules.cards import ProgressCard
from companion_app.rules.config import GameConfig


def test_every_progress_card_has_its_rule_text() -> None:
    assert set(H.PROGRESS_CARD_HELP) == set(ProgressCard)
    for card in ProgressCard:
        text = H.progress_help(card)
        assert text.endswith(f"({H.PROGRESS_SECTION})")
        assert len(H.PROGRESS_CARD_HELP[card]) >= 20, card
    assert "Fortress" in H.PROGRESS_CARD_HELP[ProgressCard.SMITH]
    assert "2, 12, 6 or 8" in H.PROGRESS_CARD_HELP[ProgressCard.INVENTOR]


def test_a_hand_title_finds_its_card() -> None:
    for card in ProgressCard:
        assert H.progress_card_by_title(str(card.title)) is card
    assert H.progress_card_by_title("Road Building") is ProgressCard.ROAD_BUILDING
    assert H.progress_card_by_title("Nonsense") is None


def test_every_variant_of_the_config_is_explained() -> None:
    fields = {f.name for f in dataclasses.fields(GameConfig)}
    # The New game form calls barbarian_track_length "track_length".
    assert set(H.VARIANT_HELP) - {"track_length"} <= fields
    assert "barbarian_track_length" in fields
    assert {"easy_start", "quick_knights", "evil_barbarians"} <= set(H.VARIANT_HELP)


def test_improvement_levels_in_words() -> None:
    assert H.improvement_words((0, 0, 0)) == "no improvements"
    assert H.improvement_words((1, 0, 2)) == "trade 1, science 2"
    assert H.improvement_words((5, 3, 1)) == "trade 5, politics 3, science 1"
