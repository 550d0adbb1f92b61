"""The page puts what an address names into the API's addresses encoded: a ladder link
crafted to smuggle a query (``?players=bots``) asks for the category it names, nothing else.
In headless Chromium, against the service on loopback."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

import uvicorn  # noqa: E402
from ladder_helpers import config, sqlite_url  # noqa: E402

from minesweeper.ladder.app import create_app  # noqa: E402
from minesweeper.ladder.service import Ladder  # noqa: E402
from minesweeper.web import mount  # noqa: E402
from minesweeper.web.headless import ARGS, CHROMIUM  # noqa: E402

pytestmark = pytest.mark.skipif(
    shutil.which(CHROMIUM) is None and not Path(CHROMIUM).exists(),
    reason=f"no Chromium at {CHROMIUM} (.ci/run installs Debian's chromium)",
)


@pytest.fixture
def address(tmp_path):
    service = Ladder(config(sqlite_url(tmp_path)))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    app = create_app(ladder_service=service, extensions=[mount])
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}/"
    server.should_exit = True
    thread.join(10)
    service.close()


def test_a_crafted_ladder_link_cannot_add_to_the_apis_query(address) -> None:
    with playwright_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=list(ARGS))
        page = browser.new_page()
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url))
        crafted = "expert%2Fmodern%3Fplayers%3Dbots%26board%3Dwin-rate%23"
        page.goto(f"{address}#/ladder/{crafted}/modern/time/all")
        page.wait_for_selector("#ladder-page:not([aria-busy])")
        browser.close()
    ladders = [url for url in asked if "/api/ladders/" in url]
    assert ladders, asked
    assert all("players=bots" not in url and "board=win-rate" not in url for url in ladders)
    assert all("/api/ladders/expert%2Fmodern%3Fplayers" in url for url in ladders)
