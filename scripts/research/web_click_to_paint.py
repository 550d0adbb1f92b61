"""Click-to-paint time of the browser game on expert, measured in the page.

Usage: ``python scripts/research/web_click_to_paint.py [--games N] [--clicks K] [--preset P]
[--chromium PATH]``

Serves the ladder with the page on loopback (``minesweeper ladder serve`` on a temporary
SQLite database, its own process), opens it in headless Chromium (the system's, driven
by Playwright), and
plays ``--games`` practice games of ``--preset`` (expert) as a guest: each game's first
click, then up to ``--clicks`` left clicks on closed safe cells (the mines read from the
server's database, so every click is answered with an opening and a paint). The page
times each click itself (Performance API, the ``click-to-paint`` measures: from the
click to the frame after the server's answer is drawn). Prints the median with a 95%
interval (order statistics) and the 90th percentile, in milliseconds.

It is a benchmark, not a test: run it on a quiet machine, e.g. ``nice -n 10``.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from minesweeper.intervals import median_interval
from minesweeper.web.headless import ARGS, CHROMIUM


def serve(folder: Path) -> tuple[object, subprocess.Popen, str]:
    """`minesweeper ladder serve` on a free loopback port, in a process of its own (a server
    thread in this process would share its interpreter lock with the browser's driver)."""
    from minesweeper.ladder.config import LadderConfig
    from minesweeper.ladder.service import Ladder

    url = f"sqlite:///{folder / 'ladder.sqlite3'}"
    service = Ladder(LadderConfig(database_url=url))  # migrates; the oracle reads through it
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "minesweeper", "ladder", "serve", "--database", url]
    server = subprocess.Popen([*command, "--port", str(port)], stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    server.stdout.readline()  # "ladder on http://...": it listens
    address = f"http://127.0.0.1:{port}/"
    for _ in range(200):
        try:
            urllib.request.urlopen(address + "api/health", timeout=1)
            break
        except OSError:
            time.sleep(0.05)
    return service, server, address


def mines_of(service, game_id: str) -> set[int]:
    from minesweeper.ladder.schema import Game

    with service.transaction() as db:
        row = db.get(Game, game_id)
        return set(json.loads(row.board)) if row is not None and row.board else set()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--clicks", type=int, default=40)
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--chromium", default=CHROMIUM)
    options = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        service, server, url = serve(Path(folder))
        times: list[float] = []
        answers: list[float] = []
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=options.chromium, args=list(ARGS))
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            page.goto(url)
            page.wait_for_selector("#board .cell")
            page.select_option("#settings [name=preset]", options.preset)
            for _ in range(options.games):
                before = page.locator("#board").get_attribute("data-game")
                page.click("#settings button[type=submit]")
                page.wait_for_function(
                    "(b) => document.querySelector('#board').dataset.game !== b", arg=before
                )
                game_id = page.locator("#board").get_attribute("data-game")
                page.evaluate("() => performance.clearMeasures()")
                size = page.locator("#board .cell").count()
                first = size // 2
                page.mouse.click(*page.evaluate(f"() => minesweeper.game.board.point({first})"))
                page.evaluate("() => minesweeper.game.queue")
                mines = mines_of(service, game_id)
                for _ in range(options.clicks):
                    states = page.evaluate("() => minesweeper.game.board.states")
                    if page.evaluate("() => minesweeper.game.over"):
                        break
                    closed = [c for c, s in enumerate(states) if s == "closed" and c not in mines]
                    if not closed:
                        break
                    cell = closed[len(closed) // 2]
                    point = page.evaluate(f"() => minesweeper.game.board.point({cell})")
                    page.mouse.click(*point)
                    page.evaluate("() => minesweeper.game.queue")
                page.wait_for_timeout(50)
                times += page.evaluate(
                    "() => performance.getEntriesByName('click-to-paint').map(m => m.duration)"
                )
                answers += page.evaluate(
                    "() => performance.getEntriesByName('click-to-answer').map(m => m.duration)"
                )
            browser.close()
        server.terminate()
        server.wait(10)
        service.close()
    if not times:
        print("no clicks measured", file=sys.stderr)
        return 1
    low, high = median_interval(times)
    ninetieth = statistics.quantiles(times, n=10)[-1] if len(times) > 1 else times[0]
    print(
        f"click-to-paint on {options.preset}, {len(times)} clicks in {options.games} games: "
        f"median {statistics.median(times):.1f} ms [95% {low:.1f}, {high:.1f}], "
        f"90th percentile {ninetieth:.1f} ms; of which the server's answer (click to the "
        f"answer's arrival) median {statistics.median(answers):.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
