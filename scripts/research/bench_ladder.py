"""Load test of the ladder: N bots at human speed on loopback; the largest N with p99 < 50 ms.

Starts `minesweeper ladder serve` (one process, or --processes P on one database) on
a loopback port, makes N bot accounts, and lets each bot play ranked expert games at
--rate moves per second (5: a quick human): the first click opens an area, then
mostly flag toggles with a random open now and then (a loss starts a new game), so
every request is a real move stored before it is answered. Each level runs
--seconds seconds; levels double N until p99 latency reaches the target or a
request fails. Bounded in count and time; traffic goes to 127.0.0.1 only.

    python scripts/research/bench_ladder.py                         # SQLite in a temporary folder
    python scripts/research/bench_ladder.py --postgres              # a private PostgreSQL cluster
    python scripts/research/bench_ladder.py --bots 5 10 20 40 --seconds 10

Latency is measured by the client, request sent to answer read, so it includes
the client's own scheduling on the same machine: an upper bound of the server's.
The first --warm-up seconds of each level are not measured, and game creations
(one every ~25 moves) are counted apart from the moves.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from common import from_tests

from minesweeper.ladder.config import LadderConfig
from minesweeper.ladder.service import Ladder

# The tests' server helpers (a ladder serve process, a private PostgreSQL cluster).
_servers = from_tests("ladder_servers")
PostgresCluster, ServerProcess, postgres_bin = (
    _servers.PostgresCluster,
    _servers.ServerProcess,
    _servers.postgres_bin,
)

EXPERT_CELLS = 480
#: No level lasts longer (a level of few bots runs longer, to gather enough moves).
MAX_LEVEL_SECONDS = 60.0
FIRST = 3 * 30 + 3  # expert's conventional first click, (3, 3)


@dataclass
class Level:
    """One level's measurements: the latency of every move answered after the warm-up
    (game creations are counted apart: they are not moves)."""

    bots: int
    measure_from: float = 0.0
    latencies: list[float] = field(default_factory=list)
    creations: list[float] = field(default_factory=list)
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
        if time.monotonic() >= level.measure_from:
            took = time.perf_counter() - started
            (level.latencies if path.endswith("/moves") else level.creations).append(took)
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


async def run_level(
    urls: list[str], tokens: list[str], rate: float, seconds: float, warm_up: float
) -> Level:
    level = Level(len(tokens), measure_from=time.monotonic() + warm_up)
    limits = httpx.Limits(max_connections=len(tokens) + 10)
    clients = [httpx.AsyncClient(base_url=url, timeout=10, limits=limits) for url in urls]
    until = level.measure_from + seconds
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
    print(
        f"{'bots':>5} {'moves':>7} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'games':>6} errors"
    )
    best = None
    try:
        for count in args.bots:
            # Long enough for --samples moves, so that a p99 is not just the slowest one.
            seconds = min(MAX_LEVEL_SECONDS, max(args.seconds, args.samples / (count * args.rate)))
            level = asyncio.run(
                run_level(
                    [s.url for s in servers], tokens[:count], args.rate, seconds, args.warm_up
                )
            )
            rate = len(level.latencies) / seconds
            print(
                f"{count:>5} {len(level.latencies):>7} {rate:>8.1f} {level.p50:>7.1f} "
                f"{level.p99:>7.1f} {len(level.creations):>6} {len(level.errors)}",
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
        shutil.rmtree(folder, ignore_errors=True)
    verdict = "none" if best is None else str(best)
    print(f"largest N with p99 < {args.target:g} ms and no error: {verdict}\n")


def service_only(database: str, moves: int = 300) -> None:
    """The service's own cost of a move (token check and move, two transactions), without
    HTTP: what the server spends, apart from uvicorn, FastAPI and the client."""
    from minesweeper.ladder.categories import GameRequest

    service = Ladder(LadderConfig(database_url=database))
    with service.transaction() as db:
        token = service.accounts.bot_token(db, "servicebot").token
        player = service.accounts.player(db, token)
        game = service.games.create(db, player, GameRequest(mode="ranked", preset="expert"))
    walls, cpus = [], []
    for index in range(moves):
        wall, cpu = time.perf_counter(), time.process_time()
        with service.transaction() as db:
            service.accounts.player(db, token)
        with service.transaction() as db:
            kind, cell = ("open", FIRST) if index == 0 else ("flag", EXPERT_CELLS - 1)
            service.games.move(db, player, game.id, kind, cell)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    service.close()

    def ms(values: list[float]) -> str:
        p99 = statistics.quantiles(values, n=100)[98]
        return f"p50 {statistics.median(values) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms"

    print(f"service only, {moves} moves: wall {ms(walls)}; CPU {ms(cpus)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", help="a database URL (default: SQLite in a temp folder)")
    parser.add_argument("--postgres", action="store_true", help="a private PostgreSQL cluster")
    parser.add_argument("--bots", type=int, nargs="+", default=[5, 10, 20, 40, 80])
    parser.add_argument("--rate", type=float, default=5.0, help="moves per second per bot")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each level")
    parser.add_argument(
        "--warm-up", type=float, default=2.0, help="seconds of each level not measured"
    )
    parser.add_argument(
        "--samples", type=int, default=300, help="moves each level measures at least"
    )
    parser.add_argument("--processes", type=int, default=1, help="server processes")
    parser.add_argument("--target", type=float, default=50.0, help="p99 target in ms")
    parser.add_argument(
        "--service-only", action="store_true", help="time the service in-process, no HTTP"
    )
    args = parser.parse_args()
    if max(args.bots) > 1000 or args.seconds > 120:
        parser.error("bounded: at most 1000 bots and 120 s per level")

    def run(database: str) -> None:
        if args.service_only:
            service_only(database)
        else:
            bench(database, args, database.split(":")[0])

    if args.postgres:
        bin_dir = postgres_bin()
        if bin_dir is None:
            parser.error("PostgreSQL is not installed (/usr/lib/postgresql/*/bin/initdb)")
        cluster = PostgresCluster(bin_dir, fsync=True)
        cluster.start()
        try:
            database = cluster.new_database()
            if args.service_only:
                service_only(database)
            else:
                bench(database, args, "PostgreSQL")
        finally:
            cluster.stop()
        return
    if args.database:
        run(args.database)
        return
    folder = tempfile.mkdtemp(prefix="ladder-db-")
    try:
        run(f"sqlite:///{folder}/ladder.sqlite3")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
