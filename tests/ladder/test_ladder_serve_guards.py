"""`ladder serve` as uvicorn runs it: who a client is (X-Forwarded-For is trusted only from a
proxy named on the command line), and a huge body answered 413 before it is sent."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from ladder_servers import ServerProcess

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def serve(tmp_path: Path) -> Iterator:
    started: list[ServerProcess] = []

    def start(*options: str) -> ServerProcess:
        database = f"sqlite:///{tmp_path / f'ladder-{len(started)}.sqlite3'}"
        server = ServerProcess(database, tmp_path, *options).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def sign_ups(url: str, count: int) -> list[int]:
    """``count`` sign-ups from loopback, each claiming another address in X-Forwarded-For."""
    return [
        httpx.post(
            f"{url}/api/accounts",
            json={"name": f"player{number}", "password": "long enough"},
            headers={"X-Forwarded-For": f"203.0.113.{number}"},
        ).status_code
        for number in range(count)
    ]


@pytest.mark.slow
def test_x_forwarded_for_is_ignored_unless_a_proxy_is_named(serve) -> None:
    # F7: uvicorn's default trusted the header from 127.0.0.1: every per-address limit fell.
    assert sign_ups(serve().url, 6) == [201] * 5 + [429]
    # Behind a proxy named on the command line, its header names each client.
    assert sign_ups(serve("--forwarded-allow-ips", "127.0.0.1").url, 6) == [201] * 6


def test_a_100_mb_body_is_answered_413_before_it_is_sent(serve) -> None:
    # F9: a 100 MB body was read whole before the answer (RSS 140 -> 432 MB in 6 s).
    server = serve()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as connection:
        connection.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100000000\r\n\r\n" + b"{" * 65536
        )
        answer = connection.recv(4096)  # the rest of the 100 MB is never sent
    assert answer.startswith(b"HTTP/1.1 413 ")


def test_port_0_prints_the_port_it_listens_on(tmp_path: Path) -> None:
    """`--port 0` takes a free port and the first line names it (it printed :0 before)."""
    import os
    import re
    import subprocess
    import sys

    command = [sys.executable, "-m", "minesweeper", "ladder", "serve", "--port", "0"]
    command += ["--database", f"sqlite:///{tmp_path / 'ladder.sqlite3'}"]
    env = {**os.environ, "MINESWEEPER_DATA_DIR": str(tmp_path)}
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        found = re.match(r"ladder on (http://127\.0\.0\.1:(\d+))/ ", first)
        assert found and found[2] != "0", first
        assert httpx.get(f"{found[1]}/api/health", timeout=10).status_code == 200
    finally:
        process.terminate()
        process.wait(timeout=15)


def test_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        command = [sys.executable, "-m", "minesweeper", "ladder", "serve", "--port", str(port)]
        command += ["--database", f"sqlite:///{tmp_path / 'ladder.sqlite3'}"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert done.stderr.splitlines() == [
        f"minesweeper: cannot listen on 127.0.0.1 port {port}: Address already in use"
    ]
