"""Where chunks of games run: this process, a local process pool, or a Dask cluster.

Every executor takes chunks and yields each with its outcomes as it finishes,
in any order; the results never depend on which executor played them.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from types import TracebackType
from typing import Protocol

from minesweeper.errors import MinesweeperError

from .games import Chunk, GameOutcome, play_chunk


class WorkerError(MinesweeperError):
    """A chunk could not be played: a worker process died or a cluster failed it."""


class Executor(Protocol):
    """Plays chunks of games somewhere; a context manager that owns its workers."""

    #: Games played at once (processes, or the cluster's worker threads); known once entered.
    workers: int
    #: The most games one chunk should hold (a trade of overhead against smooth progress).
    max_chunk: int

    def __enter__(self) -> Executor: ...

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...

    def run(self, chunks: Sequence[Chunk]) -> Iterator[tuple[Chunk, list[GameOutcome]]]:
        """Each chunk with its outcomes, as it finishes."""
        ...


class InProcess:
    """Plays the chunks one after another in this process (``--jobs 1``)."""

    workers = 1
    max_chunk = 50

    def __enter__(self) -> InProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def run(self, chunks: Sequence[Chunk]) -> Iterator[tuple[Chunk, list[GameOutcome]]]:
        for chunk in chunks:
            yield chunk, play_chunk(chunk)


class ProcessPool:
    """A pool of ``jobs`` worker processes on this machine (``--jobs N``)."""

    # Chunks return in well under a millisecond of overhead; 50 games keep the bar smooth.
    max_chunk = 50

    def __init__(self, jobs: int) -> None:
        self.workers = jobs
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> ProcessPool:
        self._pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_ignore_interrupts)
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        assert self._pool is not None
        # On an error or Ctrl-C drop the queued chunks; the running ones end within a chunk.
        self._pool.shutdown(wait=True, cancel_futures=kind is not None)

    def run(self, chunks: Sequence[Chunk]) -> Iterator[tuple[Chunk, list[GameOutcome]]]:
        assert self._pool is not None
        futures = {self._pool.submit(play_chunk, chunk): chunk for chunk in chunks}
        for future in as_completed(futures):
            try:
                outcomes = future.result()
            except BrokenProcessPool:
                raise WorkerError("a worker process died (out of memory?)") from None
            yield futures[future], outcomes


def _ignore_interrupts() -> None:
    # Ctrl-C is the parent's to handle: workers would only print tracebacks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


#: ``--jobs`` above this many processes per core only costs memory and start-up: the
#: games are CPU-bound. Some oversubscription stays allowed for machines whose core
#: count is under-reported (containers with a CPU quota above their affinity mask).
JOBS_PER_CORE = 4


def max_jobs() -> int:
    """The most worker processes ``--jobs`` may ask for on this machine."""
    return cores() * JOBS_PER_CORE


def open_executor(jobs: int, cluster: str | None = None) -> Executor:
    """The executor for ``--jobs``/``--cluster``; Dask is imported only for a cluster."""
    if cluster is not None:
        from .cluster import DaskCluster  # lazily: Dask takes a second to import

        return DaskCluster(cluster)
    return InProcess() if jobs <= 1 else ProcessPool(jobs)
