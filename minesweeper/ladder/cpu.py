"""CPU-heavy work, bounded per process: a few jobs at once, in worker threads, never in the
event loop; a job that finds no free slot soon is refused (503, try again).

Heavy work is whatever a request can make cost far more than a move: a no-guess deal,
the practice aids (the solver), a replay played back into frames, a board's geometry,
a password hash. Without a bound, a handful of such requests at once takes every core
and every other player waits; with it, at most `count` of them run, and the event loop
(which answers everything else) is never the thread that runs one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import anyio.to_thread

from minesweeper.ladder.errors import LadderError, RateLimited

T = TypeVar("T")


class Busy(LadderError):
    """Every slot for heavy work stayed taken: try again in ``retry_after`` seconds."""

    status = 503
    code = "busy"

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class CpuSlots:
    """At most ``count`` heavy jobs at once in this process; a job waits at most
    ``wait_seconds`` for a slot, then is refused with `Busy`."""

    def __init__(self, count: int, wait_seconds: float) -> None:
        self._slots = threading.BoundedSemaphore(count)
        self.wait_seconds = wait_seconds
        self._lock = threading.Lock()
        self._asking: set[str] = set()  # the addresses with a job held or waited for

    @contextmanager
    def held(self, what: str, address: str | None = None) -> Iterator[None]:
        """Hold a slot for the block (a worker thread's heavy step: ``what`` names it); a
        job for ``address`` while it has one (held or waited for) is refused at once."""
        if address is None:
            with self._slot(what):
                yield
            return
        with self._lock:
            if address in self._asking:
                raise RateLimited(f"one job of {what} at a time from an address", 1)
            self._asking.add(address)
        try:
            with self._slot(what):
                yield
        finally:
            with self._lock:
                self._asking.discard(address)

    @contextmanager
    def _slot(self, what: str) -> Iterator[None]:
        if not self._slots.acquire(timeout=self.wait_seconds):
            raise Busy(f"the server is busy with other {what}: try again in a moment", 2)
        try:
            yield
        finally:
            self._slots.release()

    async def run(self, work: Callable[[], T], what: str, address: str | None = None) -> T:
        """``work()`` in a worker thread, holding a slot (from an ``async`` route)."""

        def held() -> T:
            with self.held(what, address):
                return work()

        return await anyio.to_thread.run_sync(held)
