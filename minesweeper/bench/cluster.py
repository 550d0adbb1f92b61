"""Chunks of games on a Dask distributed cluster (``--cluster ADDRESS``).

Imported only when a cluster is asked for. A chunk is one Dask task; when a
worker dies, the scheduler runs its chunks again elsewhere, and the runner keys
outcomes by game index, so nothing is lost and nothing counts twice.
"""

from __future__ import annotations

import contextlib
import logging
import math
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

from .executors import NextChunk, WorkerError, max_jobs
from .games import Chunk, GameOutcome, play_chunk

LOCAL = "local:"
#: How often the count of worker threads is asked again (a cluster may grow mid-run).
WORKER_COUNT_SECONDS = 5.0


def local_workers(address: str) -> int | None:
    """N for ``local:N`` (a cluster of N processes on this machine), else None."""
    if not address.startswith(LOCAL):
        return None
    count = address[len(LOCAL) :]
    if not count.isdigit() or not 1 <= int(count) <= max_jobs():
        raise WorkerError(f"--cluster {address}: N in local:N must lie in 1..{max_jobs()}")
    return int(count)


@contextlib.contextmanager
def _workers_ignore_interrupts() -> Iterator[None]:
    """Start processes that ignore Ctrl-C, which is this process's to handle.

    Worker processes inherit an ignored SIGINT, and Python then leaves it ignored;
    otherwise each local worker would print a traceback of its own.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class DaskCluster:
    """Plays chunks on the Dask scheduler at ``address``, or on a new `LocalCluster`."""

    # A task costs a few milliseconds of scheduling and messages (10 ms on a loaded
    # 2-core machine): under 1% of a 2-second chunk, and a dead worker costs 2 s a chunk.
    chunk_seconds = 2.0

    def __init__(self, address: str) -> None:
        self.address = address
        self.local = local_workers(address)  # checked before anything starts
        self.workers = self.local or 1
        self._cluster: Any = None
        self._client: Any = None
        self._pending: dict[str, tuple[Any, Chunk]] = {}  # by Dask key
        self._counted = -math.inf

    def __enter__(self) -> DaskCluster:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise WorkerError("--cluster needs Dask: pip install 'minesweeper[cluster]'") from None
        if self.local is not None:
            with _workers_ignore_interrupts():
                # One thread per process: the games are pure Python and hold the GIL.
                self._cluster = LocalCluster(
                    n_workers=self.local,
                    threads_per_worker=1,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
            self._client = Client(self._cluster)
        else:
            try:
                self._client = Client(self.address)
            except (OSError, TimeoutError, ValueError) as error:
                first = str(error).splitlines()[0] if str(error) else type(error).__name__
                raise WorkerError(
                    f"cannot reach the Dask scheduler at {self.address}: {first}"
                ) from None
        self._check_workers()
        self._count_workers()
        return self

    def _check_workers(self) -> None:
        """Fail now when a worker cannot load the project: it would drop every chunk.

        A worker that cannot unpickle a chunk loses its connection to the
        scheduler, and the run would wait for ever. The check runs a function of
        the standard library (which any worker can load) that imports the module
        the chunks come from.
        """
        import pkgutil

        try:
            self._client.run(pkgutil.resolve_name, f"{play_chunk.__module__}:__name__")
        except Exception as error:
            raise WorkerError(
                f"a worker of {self.address} cannot load the project ({error}): "
                "install it on every worker (docs/cluster.md)"
            ) from None

    def _count_workers(self) -> None:
        """Keep ``workers`` up to date (every few seconds): workers may join mid-run."""
        now = time.monotonic()
        if now - self._counted >= WORKER_COUNT_SECONDS:
            self._counted = now
            self.workers = max(1, sum(self._client.nthreads().values()))

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        if kind is not None and self._pending:
            self._client.cancel([future for future, _ in self._pending.values()])
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()

    def run(self, next_chunk: NextChunk) -> Iterator[tuple[Chunk, list[GameOutcome]]]:
        from distributed import as_completed

        finished = as_completed()

        def hand_out() -> None:
            self._count_workers()
            # Three chunks per worker thread: one running, two queued against latency.
            while len(self._pending) < 3 * self.workers and (chunk := next_chunk()) is not None:
                future = self._client.submit(play_chunk, chunk, pure=False)
                self._pending[future.key] = future, chunk
                finished.add(future)

        hand_out()
        for future in finished:
            try:
                outcomes = future.result()
            except Exception as error:
                hint = (
                    " (is the project installed on every worker?)"
                    if isinstance(error, ImportError)
                    else ""
                )
                raise WorkerError(f"the cluster failed a chunk: {error}{hint}") from None
            _, chunk = self._pending.pop(future.key)
            future.release()
            yield chunk, outcomes
            hand_out()
