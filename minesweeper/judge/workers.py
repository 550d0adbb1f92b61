"""Cases graded in worker processes (``grade --jobs N``), their results sent back as JSON.

A worker starts foreign programs, so what reaches the main process from a
worker must be data, never code: each result is a JSON list of grades on a
socket pair (which, unlike a pipe, cannot be opened through
``/proc/PID/fd``), decoded field by field into `BasicGrade` and
`AdvancedGrade`. Nothing from a worker is ever unpickled; the cases and the
grading function go to it once, when it starts, before it runs any program.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import json
import multiprocessing
import multiprocessing.connection
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from minesweeper.judge.grading import AdvancedGrade, BasicGrade, Found, Grade

#: How a worker grades a case (a module's function, or a partial of one: it is sent once).
Grader = Callable[[Found], list[Grade]]

#: The longest result a worker may send: a case file of many boards, each with 4 KiB of
#: standard error and a result, is far below it.
MAX_RESULT_BYTES = 64 * 1024 * 1024


def encode(grades: Sequence[Grade]) -> bytes:
    """Grades as JSON: a list of ``{"kind": "basic" | "advanced", ...fields}``."""
    rows = [
        {"kind": "basic" if isinstance(grade, BasicGrade) else "advanced"}
        | dataclasses.asdict(grade)
        for grade in grades
    ]
    return json.dumps(rows).encode()


def decode(data: bytes) -> list[Grade]:
    """The grades `encode` wrote; raises `ValueError` on anything else."""
    rows = json.loads(data)
    if not isinstance(rows, list):
        raise ValueError("not a list of grades")
    return [_grade(row) for row in rows]


#: The JSON types a grade's field may hold, by the field's annotation.
_TYPES: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "bool": (bool,),
    "int": (int,),
    "float": (int, float),
}


def _grade(row: Any) -> Grade:
    if not isinstance(row, dict):
        raise ValueError("a grade that is not an object")
    kind = {"basic": BasicGrade, "advanced": AdvancedGrade}.get(row.pop("kind", None))
    if kind is None:
        raise ValueError("a grade of no known kind")
    types = {field.name: field.type for field in dataclasses.fields(kind)}
    if set(row) != set(types):
        raise ValueError("a grade with other fields")
    for name, value in row.items():
        wanted = _TYPES[str(types[name])]
        if type(value) not in wanted:  # exactly: a bool is not an int here
            raise ValueError(f"a grade whose {name} is not a {types[name]}")
    return kind(**row)


def _serve(channel: Connection, cases: Sequence[Found], grade: Grader) -> None:
    """A worker: grade the case whose index arrives, send its grades; stop on an empty message."""
    while message := channel.recv_bytes():
        channel.send_bytes(encode(grade(cases[int(message)])))


class _Worker:
    def __init__(self, cases: Sequence[Found], grade: Grader) -> None:
        context = multiprocessing.get_context("spawn")
        self.channel, theirs = context.Pipe(duplex=True)  # a socket pair
        self.process: BaseProcess = context.Process(
            target=_serve, args=(theirs, cases, grade), daemon=True
        )
        self.process.start()
        theirs.close()
        self.case: int | None = None

    def give(self, index: int) -> None:
        self.case = index
        self.channel.send_bytes(str(index).encode())

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.channel.send_bytes(b"")
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.channel.close()


def grade_parallel(
    cases: Sequence[Found],
    grade: Grader,
    jobs: int,
    started: Callable[[Found], None] | None,
    failed: Callable[[Found, str], Grade],
) -> Iterator[tuple[Found, list[Grade]]]:
    """Each case with its grades, in the order of ``cases``, ``jobs`` workers at a time.

    A worker that dies (killed from outside) fails its case with a grade that
    says so, and a fresh one takes the rest.
    """
    results: dict[int, list[Grade]] = {}
    pending = collections.deque(range(len(cases)))
    workers = [_Worker(cases, grade) for _ in range(min(jobs, len(cases)))]
    try:
        for worker in workers:
            worker.give(pending.popleft())
        for index, case in enumerate(cases):
            if started:
                started(case)
            while index not in results:
                busy = [worker for worker in workers if worker.case is not None]
                ready = multiprocessing.connection.wait([worker.channel for worker in busy])
                for worker in busy:
                    if worker.channel in ready:
                        _collect(worker, workers, results, pending, cases, grade, failed)
            yield case, results.pop(index)
    finally:
        for worker in workers:
            worker.stop()


def _collect(
    worker: _Worker,
    workers: list[_Worker],
    results: dict[int, list[Grade]],
    pending: collections.deque[int],
    cases: Sequence[Found],
    grade: Grader,
    failed: Callable[[Found, str], Grade],
) -> None:
    """Take ``worker``'s result and give it the next case (a dead one is replaced first)."""
    index = worker.case
    assert index is not None
    worker.case = None
    try:
        results[index] = decode(worker.channel.recv_bytes(MAX_RESULT_BYTES))
    except (EOFError, OSError):
        results[index] = [failed(cases[index], "the grading worker died")]
        worker.stop()
        place = workers.index(worker)
        worker = workers[place] = _Worker(cases, grade)
    except ValueError as error:
        results[index] = [failed(cases[index], f"the grading worker sent a bad result: {error}")]
    if pending:
        worker.give(pending.popleft())
