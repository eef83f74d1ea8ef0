"""New game with people who played here before, started by ``test_people_ui.py``.

The journal given already holds a game of Anna, Ben (green) and Cleo. New game shows each of
them as a button in their colour; a tap seats one in the first seat without a known person, in
their colour, and the button goes. The Standings button beside them shows the finished game.

Usage: python people_scenario.py --journal DB --artifacts DIR --result JSON
"""

from __future__ import annotations

import sys

from scenario_driver import ScenarioDriver, Step, scenario_main


class Scenario(ScenarioDriver):
    def steps(self) -> Step:
        app = self.app
        yield lambda: app.root is not None and app.dice is not None
        yield 5
        home = app.root.get_screen("home")
        self.tap_widget(home.ids.new_game)
        yield 5
        new_game = app.root.get_screen("new_game")
        self.check("screen after New game", app.root.current, "new_game")
        chips = list(reversed(new_game.ids.known.children))
        self.check(
            "known people offered, then the standings",
            [c.text for c in chips],
            ["Anna", "Ben", "Cleo", "Standings"],
        )
        yield from self.shot("people_01_new_game.png")
        self.tap_widget(chips[1])  # Ben
        yield 3
        rows = new_game.rows
        self.check("Ben seated first", rows[0].ids.name.text, "Ben")
        self.check("in his colour", rows[0].ids.colour.text, "green")
        chips = list(reversed(new_game.ids.known.children))
        self.check("Ben no longer offered", [c.text for c in chips], ["Anna", "Cleo", "Standings"])
        yield from self.shot("people_02_ben_seated.png")
        self.tap_widget(chips[-1])
        yield 5
        self.check("the standings open", app.root.current, "standings")
        standings = app.root.get_screen("standings")
        self.check("its title", standings.title, "Standings after 1 game")
        cells = [c.text for c in reversed(standings.ids.table.children)]
        self.check(
            "Cleo won with 13 VP", cells[8:16], ["Cleo", "1", "1", "13.0", "0", "0", "0", "+0.0"]
        )
        evenings = [c.text for c in reversed(standings.ids.evenings.children)]
        self.check("the evening", evenings, ["Fri, Nov 20, 2026: 1 game, won by Cleo"])
        yield from self.shot("people_03_standings.png")
        self.tap_widget(standings.ids.back)
        yield 3
        self.check("back to New game", app.root.current, "new_game")
        app.stop()


def main() -> int:
    return scenario_main(Scenario, dice_seed=3)


if __name__ == "__main__":
    sys.exit(main())
