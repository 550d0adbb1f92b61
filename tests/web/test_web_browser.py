"""The game in a real browser: headless Chromium (the system's) driven by Playwright.

One ladder service with the page runs on loopback for the whole module, on a temporary
SQLite database. A person opens the page (a practice game, no sign-in), signs up, wins
a ranked game by clicking (left, right, and the three chords), finds it on the ladder,
watches its replay, loses a practice game, plays hex, triangle and graph boards by
mouse and keyboard, uses the practice aids, and plays on a phone (a tap opens, a long
press flags). Screenshots land in ``$MINESWEEPER_WEB_SHOTS`` (or a temporary folder,
printed) to be looked at. The test knows the mines only from the server's database.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

import uvicorn  # noqa: E402
from ladder_helpers import config, sqlite_url  # noqa: E402

from minesweeper.board import Board  # noqa: E402
from minesweeper.ladder.app import create_app  # noqa: E402
from minesweeper.ladder.config import RateLimit  # noqa: E402
from minesweeper.ladder.schema import Game  # noqa: E402
from minesweeper.ladder.service import Ladder  # noqa: E402
from minesweeper.play.stats import bbbv  # noqa: E402
from minesweeper.topology import SquareTopology  # noqa: E402
from minesweeper.web import mount  # noqa: E402
from minesweeper.web.headless import ARGS, CHROMIUM  # noqa: E402

PASSWORD = "correct horse battery"

pytestmark = pytest.mark.skipif(
    shutil.which(CHROMIUM) is None and not Path(CHROMIUM).exists(),
    reason=f"no Chromium at {CHROMIUM} (.ci/run installs Debian's chromium)",
)


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = os.environ.get("MINESWEEPER_WEB_SHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("web-shots")
    path.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots in {path}")
    return path


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The ladder with the page, on a free loopback port, in a thread of this process."""
    # Every test of a module signs up from this one address: more than five an hour.
    signups = RateLimit(50, 3600)
    service = Ladder(
        config(sqlite_url(tmp_path_factory.mktemp("ladder")), sign_up_per_address=signups)
    )
    app = create_app(ladder_service=service, extensions=[mount])
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    uv = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not uv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield service, f"http://127.0.0.1:{port}/"
    uv.should_exit = True
    thread.join(10)
    service.close()


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=list(ARGS))
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    tab.goto(server[1])
    yield tab
    context.close()
    assert errors == []


# -- helpers ------------------------------------------------------------------------------


def settle(page) -> None:
    """Wait until every move sent has been answered and painted."""
    page.evaluate("() => window.minesweeper.game.queue")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done()))")


def point(page, cell: int) -> tuple[float, float]:
    x, y = page.evaluate(f"() => window.minesweeper.game.board.point({cell})")
    return x, y


def click(page, cell: int, button: str = "left") -> None:
    page.mouse.click(*point(page, cell), button=button)
    settle(page)


def both_buttons(page, cell: int) -> None:
    """A left+right chord: both buttons down on the cell, then both up."""
    page.mouse.move(*point(page, cell))
    page.mouse.down(button="left")
    page.mouse.down(button="right")
    page.mouse.up(button="right")
    page.mouse.up(button="left")
    settle(page)


def states(page) -> list[str]:
    return page.evaluate("() => window.minesweeper.game.board.states")


def game_id(page) -> str:
    return page.locator("#board").get_attribute("data-game")


def mines(service: Ladder, game: str) -> set[int]:
    """The oracle: the mines the server laid, from its database (the page never has them)."""
    with service.transaction() as db:
        row = db.get(Game, game)
        assert row is not None and row.board is not None
        return set(json.loads(row.board))


def new_game(page, **choices: str) -> str:
    before = game_id(page)
    for name, value in choices.items():
        page.select_option(f"#settings [name={name}]", value)
    page.click("#settings button[type=submit]")
    page.wait_for_function(
        "(before) => document.querySelector('#board').dataset.game !== before", arg=before
    )
    return game_id(page)


def sign_up(page, name: str) -> None:
    """Sign up from the page; a guest's game is left for a new one of the player's."""
    before = game_id(page)
    page.click("#account button")
    page.fill("#sign-form [name=name]", name)
    page.fill("#sign-form [name=password]", PASSWORD)
    page.click("#sign-up")
    page.wait_for_selector(f"#account .me:text('{name}')")
    page.wait_for_function(
        "(before) => document.querySelector('#board').dataset.game !== before", arg=before
    )


# -- the tests ----------------------------------------------------------------------------


@pytest.mark.slow  # 5 s or more end to end
def test_sign_up_win_ranked_see_the_ladder_watch_the_replay_and_lose(page, server, shots):
    service, _ = server
    # The page opens on a playable practice game, with no sign-in.
    page.wait_for_selector("#board .cell")
    assert page.locator("#board .cell").count() == 81
    assert "Guest" in page.locator("#account").inner_text()
    first = new_game(page)
    click(page, 40)
    assert states(page)[40] == "opened"
    page.screenshot(path=shots / "01-practice.png")
    # A reload goes on with the same game, as the server keeps it.
    shown = states(page)
    page.reload()
    page.wait_for_selector("#board .cell")
    assert game_id(page) == first
    assert states(page) == shown

    sign_up(page, "ada.l")
    game = new_game(page, mode="ranked", preset="beginner", rules="modern")
    assert game != first
    topology = SquareTopology(9, 9)
    click(page, 40)
    laid = mines(service, game)
    board = Board(topology, laid)
    counts = board.counts

    def closed_safe() -> list[int]:
        shown = states(page)
        return [c for c in topology.cells() if shown[c] == "closed" and c not in laid]

    # Three chords, one of each kind: flag a number's mines (right clicks), then chord it.
    chords = ["number", "middle", "both"]
    while chords and closed_safe():
        shown = states(page)
        target = next(
            (
                c
                for c in topology.cells()
                if shown[c] == "opened"
                and counts[c]
                and any(shown[o] == "closed" and o not in laid for o in topology.neighbours(c))
            ),
            None,
        )
        if target is None:
            click(page, closed_safe()[0])
            continue
        for other in topology.neighbours(target):
            if other in laid and states(page)[other] != "flagged":
                click(page, other, "right")
                assert states(page)[other] == "flagged"
        kind = chords.pop(0)
        if kind == "number":
            click(page, target)
        elif kind == "middle":
            click(page, target, "middle")
        else:
            both_buttons(page, target)
        shown = states(page)
        assert all(shown[o] != "closed" for o in topology.neighbours(target) if o not in laid)
    while closed_safe():
        click(page, closed_safe()[0])
    page.wait_for_selector("#board[data-state=won]")
    assert chords == []
    clicks = page.locator("[data-stat='Clicks']").inner_text()
    assert "3 chord" in clicks or "4 chord" in clicks, clicks
    assert page.locator("[data-stat='Result']").inner_text() == "Won"
    assert page.locator("[data-stat='3BV']").inner_text() == str(bbbv(board))
    assert page.locator("#counter").inner_text() == "000"
    page.wait_for_selector("#stats .entered")  # the place is asked of the ladder after the end
    assert "Entered #1 on the beginner ladder" in page.locator("#stats").inner_text()
    page.screenshot(path=shots / "02-ranked-win.png")

    # The ladder lists the win; its row opens the replay.
    page.click("text=See the ladder")
    row = page.locator("table.ladder tbody tr.row-link").first
    row.wait_for()
    assert "ada.l" in row.inner_text()
    page.screenshot(path=shots / "03-ladder.png")
    # The player's page: lifetime figures per category, the latest games.
    row.locator("a", has_text="ada.l").click()
    page.wait_for_selector("#player-page table.ladder tbody tr")
    lifetime = page.locator("#player-page table.ladder tbody tr").first.inner_text()
    # The history model's figures (minesweeper stats' arithmetic): games, won, left,
    # win rate, its 95% interval, streaks, best and median time...
    cells = lifetime.split("\t")
    assert cells[:7] == ["beginner", "1", "1", "0", "100.0%", "21%\u2013100%", "1/1"], lifetime
    assert cells[7] == cells[8] and cells[7].endswith(" s"), lifetime  # one win: best = median
    assert page.locator("#player-page li a").count() >= 1
    page.screenshot(path=shots / "03-player.png")
    # On a phone the figures' table scrolls within its box; the page itself does not.
    page.set_viewport_size({"width": 390, "height": 844})
    widths = page.evaluate(
        "() => { const box = document.querySelector('#player-page .table-scroll');"
        " return [document.documentElement.scrollWidth, box.scrollWidth, box.clientWidth]; }"
    )
    assert widths[0] <= 390 and widths[1] > widths[2], widths
    page.screenshot(path=shots / "03-player-phone.png")
    page.set_viewport_size({"width": 1366, "height": 768})
    page.go_back()
    # Back on the ladder, its old table shows until the new one is in: not to be clicked.
    page.wait_for_selector("#ladder-page:not([aria-busy])")
    row = page.locator("table.ladder tbody tr.row-link").first
    row.wait_for()
    row.locator("td").nth(2).click()
    page.wait_for_selector("#replay-page .replay-board .cell")
    total = int(page.locator("#replay-page input[type=range]").get_attribute("max"))
    assert total > 5
    page.select_option("#replay-page select", "8")
    page.click("#replay-page button.play")
    page.wait_for_function(f"() => document.querySelector('#replay-page').dataset.at === '{total}'")
    page.click("[aria-label='Step back']")
    assert page.locator("#replay-page").get_attribute("data-at") == str(total - 1)
    page.click("[aria-label='Step forward']")
    replay_states = page.evaluate(
        "() => [...document.querySelectorAll('#replay-page .cell')].map(c => c.classList[1])"
    )
    assert {c for c, s in enumerate(replay_states) if s == "opened"} == set(topology.cells()) - laid
    page.click("[aria-label='To the start']")
    page.click("[aria-label='Step forward']")
    page.click("[aria-label='Step forward']")
    page.click("[aria-label='Step forward']")
    page.screenshot(path=shots / "04-replay.png")

    # A practice game lost: the mine that went off, the other mines, a wrong flag.
    page.click("nav a[href='#/']")
    lost = new_game(page, mode="practice", preset="beginner", topology="square")
    click(page, 40)
    laid = mines(service, lost)
    wrong = next(c for c in topology.cells() if states(page)[c] == "closed" and c not in laid)
    click(page, wrong, "right")
    boom = min(laid)
    click(page, boom)
    page.wait_for_selector("#board[data-state=lost]")
    shown = states(page)
    assert shown[boom] == "exploded" and shown[wrong] == "wrong_flag"
    assert {c for c in laid if shown[c] == "mine"} == laid - {boom}
    assert page.locator("[data-stat='Result']").inner_text() == "Lost"
    page.screenshot(path=shots / "05-loss.png")


@pytest.mark.parametrize("topology", ["hex", "triangle", "graph"])
def test_other_boards_draw_their_shapes_and_play_by_mouse_and_keyboard(
    page, server, shots, topology
):
    service, _ = server
    page.wait_for_selector("#board .cell")
    game = new_game(page, mode="practice", preset="beginner", topology=topology)
    cells = page.locator("#board .cell")
    size = cells.count()
    shape = "circle" if topology == "graph" else "use"
    assert page.locator("#board .cell .face").count() == size
    assert page.locator(f"#board .cell > {shape}.face").count() == size
    if topology == "graph":
        assert page.locator("#board .links line").count() > size
    middle = size // 2
    click(page, middle)
    assert states(page)[middle] == "opened"
    laid = mines(service, game)
    closed = [c for c, s in enumerate(states(page)) if s == "closed"]
    click(page, closed[0], "right")
    assert states(page)[closed[0]] == "flagged"
    assert "flagged" in cells.nth(closed[0]).get_attribute("aria-label")
    if topology == "hex":
        # With ? marks on, a second right click gives a ?, a third clears it.
        page.check("#settings [name=marks]")
        click(page, closed[0], "right")
        assert states(page)[closed[0]] == "closed"
        assert "question mark" in cells.nth(closed[0]).get_attribute("aria-label")
        assert cells.nth(closed[0]).locator("text.question").count() == 1
        click(page, closed[0], "right")
        assert "hidden" in cells.nth(closed[0]).get_attribute("aria-label")
        page.uncheck("#settings [name=marks]")
    # The keyboard: focus a cell, move with the arrows, f flags, space opens.
    cells.nth(middle).focus()
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("() => Number(document.activeElement.dataset.cell)")
    assert focused != middle
    before = states(page)[focused]
    page.keyboard.press("f")
    settle(page)
    if before == "closed":
        assert states(page)[focused] == "flagged"
    safe = next(c for c, s in enumerate(states(page)) if s == "closed" and c not in laid)
    cells.nth(safe).focus()
    page.keyboard.press("Space")
    settle(page)
    assert states(page)[safe] == "opened"
    roles = page.eval_on_selector_all("#board .cell", "cs => cs.map(c => c.getAttribute('role'))")
    assert set(roles) == {"gridcell"}
    # No context menu on the board.
    prevented = page.evaluate(
        "() => !document.querySelector('#board .cell').dispatchEvent("
        "new MouseEvent('contextmenu', {bubbles: true, cancelable: true}))"
    )
    assert prevented
    page.screenshot(path=shots / f"06-{topology}.png")


def test_names_and_texts_are_shown_as_text_never_run(page):
    page.wait_for_selector("#board .cell")
    html = page.evaluate(
        "async () => { const { el } = await import('/static/dom.js');"
        " return el('td', {}, '<img src=x onerror=alert(1)>').innerHTML; }"
    )
    assert html == "&lt;img src=x onerror=alert(1)&gt;"


def test_practice_aids_are_marked_and_shown(page, shots):
    page.wait_for_selector("#board .cell")
    new_game(page, mode="practice", preset="intermediate", topology="square")
    assert page.locator("#aids").is_visible()
    assert "practice only" in page.locator("#aids").inner_text()
    page.click("[data-aid=hint]")
    settle(page)
    page.click("[data-aid=computer]")
    settle(page)
    assert "opened" in states(page)
    page.click("[data-aid=odds]")
    page.wait_for_selector("#board .overlay .odds")
    assert page.locator("#board .overlay .odds").count() == states(page).count("closed")
    page.screenshot(path=shots / "07-odds.png")
    # F2 deals a new game.
    before = game_id(page)
    page.keyboard.press("F2")
    page.wait_for_function(
        "(before) => document.querySelector('#board').dataset.game !== before", arg=before
    )
    assert "opened" not in states(page)
    page.select_option("#settings [name=mode]", "ranked")
    assert not page.locator("#aids").is_visible()


@pytest.mark.slow  # 2.5 s or more end to end
def test_a_phone_taps_to_open_and_long_presses_to_flag(browser, server, shots):
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        device_scale_factor=2,
    )
    page = context.new_page()
    page.goto(server[1])
    page.wait_for_selector("#board .cell")
    new_game(page, mode="practice", preset="beginner", topology="square")
    box = page.locator("#board svg").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    page.touchscreen.tap(*point(page, 40))
    settle(page)
    assert states(page)[40] == "opened"
    closed = next(c for c, s in enumerate(states(page)) if s == "closed")
    x, y = point(page, closed)
    cdp = context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    time.sleep(0.7)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    settle(page)
    assert states(page)[closed] == "flagged"
    page.screenshot(path=shots / "08-phone.png")
    context.close()


def test_an_expert_board_fits_a_laptop_screen(page, shots):
    page.wait_for_selector("#board .cell")
    new_game(page, mode="practice", preset="expert", topology="square")
    box = page.locator("#board svg").bounding_box()
    assert box["x"] + box["width"] <= 1366
    assert box["y"] + box["height"] <= 768
    assert box["width"] / 30 >= 18  # cells of at least 18 pixels
    click(page, 8 * 30 + 15)
    page.screenshot(path=shots / "09-expert.png")


@pytest.mark.slow  # 2.5 s or more end to end
def test_a_lost_connection_is_said_plainly_and_the_game_is_drawn_again(browser, server, shots):
    # Its own page: the aborted requests below are console errors, on purpose.
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.goto(server[1])
    page.wait_for_selector("#board .cell")
    game = new_game(page, mode="practice", preset="beginner", topology="square")
    click(page, 40)
    mined = mines(server[0], game)  # laid at the first open
    # Closed safe cells next to a mine: each opens alone, and the game goes on.
    around = SquareTopology(9, 9).neighbours
    safe = [
        c
        for c, s in enumerate(states(page))
        if s == "closed" and c not in mined and mined & set(around(c))
    ]
    assert len(safe) >= 2
    before = states(page)

    # The server is down: the move never arrives.
    page.route("**/api/**", lambda route: route.abort())
    click(page, safe[0])
    assert page.locator("#status").inner_text() == (
        "The server can't be reached. Nothing is lost: try again once it is back."
    )
    assert states(page) == before
    page.wait_for_timeout(1200)  # the timer runs on
    page.screenshot(path=shots / "09-unreachable.png")

    # The move arrives and is made, but its answer is lost: the page draws the game again
    # as the server has it, with that cell open.
    def made_then_lost(route) -> None:
        route.fetch()
        route.abort()

    page.unroute("**/api/**")
    page.route("**/moves", made_then_lost)
    click(page, safe[0])
    page.wait_for_function(f"() => window.minesweeper.game.board.states[{safe[0]}] === 'opened'")
    assert page.locator("#status").inner_text() == "The game is shown again as the server keeps it."
    assert game_id(page) == game
    page.unroute("**/moves")

    # Back again: the next move is made with the right move number.
    later = next(c for c in safe if states(page)[c] == "closed")
    click(page, later)
    assert states(page)[later] == "opened"
    assert page.locator("#status").inner_text() == ""  # no error left standing
    context.close()
