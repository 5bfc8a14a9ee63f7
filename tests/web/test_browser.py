"""The web app driven in headless Chromium as a person uses it: open each game, move by
clicking the board, see the engine answer, take back, load a saved game, run the
analysis, play a whole game of Othello. What the page shows is checked (the status line,
the move list, the pieces of the picture), not only what the server answers.

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them) and
Selenium; skipped with the reason otherwise. ``BITGAMES_SCREENSHOTS=DIR`` saves a
screenshot of each game's page in ``DIR`` (docs/images holds the README's).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
webdriver = pytest.importorskip("selenium.webdriver")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="no headless browser: install Debian's chromium and chromium-driver")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 "--window-size=1280,900", "--disable-gpu"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


def wait(condition: Callable[[], Any], timeout: float = 60.0, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}")
        time.sleep(0.05)


def page_state(driver: Any) -> Any:
    """What the page last drew (its ``game`` variable): moves, legal moves, ..."""
    return driver.execute_script("return game")


def status(driver: Any) -> str:
    return str(driver.find_element("id", "status").text)


def my_turn(driver: Any) -> Any:
    state = page_state(driver)
    return state and not state["thinking"] and (state["over"] or "(you)" in status(driver))


def click_square(driver: Any, square: str) -> None:
    """Click the middle of a square (on whatever is drawn there: a piece, a dot), as a
    person does."""
    from selenium.webdriver.common.action_chains import ActionChains

    target = driver.find_element("css selector",
                                 f'#board [data-square="{square}"]:is(.square, .point)')
    ActionChains(driver).move_to_element(target).click().perform()


def click_move(driver: Any, squares: list[str]) -> None:
    """Click the squares of a move on the board."""
    for square in squares:
        click_square(driver, square)


def shown_moves(driver: Any) -> list[str]:
    return list(driver.execute_script(
        "return [...document.querySelectorAll('#moves li')].map(li => li.textContent)"))


def answered(driver: Any, moves: int) -> Callable[[], bool]:
    """Has the page shown ``moves`` moves, and is it the person's turn (or the end)?"""
    return lambda: len(shown_moves(driver)) >= moves and bool(my_turn(driver))


def open_game(driver: Any, server: str, key: str) -> None:
    driver.get(f"{server}/?game={key}")
    wait(lambda: page_state(driver) and page_state(driver)["game"] == key, what="the game")
    wait(lambda: my_turn(driver), what="the first move")


GAMES = ["othello", "russian", "english", "go9", "leiserchess"]


@pytest.mark.parametrize("key", GAMES)
def test_move_by_clicks_take_back_load_and_analyse(server: str, browser: Any,
                                                   key: str) -> None:
    open_game(browser, server, key)
    assert browser.find_element("css selector", "#board svg").is_displayed()
    # the first two of a person's moves, each clicked on the board, each answered
    for turn in (1, 2):
        legal = page_state(browser)["legal"]
        paths = [m["squares"] for m in legal]
        unique = [m for m in legal if m["squares"] and paths.count(m["squares"]) == 1]
        click_move(browser, unique[-1]["squares"])
        wait(answered(browser, 2 * turn), what="the engine's answer")
    moves = shown_moves(browser)
    assert moves == page_state(browser)["moves"] and len(moves) == 4
    assert "to move (you)" in status(browser)
    if os.environ.get("BITGAMES_SCREENSHOTS"):
        folder = Path(os.environ["BITGAMES_SCREENSHOTS"])
        folder.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(folder / f"web-{key}.png"))
    record = browser.execute_script(
        "return fetch(document.getElementById('save').href).then(r => r.text())")
    browser.find_element("id", "undo").click()
    wait(lambda: len(shown_moves(browser)) == 2, what="the take-back")
    # the saved game, loaded back through the page
    box = browser.find_element("id", "record")
    box.clear()
    browser.execute_script("document.getElementById('record').value = arguments[0]", record)
    browser.find_element("css selector", "#load button").click()
    wait(lambda: shown_moves(browser) == moves, what="the loaded game")
    # stepping through: the position after the first move, then back to the game
    browser.find_elements("css selector", "#moves li")[0].click()
    wait(lambda: browser.find_element("id", "viewing").is_displayed(), what="the first position")
    assert f"after 1. {moves[0]}" in browser.find_element("id", "viewing-text").text
    first = browser.find_element("css selector", "#board svg").get_attribute("outerHTML")
    browser.find_element("id", "live-game").click()
    wait(lambda: not browser.find_element("id", "viewing").is_displayed(), what="the game")
    assert browser.find_element("css selector", "#board svg").get_attribute("outerHTML") != first
    browser.find_element("id", "analyse").click()
    wait(lambda: browser.execute_script(
        "return document.querySelectorAll('#analysis tbody tr').length") == 4,
        timeout=120, what="the analysis")
    assert browser.find_element("id", "message").text == ""


def test_an_illegal_click_and_a_typed_move_are_refused_with_the_reason(server: str,
                                                                       browser: Any) -> None:
    open_game(browser, server, "othello")
    click_square(browser, "a1")
    wait(lambda: "no move starts on a1" in browser.find_element("id", "message").text)
    typed = browser.find_element("id", "move-text")
    typed.send_keys("h8")
    browser.find_element("css selector", "#typed button").click()
    wait(lambda: "h8 is illegal" in browser.find_element("id", "message").text)
    assert shown_moves(browser) == []


@pytest.mark.slow  # some 20 s; clicks, undo and loading are checked in every game above
def test_a_whole_game_of_othello_by_clicks(server: str, browser: Any) -> None:
    open_game(browser, server, "othello")
    for _ in range(70):
        state = page_state(browser)
        if state["over"]:
            break
        clickable = [m for m in state["legal"] if m["squares"]]
        if clickable:
            click_move(browser, clickable[0]["squares"])
        else:  # a pass: the page offers it as a button
            browser.find_element("css selector", "#choices button").click()
        wait(answered(browser, len(state["moves"]) + 1), what="the engine's answer")
    state = page_state(browser)
    assert state["over"] and status(browser) == f"Game over: {state['result']}"
    black, white = (int(x) for x in state["result"].split("-"))
    svg = browser.find_element("css selector", "#board svg")
    assert len(svg.find_elements("css selector", ".disc.black")) == black
    assert len(svg.find_elements("css selector", ".disc.white")) == white


def test_a_rotation_is_chosen_from_buttons(server: str, browser: Any) -> None:
    open_game(browser, server, "leiserchess")
    rotations = [m for m in page_state(browser)["legal"] if m["squares"][0] == m["squares"][1]]
    square = rotations[0]["squares"][0]
    click_move(browser, [square, square])  # the same square twice: turn the piece
    buttons = wait(lambda: browser.find_elements("css selector", "#choices button"))
    names = [b.text for b in buttons]
    assert sorted(names) == sorted(m["move"] for m in rotations if m["squares"][0] == square)
    buttons[0].click()
    wait(lambda: shown_moves(browser)[:1] == [names[0]], what="the rotation played")


def test_watch_the_engines_and_stop_them(server: str, browser: Any) -> None:
    browser.get(f"{server}/?game=english")
    wait(lambda: page_state(browser), what="the page")
    browser.find_element("css selector", '#side option[value="watch"]').click()
    browser.find_element("id", "new").click()
    wait(lambda: len(shown_moves(browser)) >= 6, what="six engine moves")
    browser.find_element("id", "stop").click()
    # the search stopped plays its best move so far: the pause holds once it has
    wait(lambda: ("paused" in status(browser) and "thinking" not in status(browser))
         or page_state(browser)["over"], what="the pause")
    played = len(shown_moves(browser))
    time.sleep(1.0)
    assert len(shown_moves(browser)) == played


def test_an_opponent_given_as_a_player_spec(server: str, browser: Any) -> None:
    browser.get(f"{server}/?game=othello")
    wait(lambda: page_state(browser), what="the page")
    browser.find_element("css selector", '#side option[value="second"]').click()
    browser.find_element("id", "opponent").send_keys("level:1")
    browser.find_element("id", "new").click()
    wait(lambda: (page_state(browser) or {}).get("players", {}).get("first") == "level:1",
         what="the new game")
    wait(lambda: len(shown_moves(browser)) == 1 and my_turn(browser), what="its first move")
    assert "white to move (you)" in status(browser)
