"""Two seats' pages in a real browser (Debian's headless Chromium driven by Selenium), against
the headless table server: each page shows only its own cards, the discard on a 7 is answered
by tapping on the phone, and the tablet's game moves on. Screenshots go to ``artifacts/``."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from phones_helpers import ServeProcess, TcpRelay, seven_discard, write_journal_game
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from companion_app.i18n import SOURCE, catalogue
from companion_app.journal import Journal
from companion_app.rules.actions import DiscardCard
from companion_app.rules.cards import Card, Track
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.messages import msg
from companion_app.rules.prompts import PromptKind
from companion_app.rules.words import hex_words

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=412,1400",
)
WAIT_S = 30
"""A guard against a hung browser, not a timed assertion."""


def _tool(*names: str) -> str:
    for name in names:
        found = shutil.which(name) or (
            f"/usr/bin/{name}" if Path(f"/usr/bin/{name}").exists() else None
        )
        if found:
            return found
    pytest.fail(f"{names[0]} is missing: apt-get install chromium chromium-driver (make test does)")


def start_browser(profile: Path, languages: str = "en-US,en") -> WebDriver:
    """Headless Chromium with its own profile, asking for ``languages`` (Accept-Language)."""
    options = Options()
    options.binary_location = _tool("chromium", "chromium-browser")
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--accept-lang={languages}")
    options.add_experimental_option("prefs", {"intl.accept_languages": languages})
    service = Service(executable_path=_tool("chromedriver"))
    return webdriver.Chrome(options=options, service=service)


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[WebDriver]:
    driver = start_browser(tmp_path / "profile")
    try:
        yield driver
    finally:
        driver.quit()


def hand_shown(driver: WebDriver) -> dict[str, int]:
    """The cards on the page, read in one go (the page may redraw at any moment)."""
    shown = driver.execute_script(
        "var r = {}; document.querySelectorAll('[data-card]').forEach(function (e) {"
        " r[e.getAttribute('data-card')] = +e.querySelector('.n').textContent; }); return r;"
    )
    return {str(k): int(v) for k, v in shown.items()}


def buttons(driver: WebDriver) -> list[WebElement]:
    """The decision's answer buttons (none when the seat decides nothing)."""
    return list(driver.find_elements(By.CSS_SELECTOR, "#decision button"))


def tap_a_choice(driver: WebDriver) -> bool:
    """Tap the first enabled button of the decision; False if none is there yet."""
    for button in driver.find_elements(By.CSS_SELECTOR, "#decision button"):
        if button.is_enabled():
            button.click()
            return True
    return False


def link(driver: WebDriver) -> str:
    """The connection badge: "live", "connecting…", "reconnecting…", "not paired"..."""
    return str(driver.find_element(By.ID, "link").text)


def english_left(driver: WebDriver, code: str, names: tuple[str, ...]) -> list[str]:
    """English ids on a page in language ``code`` (a track's, a die face's, a message's):
    :meth:`Catalogue.english_left` on the whole page's text, the players' names allowed."""
    return catalogue(code).english_left(driver.find_element(By.TAG_NAME, "body").text, names)


def live(driver: WebDriver) -> bool:
    return driver.find_element(By.ID, "link").text == "live" and bool(hand_shown(driver))


def test_two_phones_see_their_own_cards_and_answer_a_seven_on_the_phone(
    browser: WebDriver, tmp_path: Path, artifacts_dir: Path
) -> None:
    journal_path = tmp_path / "j.db"
    game = write_journal_game(journal_path, seven_discard)
    seat = game.prompt.player
    other = next(
        q
        for q in range(game.player_count)
        if q != seat and game.card_count(q) and game.hands[q] != game.hands[seat]
    )
    count = game.prompt.count
    before = len(game.history)
    wait = WebDriverWait(browser, WAIT_S, ignored_exceptions=[StaleElementReferenceException])

    with ServeProcess(journal_path, 1) as serve:
        browser.get(serve.seats[other][1])
        other_tab = browser.current_window_handle
        wait.until(live)
        assert hand_shown(browser) == {c.label: game.hands[other][c] for c in Card}
        assert not browser.find_element(By.ID, "decision").is_displayed()
        # The forecast (§7) and the castles (§9), in the table's section, from the rules core.
        forecast = game.barbarian_forecast()
        barbarians = browser.find_element(By.ID, "barbarians").text
        assert f"if they came now: {forecast.strength} against {forecast.total_defence}" in (
            barbarians
        )
        castles = browser.find_element(By.ID, "castles").text.splitlines()
        assert [line.split(" · ")[0] for line in castles] == [
            "Yellow castle (trade)",
            "Blue castle (politics)",
            "Green castle (science)",
        ]
        # Where the robber stands (§8); an island has no pirate.
        place = hex_words(game, game.robber_hex)
        robber = catalogue(SOURCE).render(msg("Robber: {place}", place=place))
        assert browser.find_element(By.ID, "robber").text == robber
        browser.save_screenshot(str(artifacts_dir / "phone_other_seat.png"))

        browser.switch_to.new_window("tab")
        browser.get(serve.seats[seat][1])
        wait.until(live)
        assert hand_shown(browser) == {c.label: game.hands[seat][c] for c in Card}
        assert hand_shown(browser) != {c.label: game.hands[other][c] for c in Card}
        decision = browser.find_element(By.ID, "decision")
        assert decision.is_displayed() and "discard" in decision.text
        assert serve.status()["waiting"] == f"Waiting for {serve.seats[seat][0]}'s phone"
        browser.save_screenshot(str(artifacts_dir / "phone_seven_discard.png"))

        # Tap a discard button per card to give up; each tap waits for the next page.
        for i in range(count):
            total = sum(hand_shown(browser).values())
            wait.until(tap_a_choice)
            assert serve.expect("APPLIED ") == f"APPLIED {before + i} phone {seat} discard"
            wait.until(lambda d, t=total: sum(hand_shown(d).values()) == t - 1)
        wait.until(lambda d: not d.find_element(By.ID, "decision").is_displayed())
        browser.save_screenshot(str(artifacts_dir / "phone_after_discard.png"))

        # The tablet's game went on: its prompt is no longer this seat's discard.
        status = serve.status()
        assert status["moves"] == before + count
        assert not status["prompt"].startswith(f"{serve.seats[seat][0]}: discard")

        # The other phone followed live: its log shows the discard, its hand is unchanged.
        browser.switch_to.window(other_tab)
        wait.until(lambda d: "discard" in d.find_element(By.ID, "log").text)
        assert hand_shown(browser) == {c.label: game.hands[other][c] for c in Card}

    with Journal(journal_path, create=False) as journal:
        history = journal.open_game(1).game.history
    assert [type(a) for a in history[before:]] == [DiscardCard] * count


def test_a_page_reconnects_by_itself_after_the_network_drops(
    browser: WebDriver, tmp_path: Path, artifacts_dir: Path
) -> None:
    journal_path = tmp_path / "j.db"
    game = write_journal_game(journal_path, seven_discard)
    seat = game.prompt.player
    wait = WebDriverWait(browser, WAIT_S, ignored_exceptions=[StaleElementReferenceException])

    with ServeProcess(journal_path, 1) as serve:
        url = serve.seats[seat][1]
        relay = TcpRelay(int(url.split(":")[2].split("/")[0]))
        try:
            browser.get(relay.url(url))
            wait.until(live)
            relay.cut()  # the phone's Wi-Fi is gone
            wait.until(lambda d: link(d) == "reconnecting…")
            assert not any(b.is_enabled() for b in buttons(browser))  # no answer without table
            assert serve.status()["waiting"] == ""  # the tablet sees the phone is gone
            browser.save_screenshot(str(artifacts_dir / "phone_reconnecting.png"))
            relay.mend()  # and back
            wait.until(lambda d: link(d) == "live")
            wait.until(lambda d: bool(buttons(d)) and all(b.is_enabled() for b in buttons(d)))
            # The tablet answers the discard itself; the page that came back follows.
            total = sum(hand_shown(browser).values())
            card = next(c for c in Card if game.hands[seat][c])
            serve.send(f'ACTION {{"type": "discard", "player": {seat}, "card": "{card.label}"}}')
            assert serve.expect("APPLIED ").endswith(" tablet discard")
            wait.until(lambda d: sum(hand_shown(d).values()) == total - 1)
        finally:
            relay.close()


def test_a_page_back_from_sleep_finds_its_dead_connection_and_reconnects(
    browser: WebDriver, tmp_path: Path
) -> None:
    journal_path = tmp_path / "j.db"
    game = write_journal_game(journal_path, seven_discard)
    seat = game.prompt.player
    wait = WebDriverWait(browser, WAIT_S, ignored_exceptions=[StaleElementReferenceException])

    with ServeProcess(journal_path, 1) as serve:
        url = serve.seats[seat][1]
        relay = TcpRelay(int(url.split(":")[2].split("/")[0]))
        try:
            browser.get(relay.url(url))
            wait.until(live)
            relay.freeze()  # the connection looks open to the page but carries nothing
            total = sum(hand_shown(browser).values())
            card = next(c for c in Card if game.hands[seat][c])
            serve.send(f'ACTION {{"type": "discard", "player": {seat}, "card": "{card.label}"}}')
            assert serve.expect("APPLIED ").endswith(" tablet discard")
            assert sum(hand_shown(browser).values()) == total  # the page did not hear of it
            browser.execute_script("window.dispatchEvent(new Event('online'))")  # it wakes up
            wait.until(lambda d: sum(hand_shown(d).values()) == total - 1)
            assert link(browser) == "live"
        finally:
            relay.close()


def test_two_phones_read_the_table_in_two_languages_and_a_choice_is_remembered(
    tmp_path: Path, artifacts_dir: Path
) -> None:
    journal_path = tmp_path / "j.db"
    game = write_journal_game(journal_path, seven_discard)
    polish = start_browser(tmp_path / "polish", "pl-PL,pl")
    other = start_browser(tmp_path / "other", "en-US,en")
    try:
        with ServeProcess(journal_path, 1) as serve:
            polish.get(serve.seats[0][1])
            other.get(serve.seats[1][1])
            for driver in (polish, other):
                WebDriverWait(driver, WAIT_S).until(lambda d: bool(hand_shown(d)))
            WebDriverWait(polish, WAIT_S).until(lambda d: link(d) == "połączono")
            assert polish.find_element(By.TAG_NAME, "html").get_attribute("lang") == "pl"
            total = game.card_count(0)
            assert polish.find_element(By.ID, "hand-total").text.startswith(_polish_cards(total))
            WebDriverWait(other, WAIT_S).until(lambda d: link(d) == "live")

            # The second phone picks German on its page: the page comes back in German, and
            # so does the seat's bare address later (the choice is kept on the phone).
            other.execute_script(
                "var s = document.getElementById('lang'); s.value = 'de';"
                "s.dispatchEvent(new Event('change'));"
            )
            WebDriverWait(other, WAIT_S).until(lambda d: link(d) == "verbunden")
            other.get(serve.seats[1][1])
            WebDriverWait(other, WAIT_S).until(lambda d: link(d) == "verbunden")
            assert other.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"
            headings = [h.text for h in other.find_elements(By.TAG_NAME, "h2")]
            assert "Fortschrittskarten" in headings
            assert "Gelbe Burg (Handel)" in other.find_element(By.ID, "castles").text
            # The Polish phone is still Polish.
            polish.refresh()
            WebDriverWait(polish, WAIT_S).until(lambda d: link(d) == "połączono")
            polish.save_screenshot(str(artifacts_dir / "phone_polish.png"))
            other.save_screenshot(str(artifacts_dir / "phone_german.png"))
            # No English id on either page: the tracks and the event die in their words.
            names = game.config.names
            assert english_left(polish, "pl", names) == []
            assert english_left(other, "de", names) == []
            improvements = polish.find_element(By.ID, "improvements").text
            assert catalogue("pl").render(Track.TRADE.words) in improvements
    finally:
        polish.quit()
        other.quit()


def _polish_cards(n: int) -> str:
    """1 karta, 2–4 karty, 5–21 kart, 22–24 karty (Polish counts)."""
    if n == 1:
        return "1 karta"
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return f"{n} karty"
    return f"{n} kart"


def a_turn_after_the_roll(game: Game) -> bool:
    """The player on turn, after the roll, from turn 4 on."""
    return game.turn >= 4 and game.prompt.kind is PromptKind.TURN


def test_the_seat_on_turn_reads_why_not_in_its_language(
    tmp_path: Path, artifacts_dir: Path
) -> None:
    journal_path = tmp_path / "j.db"
    game = write_journal_game(journal_path, a_turn_after_the_roll)
    seat = game.active
    waiting = next(q for q in range(game.player_count) if q != seat)
    reasons = game.why_not_now(seat)
    assert reasons
    german = catalogue("de")
    title, reason = reasons[0]
    driver = start_browser(tmp_path / "german", "de-DE,de")
    try:
        with ServeProcess(journal_path, 1) as serve:
            driver.get(serve.seats[waiting][1])
            WebDriverWait(driver, WAIT_S).until(lambda d: link(d) == "verbunden")
            assert not driver.find_element(By.ID, "why-not-card").is_displayed()
            driver.get(serve.seats[seat][1])
            WebDriverWait(driver, WAIT_S).until(lambda d: link(d) == "verbunden")
            card = driver.find_element(By.ID, "why-not-card")
            assert card.is_displayed()
            # One tap opens it.
            card.find_element(By.TAG_NAME, "summary").click()
            rows = driver.find_element(By.ID, "why-not").text
            assert f"{german.render(title)}: {german.render(reason.text)}" in rows
            driver.save_screenshot(str(artifacts_dir / "phone_why_not_german.png"))
            assert english_left(driver, "de", game.config.names) == []
    finally:
        driver.quit()


def test_the_seat_deciding_asks_the_expert_on_its_phone_in_its_language(
    tmp_path: Path, artifacts_dir: Path
) -> None:
    """A game with a seat the tablet plays: the person placing first taps "What would the
    Expert do?" on a Polish phone and reads the bot's Expert's choice and reason there; the
    next seat's page has no such button."""
    journal_path = tmp_path / "j.db"
    config = GameConfig.for_players(4, seed=7)
    players = list(config.players)
    players[3] = replace(players[3], bot="expert")
    with Journal(journal_path) as journal:
        journal.new_game(replace(config, players=tuple(players)))
    polish = catalogue("pl")
    driver = start_browser(tmp_path / "polish", "pl-PL,pl")
    try:
        with ServeProcess(journal_path, 1) as serve:
            wait = WebDriverWait(driver, WAIT_S)
            driver.get(serve.seats[1][1])
            wait.until(lambda d: link(d) == polish.render(msg("live")))
            assert not driver.find_element(By.ID, "hint-card").is_displayed()
            driver.get(serve.seats[0][1])
            wait.until(lambda d: d.find_element(By.ID, "hint-card").is_displayed())
            ask = driver.find_element(By.ID, "hint-ask")
            assert ask.text == polish.render(msg("What would the Expert do?"))
            ask.click()
            prefix = polish.gettext("The Expert would: {action}. {reason}").split("{")[0]
            wait.until(lambda d: d.find_element(By.ID, "hint-answer").text.startswith(prefix))
            assert ask.is_enabled()
            driver.save_screenshot(str(artifacts_dir / "phone_expert_hint_polish.png"))
            assert serve.status()["moves"] == 0  # a hint changes nothing
    finally:
        driver.quit()
