"""A New Shores seat's page in a real browser (headless Chromium, as ``test_phone_browser.py``):
in German and in Vietnamese, its ships, where the robber and the pirate stand, and the gold
field's choices (§13.5) tapped one by one on the phone, no English word left on the page.
Screenshots go to ``artifacts/``."""

from __future__ import annotations

from pathlib import Path

import pytest
from phones_helpers import ServeProcess, play_until
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait
from test_phone_browser import WAIT_S, buttons, english_left, hand_shown, link, start_browser

from companion_app.i18n import catalogue
from companion_app.journal import Journal
from companion_app.phones.view import robber_and_pirate
from companion_app.rules.actions import TakeGold
from companion_app.rules.cards import RESOURCES
from companion_app.rules.game import Game
from companion_app.rules.messages import msg, nmsg
from companion_app.rules.prompts import Prompt, PromptKind
from companion_app.rules.registry import describe_prompt
from tests.rules.sea.ck_builders import gold_on_the_main_island


def a_gold_choice_of_several(game: Game) -> bool:
    """After the setup, a seat with ships chooses 2 or more resources from a gold field."""
    p = game.prompt
    return (
        p.kind is PromptKind.GOLD
        and p.count >= 2
        and not game.in_setup
        and bool(game.ships_of[p.player])
    )


def gold_words(driver: WebDriver) -> str:
    return str(driver.find_element(By.ID, "decision").text)


@pytest.mark.parametrize(("code", "accept"), [("de", "de-DE,de"), ("vi", "vi-VN,vi")])
def test_s13_5_a_phone_taps_its_gold_choices_and_sees_its_ships_in_its_language(
    tmp_path: Path, artifacts_dir: Path, code: str, accept: str
) -> None:
    config, actions = play_until(a_gold_choice_of_several, config_for=gold_on_the_main_island)
    journal_path = tmp_path / "j.db"
    with Journal(journal_path) as journal:
        session = journal.new_game(config)
        for action in actions:
            session.apply(action)
        game = session.game
    seat, count = game.prompt.player, game.prompt.count
    before = len(game.history)
    held = [c for c in RESOURCES if game.bank[c]]
    words = catalogue(code)

    def choose(owed: int) -> str:
        """The decision's one heading: the rules core's words for the choices still owed."""
        return words.render(describe_prompt(Prompt(PromptKind.GOLD, seat, owed), config.names))

    assert choose(count).startswith(f"{config.names[seat]}: ")
    driver = start_browser(tmp_path / code, accept)
    wait = WebDriverWait(driver, WAIT_S, ignored_exceptions=[StaleElementReferenceException])
    try:
        with ServeProcess(journal_path, 1) as serve:
            driver.get(serve.seats[seat][1])
            live = words.render(msg("live"))
            wait.until(lambda d: link(d) == live and bool(buttons(d)))
            labels = [b.text for b in buttons(driver)]
            # One heading and the choices: no second line restating the count.
            assert gold_words(driver).split("\n") == [choose(count), *labels]
            assert [b.get_attribute("data-action") for b in buttons(driver)] == ["take_gold"] * len(
                held
            )
            assert labels == [words.render(msg("Take {card}", card=c.counted(1))) for c in held]
            sea = driver.find_element(By.ID, "sea-card")
            assert sea.is_displayed()
            ships = len(game.ships_of[seat])
            on_board = words.render(
                nmsg("{count} ship on the board", "{count} ships on the board", ships)
            )
            left = words.render(msg("{left} of {total} still to build", left=15 - ships, total=15))
            assert on_board in sea.text and left in sea.text
            # Where the robber and the pirate stand (§13.4), in the table's section.
            where = [words.render(w) for w in robber_and_pirate(game).values() if w is not None]
            assert len(where) == 2
            assert driver.find_element(By.ID, "robber").text == " · ".join(where)
            driver.save_screenshot(str(artifacts_dir / f"phone_gold_{code}.png"))
            driver.execute_script("window.scrollBy(0, 700)")
            driver.save_screenshot(str(artifacts_dir / f"phone_sea_{code}.png"))
            assert english_left(driver, code, config.names) == []
            driver.execute_script("window.scrollTo(0, 0)")  # the decision under the header

            # One tap a choice: the first resource the bank holds, each time.
            first = held[0]
            start = hand_shown(driver)[first.label]
            for i in range(count):
                asked = choose(count - i)
                wait.until(lambda d, w=asked: w in gold_words(d))
                wait.until(lambda d: bool(buttons(d)) and buttons(d)[0].is_enabled())
                buttons(driver)[0].click()
                assert serve.expect("APPLIED ") == f"APPLIED {before + i} phone {seat} take_gold"
                wait.until(lambda d, n=start + i + 1: hand_shown(d)[first.label] == n)
            wait.until(lambda d: not d.find_element(By.ID, "decision").is_displayed())
            assert serve.status()["moves"] == before + count
    finally:
        driver.quit()
    with Journal(journal_path, create=False) as journal:
        history = journal.open_game(1).game.history
    assert history[before:] == [TakeGold(seat, first)] * count
