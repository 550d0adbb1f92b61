"""`minesweeper play --web`: the browser game on loopback, from one command."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import urllib.request

from click.testing import CliRunner
from ctrl_c import reached_by_ctrl_c

from minesweeper.cli import main
from minesweeper.play.session import Settings
from minesweeper.topology import HexTopology
from minesweeper.web.local import page_address

#: Seconds that only bound a hang: a loaded machine may take minutes to start the server.
PATIENCE = 300


def test_play_web_serves_the_page_and_stops_on_ctrl_c(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["MINESWEEPER_DATA_DIR"] = str(tmp_path)
    command = [sys.executable, "-m", "minesweeper", "play", "--web", "--preset", "expert"]
    command = reached_by_ctrl_c(command)
    server = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    # Should the server hang before it speaks, the watchdog ends it and the read below ends.
    watchdog = threading.Timer(PATIENCE, server.kill)
    watchdog.start()
    try:
        assert server.stderr is not None
        line = server.stderr.readline()
        assert line.startswith("the game is at http://127.0.0.1:"), line
        assert "opened in your browser" not in line  # no screen here: the address only
        address = line.split()[4]
        assert address.endswith("/?topology=square&rules=modern&preset=expert")
        with urllib.request.urlopen(address, timeout=PATIENCE) as page:
            assert b'src="/static/app.js"' in page.read()
        request = urllib.request.Request(address.split("?")[0] + "api/guests", method="POST")
        with urllib.request.urlopen(request, timeout=PATIENCE) as answer:
            assert json.load(answer)["player"]["name"].startswith("guest-")
        # The embedded database is the user's data folder's.
        assert (tmp_path / "ladder.sqlite3").exists()
        server.send_signal(signal.SIGINT)
        assert server.wait(PATIENCE) == 0
    finally:
        watchdog.cancel()
        if server.poll() is None:  # the test failed first: the server stops all the same
            server.kill()
        server.communicate()


def test_play_web_refuses_a_board_file(tmp_path):
    board = tmp_path / "board.txt"
    board.write_text("2 2\n.X\n..\n")
    result = CliRunner().invoke(main, ["play", "--web", "--board", str(board)])
    assert result.exit_code != 0
    assert "--web deals its boards on the server: drop --board" in result.output


def test_the_address_names_the_game_chosen():
    expert = Settings.preset("expert")
    assert page_address("127.0.0.1", 8000, expert).endswith(
        "?topology=square&rules=modern&preset=expert"
    )
    hexes = Settings.preset("beginner", HexTopology).replace(no_guess=True)
    address = page_address("127.0.0.1", 8000, hexes)
    assert "topology=hex" in address and "preset=custom&rows=9&cols=9&mines=10" in address
    assert address.endswith("&no_guess=1")
