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
import dataclasses
import errno
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

from minesweeper.errors import JudgeError, MachineError
from minesweeper.judge import cgroups, keyrings, uids
from minesweeper.judge.orphans import Adoption, empty_sandbox
from minesweeper.judge.sandbox import STATUS_FD, Sandbox, as_root, program_cpu

#: How much of the child's standard error is kept (its end).
STDERR_TAIL = 4096
#: Pauses before each new try of a program the machine would not start.
RETRY_PAUSES = (0.2, 1.0, 3.0)
#: Seconds a sandbox may take to be made (it takes tens of milliseconds).
START_SECONDS = 30.0
#: Seconds the sandbox's init may take to end once its program's processes are killed.
STOP_SECONDS = 5.0
#: Why a program could not be started that is the machine's doing, not the program's.
_MACHINE_ERRNOS = frozenset({errno.EAGAIN, errno.ENOMEM, errno.EMFILE, errno.ENFILE})
#: The most the sandbox's init reports: the word that the program starts, then its times.
_STATUS_BYTES = 256
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
    """How the child ended: its exit code (negative: the signal), and the program's own CPU
    and wall seconds (in a sandbox, from its start to its end inside, as its init saw)."""

    code: int | None
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0


#: What a case or a build says when the machine failed it (`MachineError`): the judge's
#: failure, never the program's result.
JUDGE_ERROR = "judge error"


def judge_error(error: MachineError) -> str:
    """A result text for a program the machine would not start: ``judge error: why``."""
    return f"{JUDGE_ERROR}: {error}"


def is_judge_error(result: str) -> bool:
    """Whether a result text (a case's, a build's) is a judge error."""
    return result.startswith(f"{JUDGE_ERROR}:")


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

    Raises `OSError` when the program cannot be started (not found, not executable), and
    `MachineError` when the machine would not start it (fork or clone refused, the sandbox
    not made, the judge's own limits) on any of `RETRY_PAUSES` more tries: the judge's
    failure, not the program's. In a sandbox, the program's clock (`started`, the game's
    deadline) starts once the sandbox is made, when the program itself starts.
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
        self._exit: Exit | None = None
        pauses = iter(RETRY_PAUSES)
        while problem := self._start(command, sandbox):
            self._abandon()
            pause = next(pauses, None)
            if pause is None:
                tries = len(RETRY_PAUSES) + 1
                raise MachineError(f"could not start {command[0]!r} ({tries} tries): {problem}")
            time.sleep(pause)

    def _start(self, command: Sequence[str], sandbox: Sandbox | None) -> str:
        """Start the program; why the machine would not ("" when it did)."""
        self.output_bytes = 0
        self.stderr_tail.clear()
        self.stderr_head.clear()
        self.stdout_open = True
        self._buffer = bytearray()
        self._outbox = bytearray()
        self._status = bytearray()
        self._selector = selectors.DefaultSelector()
        self._cgroup: cgroups.Cgroup | None = None
        self._lease: uids.Lease | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._status_fd: int | None = None
        self.started = time.monotonic()
        self._ended: float | None = None
        try:
            self._spawn(command, sandbox)
        except MachineError as error:
            return str(error)
        except OSError as error:
            if error.errno not in _MACHINE_ERRNOS:
                self._abandon()
                raise
            return error.strerror or str(error)
        except subprocess.SubprocessError as error:  # the limits could not be set
            return str(error)
        return self._await_start() if sandbox is not None else ""

    def _spawn(self, command: Sequence[str], sandbox: Sandbox | None) -> None:
        argv, env, cwd = list(command), None, None
        status: int | None = None
        if sandbox is not None:
            if as_root():
                self._lease = uids.lease()
                sandbox = dataclasses.replace(sandbox, uid=self._lease.uid, gid=self._lease.uid)
            jail = sandbox.wrap(command)
            argv, env, cwd = jail.argv, jail.env, "/"
            self._cgroup = cgroups.make(self.limits.memory_mib, self.limits.processes)
            reading, status = os.pipe()
            self._status_fd = reading
            os.set_blocking(reading, False)
            self._selector.register(reading, selectors.EVENT_READ, "status")
        limit = self.limits.preexec(
            own_user=sandbox is not None and as_root(),
            cgroup=self._cgroup.procs if self._cgroup else None,
        )

        def prepare() -> None:  # in the child, before exec: system calls only
            limit()
            keyrings.new_session()
            if status is not None:
                os.dup2(status, STATUS_FD)

        try:
            self._process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                env=env,
                cwd=cwd,
                preexec_fn=prepare,
                pass_fds=(STATUS_FD,) if status is not None else (),
            )
        finally:
            if status is not None:
                os.close(status)
        self._pid = self._process.pid
        for stream in (self._process.stdin, self._process.stdout, self._process.stderr):
            assert stream is not None
            os.set_blocking(stream.fileno(), False)
        self._stdin: int | None = self._process.stdin.fileno()  # type: ignore[union-attr]
        self._selector.register(self._process.stdout, selectors.EVENT_READ, "stdout")  # type: ignore[arg-type]
        self._selector.register(self._process.stderr, selectors.EVENT_READ, "stderr")  # type: ignore[arg-type]

    def _await_start(self) -> str:
        """Wait for the sandbox's word that the program starts; why it did not ("" if it did).

        The word comes from the sandbox's init, after bubblewrap made the sandbox and init
        forked the program, before the program's ``exec``: the program cannot forge it.
        """
        deadline = time.monotonic() + START_SECONDS
        while not self._status and self._status_fd is not None:
            try:
                self._pump(deadline, None)
            except ChildProblem:
                return f"the sandbox did not start within {START_SECONDS:g} s"
        if self._status:
            self.started = time.monotonic()
            return ""
        said = bytes(self.stderr_tail).decode(errors="replace").strip().splitlines()
        return f"the sandbox did not start: {said[-1] if said else 'no message'}"

    def _abandon(self) -> None:
        """Undo a start that failed: kill and reap what was started, give back the uid."""
        if self._process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self._pid, 0)
            for stream in (self._process.stdin, self._process.stdout, self._process.stderr):
                with contextlib.suppress(OSError):
                    stream.close()  # type: ignore[union-attr]
            self._adoption.sweep()
        self._release()

    def _release(self) -> None:
        """Give back what the program had of the machine: its fd of status, cgroup, uid."""
        self._selector.close()
        if self._status_fd is not None:
            os.close(self._status_fd)
            self._status_fd = None
        if self._cgroup is not None:
            self._cgroup.remove()
            self._cgroup = None
        if self._lease is not None:
            self._lease.release()
            self._lease = None

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
            elif key.data == "status":
                self._close_status()
            return
        if key.data == "status":  # a few bytes from the sandbox's init, never the program's
            self._status += data[: _STATUS_BYTES - len(self._status)]
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

    def _close_status(self) -> None:
        if self._status_fd is not None:
            with contextlib.suppress(KeyError):
                self._selector.unregister(self._status_fd)
            os.close(self._status_fd)
            self._status_fd = None

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
                self._ended = self._ended or time.monotonic()
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
        """Kill the child, reap it; how it ended, and its CPU and wall seconds.

        In a sandbox, every process of the program is killed first but the sandbox's
        init, which reaps them and reports their CPU time before it ends (so a program
        killed at a time limit is charged what it spent). Then the child's process
        group is killed and what it left in other groups and sessions (`Adoption.sweep`).
        """
        if self._exit is not None:
            return self._exit
        if self.sandboxed and self._running() and empty_sandbox(self._pid):
            self.wait_exit(time.monotonic() + STOP_SECONDS)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):  # unreaped, so still ours to kill
            os.kill(self._pid, signal.SIGKILL)
        self._close_stdin()
        assert self._process is not None
        try:
            _, status, usage = os.wait4(self._pid, 0)
            code: int | None = self._program_code(os.waitstatus_to_exitcode(status))
            cpu = usage.ru_utime + usage.ru_stime
        except ChildProcessError:  # already reaped
            code, cpu = self._process.returncode, 0.0
        self._process.returncode = code
        self._ended = self._ended or time.monotonic()
        self._adoption.sweep()
        self._drain_status()
        reported = program_cpu(bytes(self._status)) if self.sandboxed else None
        for stream in (self._process.stdout, self._process.stderr):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]
        self._release()
        seconds = cpu if reported is None else reported
        self._exit = Exit(code, seconds, self._ended - self.started)
        return self._exit

    def _drain_status(self) -> None:
        """Read the rest of the init's report, as much as is there (it has ended, normally)."""
        while self._status_fd is not None:
            try:
                data = os.read(self._status_fd, _CHUNK)
            except BlockingIOError:
                return
            if not data:
                self._close_status()
                return
            self._status += data[: _STATUS_BYTES - len(self._status)]

    def _running(self) -> bool:
        try:
            status = os.waitid(os.P_PID, self._pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return False
        return status is None
