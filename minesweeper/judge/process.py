"""A foreign program run as a child process, under limits, over pipes.

The child runs in its own session (so its whole process group can be killed
at once) with an address-space limit and a CPU-time backstop set before it
starts. Its standard output is read without blocking, line by line, against
wall-clock deadlines and a cap on the bytes it may write; its standard error
is kept as a short tail for reports. `Child.close` kills the group and reaps
the child, whatever state it is in, then what escaped the group (`orphans`).
Given a `Sandbox`, the child is bubblewrap running the program in it (with a
cgroup of its own where the machine has one): every foreign program and
compiler is started here.
"""

from __future__ import annotations

import contextlib
import math
import os
import resource
import selectors
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import TracebackType

from minesweeper.errors import JudgeError
from minesweeper.judge import cgroups
from minesweeper.judge.orphans import Adoption
from minesweeper.judge.sandbox import Sandbox, as_root

#: How much of the child's standard error is kept (its end).
STDERR_TAIL = 4096
_CHUNK = 65536
_MIB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """What a child may use: wall seconds per move and per game, memory, output bytes."""

    move_seconds: float = 5.0
    game_seconds: float = 60.0
    memory_mib: int = 1024
    output_bytes: int = 1_000_000
    #: Processes (and threads) of the sandbox's user at once; not set without a sandbox,
    #: where the limit would count every process of the judge's own user.
    processes: int = 256

    def preexec(self, own_user: bool = False, cgroup: str | None = None) -> Callable[[], None]:
        """The function the child runs before ``exec``: its resource limits.

        The CPU limit is a backstop for a child that the wall-clock deadlines
        somehow miss; it does only system calls, nothing that could take a lock.
        ``own_user``: the program runs as a user of its own, whose processes
        ``RLIMIT_NPROC`` may count; ``cgroup``: the ``cgroup.procs`` file of the
        program's own cgroup (`cgroups`), joined first.
        """
        cpu = math.ceil(self.game_seconds) + 1
        limits = [
            _within(resource.RLIMIT_AS, self.memory_mib * _MIB, self.memory_mib * _MIB),
            _within(resource.RLIMIT_CPU, cpu, cpu + 1),
            (resource.RLIMIT_CORE, 0, 0),
        ]
        if own_user:
            limits.append(_within(resource.RLIMIT_NPROC, self.processes, self.processes))

        def limit() -> None:
            if cgroup is not None:
                cgroups.join(cgroup)
            for kind, soft, hard in limits:
                resource.setrlimit(kind, (soft, hard))

        return limit


def _within(kind: int, soft: int, hard: int) -> tuple[int, int, int]:
    """A limit lowered to the judge's own hard limit where that is lower: a limit cannot
    be raised, and the child would fail before ``exec`` ("Exception occurred in preexec_fn")."""
    ceiling = resource.getrlimit(kind)[1]
    if ceiling != resource.RLIM_INFINITY:
        soft, hard = min(soft, ceiling), min(hard, ceiling)
    return kind, soft, hard


class ChildProblem(JudgeError):
    """The child broke a limit or the protocol; the message is the result text."""


class TimeLimit(ChildProblem):
    """The child did not answer before a deadline."""


class OutputLimit(ChildProblem):
    """The child wrote more bytes than allowed."""


class InputBacklog(ChildProblem):
    """The child left more of its input unread than allowed: it stopped reading."""


@dataclass(frozen=True)
class Exit:
    """How the child ended: its exit code (negative: the signal), and its CPU seconds."""

    code: int | None
    cpu_seconds: float = 0.0


def describe_exit(code: int | None, limits: Limits, stderr: bytes) -> str:
    """The result text of a child that ended by itself with ``code`` (None: still running)."""
    if code is None:
        return "did not exit"
    if code == -signal.SIGXCPU:
        return "time limit (CPU)"
    if code != 0 and _mentions_memory(stderr):
        return f"memory limit ({limits.memory_mib} MiB)"
    if code < 0:
        return f"crashed (signal {-code})"
    return f"exited with status {code}"


#: What runtimes print when an allocation fails (Python, C++, C, Java, Rust, Go).
_MEMORY_WORDS = (
    b"MemoryError",
    b"bad_alloc",
    b"Cannot allocate memory",
    b"out of memory",
    b"OutOfMemoryError",
    b"memory allocation of",
)


def _mentions_memory(stderr: bytes) -> bool:
    return any(word in stderr for word in _MEMORY_WORDS)


class Child:
    """A running foreign program; use as a context manager so it is always killed and reaped.

    Raises `OSError` when the program cannot be started (not found, not executable),
    `subprocess.SubprocessError` when its limits cannot be set.
    """

    def __init__(
        self, command: Sequence[str], limits: Limits, sandbox: Sandbox | None = None
    ) -> None:
        self.limits = limits
        self.sandboxed = sandbox is not None
        self.output_bytes = 0
        self.stderr_tail = bytearray()
        #: The start of its standard error, where a compiler's first error is.
        self.stderr_head = bytearray()
        self.stdout_open = True
        # Makes this whole process the subreaper of what the program leaves (once, on Linux).
        self._adoption = Adoption()
        self.started = time.monotonic()
        argv, env, cwd = list(command), None, None
        self._cgroup: cgroups.Cgroup | None = None
        if sandbox is not None:
            jail = sandbox.wrap(command)
            argv, env, cwd = jail.argv, jail.env, "/"
            self._cgroup = cgroups.make(limits.memory_mib, limits.processes)
        preexec = limits.preexec(
            own_user=sandbox is not None and as_root(),
            cgroup=self._cgroup.procs if self._cgroup else None,
        )
        try:
            self._process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                env=env,
                cwd=cwd,
                preexec_fn=preexec,
            )
        except BaseException:
            if self._cgroup is not None:
                self._cgroup.remove()
            raise
        self._pid = self._process.pid
        self._buffer = bytearray()
        self._outbox = bytearray()
        self._selector = selectors.DefaultSelector()
        for stream in (self._process.stdin, self._process.stdout, self._process.stderr):
            assert stream is not None
            os.set_blocking(stream.fileno(), False)
        self._stdin: int | None = self._process.stdin.fileno()  # type: ignore[union-attr]
        self._selector.register(self._process.stdout, selectors.EVENT_READ, "stdout")  # type: ignore[arg-type]
        self._selector.register(self._process.stderr, selectors.EVENT_READ, "stderr")  # type: ignore[arg-type]
        self._exit: Exit | None = None

    def __enter__(self) -> Child:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def game_deadline(self) -> float:
        return self.started + self.limits.game_seconds

    # Writing ---------------------------------------------------------------

    def send(self, data: bytes, backlog: int | None = None) -> None:
        """Queue ``data`` for the child's standard input; it is written while waiting to read.

        Raises `InputBacklog` when more than ``backlog`` bytes (if given) are then
        queued: what the child has not read stays bounded, and so does the judge.
        """
        if self._stdin is None:
            return
        if not self._outbox:
            self._selector.register(self._stdin, selectors.EVENT_WRITE, "stdin")
        self._outbox += data
        if backlog is not None and len(self._outbox) > backlog:
            unread = len(self._outbox)
            raise InputBacklog(f"stopped reading its input ({unread} bytes unread)")

    def close_input(self, deadline: float, what: str) -> None:
        """Write what is queued, then close the child's standard input.

        Raises `TimeLimit` with ``what`` as its text when ``deadline`` passes first.
        """
        while self._outbox and self._stdin is not None:
            self._pump(deadline, what)
        self._close_stdin()

    def _close_stdin(self) -> None:
        if self._stdin is None:
            return
        if self._outbox:
            self._selector.unregister(self._stdin)
            self._outbox.clear()
        self._stdin = None
        with contextlib.suppress(OSError):
            self._process.stdin.close()  # type: ignore[union-attr]

    # Reading ---------------------------------------------------------------

    def read_line(self, deadline: float, what: str) -> bytes | None:
        """The next line of output (without its newline), or None once output has ended.

        A last line without a newline counts as a line. Raises `TimeLimit` with
        ``what`` as its text when ``deadline`` (a `time.monotonic` value) passes
        first, and `OutputLimit` when the child writes too much.
        """
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                return line
            if not self.stdout_open:
                if self._buffer:
                    line = bytes(self._buffer)
                    self._buffer.clear()
                    return line
                return None
            self._pump(deadline, what)

    def read_all(self, deadline: float, what: str) -> bytes:
        """Everything the child writes until it closes its output."""
        while self.stdout_open:
            self._pump(deadline, what)
        data = bytes(self._buffer)
        self._buffer.clear()
        return data

    def _pump(self, deadline: float, what: str | None) -> None:
        """Wait for one batch of events: write queued input, read output and errors."""
        timeout = deadline - time.monotonic()
        if timeout <= 0:
            raise TimeLimit(what or "time limit")
        events = self._selector.select(timeout)
        for key, _ in events:
            if key.data == "stdin":
                self._write()
            else:
                self._read(key)

    def _write(self) -> None:
        assert self._stdin is not None
        try:
            written = os.write(self._stdin, self._outbox[:_CHUNK])
        except BlockingIOError:
            return
        except OSError:  # the child closed its input (EPIPE): it will not read more
            self._close_stdin()
            return
        del self._outbox[:written]
        if not self._outbox:
            self._selector.unregister(self._stdin)

    def _read(self, key: selectors.SelectorKey) -> None:
        try:
            data = os.read(key.fd, _CHUNK)
        except BlockingIOError:
            return
        if not data:
            self._selector.unregister(key.fileobj)
            if key.data == "stdout":
                self.stdout_open = False
            return
        if key.data == "stderr":
            self.stderr_head += data[: STDERR_TAIL - len(self.stderr_head)]
            self.stderr_tail += data
            del self.stderr_tail[:-STDERR_TAIL]
            return
        self.output_bytes += len(data)
        if self.output_bytes > self.limits.output_bytes:
            raise OutputLimit(f"output limit ({self.limits.output_bytes} bytes)")
        self._buffer += data

    # Ending ----------------------------------------------------------------

    def wait_exit(self, deadline: float) -> int | None:
        """The child's exit code once it ends (negative: a signal); None if not by ``deadline``.

        The child is left unreaped (a zombie keeps its process group's id
        reserved), so `close` can still kill whatever it left behind.
        """
        while True:
            try:
                status = os.waitid(os.P_PID, self._pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                status = None
            if status is not None:
                if status.si_code == os.CLD_EXITED:
                    return self._program_code(status.si_status)
                return -status.si_status
            if time.monotonic() >= deadline:
                return None
            with contextlib.suppress(ChildProblem):
                self._drain(min(deadline, time.monotonic() + 0.01))

    def _drain(self, until: float) -> None:
        """Read (and forget) what the child writes until ``until``, so it never blocks on a pipe."""
        if self.stdout_open or self._selector.get_map():
            self._pump(until, None)
            self._buffer.clear()
        else:
            time.sleep(max(0.0, until - time.monotonic()))

    def _program_code(self, code: int) -> int:
        """The program's code from bubblewrap's: it exits with 128 + N when the program was
        killed by signal N (as a shell reports it), here negative like `subprocess`'s."""
        if self.sandboxed and 128 < code <= 128 + signal.NSIG:
            return 128 - code
        return code

    def close(self) -> Exit:
        """Kill the child's process group, reap the child; how it ended and its CPU seconds.

        Then kill and reap what it left in other groups and sessions (`Adoption.sweep`).
        """
        if self._exit is not None:
            return self._exit
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):  # unreaped, so still ours to kill
            os.kill(self._pid, signal.SIGKILL)
        self._close_stdin()
        try:
            _, status, usage = os.wait4(self._pid, 0)
            code: int | None = self._program_code(os.waitstatus_to_exitcode(status))
            cpu = usage.ru_utime + usage.ru_stime
        except ChildProcessError:  # already reaped
            code, cpu = self._process.returncode, 0.0
        self._process.returncode = code
        if self._cgroup is not None:
            self._cgroup.remove()
        self._adoption.sweep()
        self._selector.close()
        for stream in (self._process.stdout, self._process.stderr):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]
        self._exit = Exit(code, cpu)
        return self._exit
