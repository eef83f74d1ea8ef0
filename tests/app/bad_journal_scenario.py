"""A touch-driven run of Home with bad journal files, started by ``test_bad_journal_ui.py`` in
its own process.

The app starts on a journal that is random bytes: Home must say what is wrong with the file
(its path included), keep New game off, and offer a new journal beside it or another file. It
then picks, through the file chooser, each bad file the test laid next to it (another program's
SQLite, a journal cut in half, our application id with other columns, a directory, a journal
whose rows are too deeply nested), and at last starts a new journal beside the damaged one and
a game in it. Every step is recorded as a check and photographed.

Usage: python bad_journal_scenario.py --journal DB --artifacts DIR --result JSON
"""

from __future__ import annotations

import sys
from pathlib import Path

from scenario_driver import ScenarioDriver, Step, scenario_main

BAD_FILES = ("other_program.sqlite3", "half.sqlite3", "other_columns.sqlite3", "a_folder")


class Scenario(ScenarioDriver):
    def steps(self) -> Step:
        app = self.app
        yield lambda: app.root is not None
        yield 5
        home = app.root.get_screen("home")
        damaged = Path(app.journal_path)
        self.problem("random bytes", damaged, "not a SQLite database")
        yield from self.shot("bad_journal_01_random_bytes.png")
        self.tap_widget(home.ids.new_game)  # off: nothing happens
        yield 2
        self.check("New game is off", app.root.current, "home")

        for name in BAD_FILES:
            self.tap_widget(home.ids.journal_choose)
            yield 3
            chooser = self.popup()
            self.check(
                f"{name}: the chooser opens in the journal's folder",
                chooser.folder,
                str(damaged.parent),
            )
            chooser.ids.chooser.selection = [str(damaged.parent / name)]
            yield 2
            self.tap_widget(chooser.ids.open)
            yield 3
            expected = {
                "other_program.sqlite3": "another program",
                "half.sqlite3": "damaged",
                "other_columns.sqlite3": "not whole",
                "a_folder": "directory",
            }[name]
            self.problem(name, damaged.parent / name, expected)
            yield from self.shot(f"bad_journal_02_{name.split('.')[0]}.png")

        self.tap_widget(home.ids.journal_beside)
        yield 3
        self.check("a new journal beside: no problem", app.journal_problem, "")
        self.check("the new journal's place", Path(app.journal_path).parent, damaged.parent)
        self.check("the new journal's name", Path(app.journal_path).name, "a_folder-new.sqlite3")
        self.check("New game is on again", home.ids.new_game.disabled, False)
        self.check(
            "message names the damaged file", str(damaged.parent / "a_folder") in app.message, True
        )
        yield from self.shot("bad_journal_03_new_journal.png")
        self.tap_widget(home.ids.new_game)
        yield 3
        self.check("New game opens", app.root.current, "new_game")

    def problem(self, name: str, path: Path, words: str) -> None:
        app = self.app
        home = app.root.get_screen("home")
        text = home.ids.journal_problem_text.text
        self.check(f"{name}: Home says the journal cannot be used", app.root.current, "home")
        self.check(f"{name}: it names the file", str(path) in text, True)
        self.check(f"{name}: it says what is wrong ({words})", words in text, True)
        self.check(f"{name}: New game is off", home.ids.new_game.disabled, True)
        self.check(f"{name}: the offers are shown", home.ids.journal_beside.height > 0, True)

    def popup(self):  # type: ignore[no-untyped-def]
        from kivy.core.window import Window

        from companion_app.app.screens.home import JournalChooser

        found = [w for w in Window.children if isinstance(w, JournalChooser)]
        assert found, "the file chooser did not open"
        return found[0]


def main() -> int:
    return scenario_main(Scenario, dice_seed=5)


if __name__ == "__main__":
    sys.exit(main())
