"""Where chunks of games run: this process, a local process pool, or a Dask cluster.

Every executor pulls chunks from the runner as it has room for them and yields
each with its outcomes as it finishes, in any order; the results never depend
on which executor played them. The Dask one lives in `cluster`, imported only
for ``--cluster`` (by `minesweeper.bench.runner.open_executor`, which picks one).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from types import TracebackType
from typing import Protocol

from minesweeper.errors import JudgeError
from minesweeper.resources import prctl

from .games import Chunk, GameOutcome, play_chunk


class WorkerError(JudgeError):
    """A chunk could not be played: a worker process died or a cluster failed it."""


#: The next chunk to play, sized with what the results so far tell; None when all are out.
NextChunk = Callable[[], "Chunk | None"]


class Executor(Protocol):
    """Plays chunks of games somewhere; a context manager that owns its workers.

    `run` asks ``next_chunk`` for work whenever it has room (``window`` chunks
    out at once) and yields each chunk with its outcomes as it finishes, so the
    runner sizes later chunks by how long the first ones took.
    """

    #: Games played at once (processes, or the cluster's worker threads); known once entered.
    workers: int
    #: CPU seconds one chunk should last: long enough that the cost of handing it out
    #: stays small, short enough for a smooth progress bar and a cheap retry.
    chunk_seconds: float

    def __enter__(self) -> Executor: ...

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...

    def run(self, next_chunk: NextChunk) -> Iterator[tuple[Chunk, list[GameOutcome]]]:
        """Each chunk ``next_chunk`` hands out, with its outcomes, as it finishes."""
        ...


class InProcess:
    """Plays the chunks one after another in this process (``--jobs 1``)."""

    workers = 1
    chunk_seconds = 0.25  # only the progress bar's updates

    def __enter__(self) -> InProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def run(self, next_chunk: NextChunk) -> Iterator[tuple[Chunk, list[GameOutcome]]]:
        while (chunk := next_chunk()) is not None:
            yield chunk, play_chunk(chunk)


class ProcessPool:
    """A pool of ``jobs`` worker processes on this machine (``--jobs N``)."""

    # Handing a chunk to a local process costs well under a millisecond.
    chunk_seconds = 0.25

    def __init__(self, jobs: int) -> None:
        self.workers = jobs
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> ProcessPool:
        self._pool = ProcessPoolExecutor(
            max_workers=self.workers, initializer=_start_worker, initargs=(os.getpid(),)
        )
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        assert self._pool is not None
        # On an error or Ctrl-C drop the queued chunks; the running ones end within a chunk.
        self._pool.shutdown(wait=True, cancel_futures=kind is not None)

    def run(self, next_chunk: NextChunk) -> Iterator[tuple[Chunk, list[GameOutcome]]]:
        assert self._pool is not None
        pending: dict[Future[list[GameOutcome]], Chunk] = {}
        while True:
            # Two chunks per process: one running, one waiting, none idle.
            while len(pending) < 2 * self.workers and (chunk := next_chunk()) is not None:
                pending[self._pool.submit(play_chunk, chunk)] = chunk
            if not pending:
                return
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                try:
                    outcomes = future.result()
                except BrokenProcessPool:
                    raise WorkerError("a worker process died (out of memory?)") from None
                yield pending.pop(future), outcomes


#: From <linux/prctl.h>: the signal a process gets when its parent dies.
PR_SET_PDEATHSIG = 1
#: How often a worker without a parent-death signal checks that its parent lives, in seconds.
ORPHAN_CHECK_SECONDS = 1.0


def _start_worker(parent: int) -> None:
    """Set up a pool worker: it dies with ``parent``, whatever kills the parent (kill -9 too).

    On Linux the kernel sends it SIGKILL when the parent dies; elsewhere a
    thread checks every `ORPHAN_CHECK_SECONDS` that it was not handed to another parent.
    """
    # Ctrl-C is the parent's to handle: workers would only print tracebacks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not _die_with_parent():
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)


def _die_with_parent() -> bool:
    """Ask the kernel for SIGKILL when the parent dies; whether it could (Linux only)."""
    return prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK_SECONDS)
    os._exit(1)


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
