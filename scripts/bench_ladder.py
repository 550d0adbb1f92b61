"""Load test of the ladder: N bots at human speed on loopback; the largest N with p99 < 50 ms.

Starts `minesweeper ladder serve` (one process, or --processes P on one database) on
a loopback port, makes N bot accounts, and lets each bot play ranked expert games at
--rate moves per second (5: a quick human): the first click opens an area, then
mostly flag toggles with a random open now and then (a loss starts a new game), so
every request is a real move stored before it is answered. Each level runs
--seconds seconds; levels double N until p99 latency reaches the target or a
request fails. Bounded in count and time; traffic goes to 127.0.0.1 only.

    python scripts/bench_ladder.py                         # SQLite in a temporary folder
    python scripts/bench_ladder.py --postgres              # a private PostgreSQL cluster
    python scripts/bench_ladder.py --bots 5 10 20 40 --seconds 10

Latency is measured by the client, request sent to answer read, so it includes
the client's own scheduling on the same machine: an upper bound of the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

# The tests' server helpers (a ladder serve process, a private PostgreSQL cluster).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from ladder_servers import PostgresCluster, ServerProcess, postgres_bin

from minesweeper.ladder.config import LadderConfig
from minesweeper.ladder.service import Ladder

EXPERT_CELLS = 480
FIRST = 3 * 30 + 3  # expert's conventional first click, (3, 3)


@dataclass
class Level:
    bots: int
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games: int = 0

    @property
    def p50(self) -> float:
        return statistics.median(self.latencies) * 1000 if self.latencies else float("nan")

    @property
    def p99(self) -> float:
        if len(self.latencies) < 2:
            return float("nan")
        return statistics.quantiles(self.latencies, n=100)[98] * 1000


async def bot(
    client: httpx.AsyncClient,
    token: str,
    rate: float,
    until: float,
    level: Level,
    rng: random.Random,
) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    game: str | None = None
    closed: list[int] = []
    pace = 1 / rate
    next_at = time.monotonic() + rng.random() * pace  # bots out of step with each other

    async def timed(method: str, path: str, body: dict | None = None) -> dict | None:
        started = time.perf_counter()
        try:
            answer = await client.request(method, path, json=body, headers=headers)
        except httpx.HTTPError as error:
            level.errors.append(f"{path}: {error!r}")
            return None
        level.latencies.append(time.perf_counter() - started)
        if answer.status_code >= 400:
            level.errors.append(f"{path}: {answer.status_code} {answer.text[:100]}")
            return None
        return answer.json()

    while time.monotonic() < until:
        await asyncio.sleep(max(0.0, next_at - time.monotonic()))
        next_at += pace
        if game is None:
            made = await timed("POST", "/api/games", {"mode": "ranked", "preset": "expert"})
            if made is None:
                return
            game, level.games = made["id"], level.games + 1
            move = {"kind": "open", "cell": FIRST}
        elif rng.random() < 0.2 and closed:
            move = {"kind": "open", "cell": rng.choice(closed)}
        else:
            move = {"kind": "flag", "cell": closed[0] if closed else FIRST}
        answer = await timed("POST", f"/api/games/{game}/moves", move)
        if answer is None:
            return
        if move["kind"] == "open" and answer["state"] == "playing":
            opened = {cell for cell, _ in answer["opened"]}
            closed = [cell for cell in (closed or range(EXPERT_CELLS)) if cell not in opened]
        if answer["state"] != "playing":
            game, closed = None, []


async def run_level(urls: list[str], tokens: list[str], rate: float, seconds: float) -> Level:
    level = Level(len(tokens))
    limits = httpx.Limits(max_connections=len(tokens) + 10)
    clients = [httpx.AsyncClient(base_url=url, timeout=10, limits=limits) for url in urls]
    until = time.monotonic() + seconds
    try:
        await asyncio.gather(
            *(
                bot(clients[i % len(clients)], token, rate, until, level, random.Random(i))
                for i, token in enumerate(tokens)
            )
        )
    finally:
        for client in clients:
            await client.aclose()
    return level


def bench(database: str, args: argparse.Namespace, label: str) -> None:
    service = Ladder(LadderConfig(database_url=database))
    with service.transaction() as db:
        tokens = [
            service.accounts.bot_token(db, f"loadbot{i}").token for i in range(max(args.bots))
        ]
    service.close()
    folder = Path(tempfile.mkdtemp(prefix="ladder-bench-"))
    servers = [ServerProcess(database, folder).start() for _ in range(args.processes)]
    print(f"== {label}, {args.processes} server process(es), {args.rate} moves/s per bot")
    print(f"{'bots':>5} {'requests':>9} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7} errors")
    best = None
    try:
        for count in args.bots:
            level = asyncio.run(
                run_level([s.url for s in servers], tokens[:count], args.rate, args.seconds)
            )
            rate = len(level.latencies) / args.seconds
            print(
                f"{count:>5} {len(level.latencies):>9} {rate:>7.1f} {level.p50:>7.1f} "
                f"{level.p99:>7.1f} {len(level.errors)}",
                flush=True,
            )
            if level.errors:
                print(f"      first error: {level.errors[0]}")
            if level.errors or not level.p99 < args.target:
                break
            best = count
    finally:
        for server in servers:
            server.stop()
    verdict = "none" if best is None else str(best)
    print(f"largest N with p99 < {args.target:g} ms and no error: {verdict}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", help="a database URL (default: SQLite in a temp folder)")
    parser.add_argument("--postgres", action="store_true", help="a private PostgreSQL cluster")
    parser.add_argument("--bots", type=int, nargs="+", default=[5, 10, 20, 40, 80])
    parser.add_argument("--rate", type=float, default=5.0, help="moves per second per bot")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each level")
    parser.add_argument("--processes", type=int, default=1, help="server processes")
    parser.add_argument("--target", type=float, default=50.0, help="p99 target in ms")
    args = parser.parse_args()
    if max(args.bots) > 1000 or args.seconds > 120:
        parser.error("bounded: at most 1000 bots and 120 s per level")
    if args.postgres:
        bin_dir = postgres_bin()
        if bin_dir is None:
            parser.error("PostgreSQL is not installed (/usr/lib/postgresql/*/bin/initdb)")
        cluster = PostgresCluster(bin_dir, fsync=True)
        cluster.start()
        try:
            bench(cluster.new_database(), args, "PostgreSQL")
        finally:
            cluster.stop()
        return
    database = args.database or f"sqlite:///{tempfile.mkdtemp(prefix='ladder-db-')}/ladder.sqlite3"
    bench(database, args, database.split(":")[0])


if __name__ == "__main__":
    main()
