"""The game log's whole-line height, with numbers: at its newest end the log shows no line
cut under the bank above it (``game_log_view.whole_lines_height``)."""

from __future__ import annotations

from companion_app.app.widgets.game_log_view import whole_lines_height


def test_the_newest_lines_that_fit_whole() -> None:
    # Lines 22, 40 and 58 px tall, newest first; 4 px padding, 2 px between lines.
    heights = [22.0, 40.0, 58.0, 22.0]
    # 4 + 22 + 2 = 28; + 40 + 2 = 70; + 58 + 2 = 130 > 100: two lines, 70 px, 30 px left over.
    assert whole_lines_height(heights, 100.0, 4.0, 2.0) == 70.0
    # 130 px exactly takes the third line.
    assert whole_lines_height(heights, 130.0, 4.0, 2.0) == 130.0
    assert whole_lines_height(heights, 129.0, 4.0, 2.0) == 70.0


def test_all_lines_fit_or_not_even_the_newest() -> None:
    # Every line fits: the whole room (the lines sit at its top, nothing is cut).
    assert whole_lines_height([22.0, 22.0], 200.0, 4.0, 2.0) == 200.0
    assert whole_lines_height([], 80.0, 4.0, 2.0) == 80.0
    # Not even the newest fits: the whole room, the newest cut rather than not shown.
    assert whole_lines_height([58.0], 40.0, 4.0, 2.0) == 40.0
