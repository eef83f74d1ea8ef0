"""The screenshot tour's planned game with news from the dice link after every planned action,
started by ``test_tour_news_ui.py`` in its own process.

The app answers every event of the dice link (a heartbeat lost and found again, the box's
hello) by taking the decisions with one option that are due (``CompanionApp._dice_changed``).
Such events come on the link's thread at moments set by the machine's load, so a tour that left
such a decision pending played differently from run to run. Here one comes after each planned
action the tour takes; the result lists every action it took in the tour's place, and the seed
of the random board the tour showed on the new-game form (a new one at each start otherwise).

Usage: python tour_news_scenario.py --journal DB --artifacts DIR --result JSON
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from scenario_driver import Clock, CompanionApp, DiceSource, Step

from companion_app.app.tour.plan import PLAN_SEED, make_plan
from companion_app.app.tour.tour import Tour
from companion_app.rules.actions import Action

PLANNED = 100
"""Planned actions played: past the first decisions with one option (a deserter's knight to
remove at action 57, knights to commit at 83)."""


class NewsTour(Tour):
    def __init__(self, app: CompanionApp, out: Path) -> None:
        super().__init__(app, out, make_plan(PLAN_SEED))
        self.taken_by_news: list[str] = []

    def take(self, action: Action, following: list[Action]) -> Step:
        yield from super().take(action, following)
        done = len(self.session.game.history)
        self.app._dice_changed()
        history = self.session.game.history
        self.taken_by_news += [f"action {i}: {history[i]}" for i in range(done, len(history))]

    def steps(self) -> Step:
        for wait in super().steps():
            yield wait
            if self.done >= PLANNED:
                return


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--journal", type=Path, required=True)
    parser.add_argument("--artifacts", type=Path, required=True)
    parser.add_argument("--result", type=Path, required=True)
    args = parser.parse_args()
    app = CompanionApp(dice=DiceSource(None), journal_path=args.journal, dice_seed=7)
    tour = NewsTour(app, args.artifacts / "tour_news")
    Clock.schedule_interval(tour.tick, 0)
    app.run()
    new_game = app.root.get_screen("new_game") if app.root is not None else None
    result = {
        "error": tour.error,
        "done": tour.done,
        "taken_by_news": tour.taken_by_news,
        "random_board_seed": new_game.form.seed if new_game is not None else None,
    }
    args.result.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
