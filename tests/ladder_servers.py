"""Real servers for the ladder's tests: a private PostgreSQL cluster, and `ladder serve` processes.

The cluster is made with Debian's ``initdb`` and ``pg_ctl`` in a temporary folder
(run as the ``postgres`` user when the tests run as root, since PostgreSQL refuses
to run as root), listens on a loopback port, and is stopped and deleted at the end.
Without a PostgreSQL installation the PostgreSQL tests are skipped; ``.ci/run``
installs it, so CI runs them.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


class PostgresCluster:
    """A private PostgreSQL server in a temporary folder, on a loopback port."""

    def __init__(self, bin_dir: Path, *, fsync: bool = False) -> None:
        #: Tests run without fsync (nothing to keep past the test); benchmarks with it.
        self.fsync = fsync
        self.bin_dir = bin_dir
        self.folder = Path(tempfile.mkdtemp(prefix="ladder-pg-", dir="/tmp"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.folder, "postgres", "postgres")

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_root else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        self._run(
            str(self.bin_dir / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres"
        )
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
            f"-c fsync={'on' if self.fsync else 'off'} -c max_connections=200 "
            "-c shared_buffers=32MB"
        )
        self._run(
            str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-o", options,
            "-l", str(self.folder / "log"), "-w", "start",
        )  # fmt: skip

    def stop(self) -> None:
        try:
            self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "fast", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database's URL."""
        import psycopg

        name = "ladder_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    """A running private PostgreSQL cluster (the tests are skipped where none is installed)."""
    bin_dir = postgres_bin()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed (/usr/lib/postgresql/*/bin/initdb)")
    cluster = PostgresCluster(bin_dir)
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


class ServerProcess:
    """`minesweeper ladder serve` in a process of its own, on a loopback port."""

    def __init__(self, database: str, data_dir: Path, *options: str) -> None:
        self.database = database
        self.data_dir = data_dir
        #: More options of `ladder serve` (``--forwarded-allow-ips``...).
        self.options = options
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> ServerProcess:
        env = {**os.environ, "MINESWEEPER_DATA_DIR": str(self.data_dir)}
        command = [sys.executable, "-m", "minesweeper", "ladder", "serve"]
        command += ["--database", self.database, "--port", str(self.port), *self.options]
        self.log = self.data_dir / f"serve-{self.port}.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(command, env=env, stdout=log, stderr=log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"ladder serve exited: {self.log.read_text()}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("ladder serve did not answer within 60 s")

    def kill(self) -> None:
        """Kill -9: no chance to finish anything."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
