"""No program pays for another's use of the machine: a user id of its own per sandboxed
program (its process limit, keyrings and signals), leases shared by every judge on the
machine, and the program's own CPU time reported even when the judge kills it."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from minesweeper.boards.cases import parse_case
from minesweeper.errors import MachineError
from minesweeper.judge import sandbox as sandboxes
from minesweeper.judge import uids
from minesweeper.judge.interactive import play_client
from minesweeper.judge.process import Child, Limits
from minesweeper.judge.sandbox import Sandbox

needs_root_sandbox = pytest.mark.skipif(
    bool(sandboxes.missing()) or not sandboxes.as_root(),
    reason="a user id per program is the sandbox's as root (as another user: docs/judge.md)",
)
#: Seconds that only bound a hang (a loaded machine is slow to start processes).
PATIENCE = 120

#: Forks children that sleep until the process limit refuses one; says how many it has,
#: then keeps them until its input ends.
FORKER = """
import os, sys, time
children = 0
try:
    while children < 1000:
        if os.fork() == 0:
            time.sleep(600)
            os._exit(0)
        children += 1
except OSError:
    pass
print(os.getuid(), children, flush=True)
sys.stdin.read()
"""
#: Forks five children, waits for them, and says so.
FIVE = """
import os
for _ in range(5):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
print(os.getuid(), "forked 5", flush=True)
"""


def line(child: Child) -> str:
    read = child.read_line(time.monotonic() + PATIENCE, "time limit")
    assert read is not None, child.stderr_tail.decode()
    return read.decode()


@needs_root_sandbox
def test_a_program_at_its_process_limit_leaves_another_programs_alone() -> None:
    # Issue 44 F2: every program was uid 65534 and they shared one RLIMIT_NPROC, so one
    # student's fork bomb made another's program fail to fork (and the sandbox's shell).
    limits = Limits(processes=20)
    with Child([sys.executable, "-c", FORKER], limits, Sandbox()) as bomb:
        bomb_uid, children = map(int, line(bomb).split())
        assert 10 <= children < 20  # stopped by its own limit
        with Child([sys.executable, "-c", FIVE], limits, Sandbox()) as other:
            other_uid, said = line(other).split(" ", 1)
            assert said == "forked 5"
            assert other.wait_exit(time.monotonic() + PATIENCE) == 0
    assert bomb_uid != int(other_uid)
    for uid in (bomb_uid, int(other_uid)):
        assert uids.FIRST <= uid < uids.FIRST + uids.COUNT


@pytest.fixture
def one_uid(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """The range narrowed to one uid that is free now, so successive programs share it."""
    for uid in range(uids.FIRST + uids.COUNT - 100, uids.FIRST + uids.COUNT):
        monkeypatch.setattr(uids, "FIRST", uid)
        monkeypatch.setattr(uids, "COUNT", 1)
        try:
            uids.lease().release()
        except MachineError:
            continue
        yield uid
        return
    pytest.skip("no free uid at the end of the range")


#: Stores a key in every keyring a program can reach (``put``), or says which of those
#: keys it finds (``get``), by ``keyctl`` system calls (x86-64 and arm64 numbers).
KEYS = """
import ctypes, os, platform, sys
call = ctypes.CDLL(None, use_errno=True).syscall
call.restype = ctypes.c_long
KEYCTL = {"x86_64": 250, "aarch64": 219}[platform.machine()]
ADD_KEY = {"x86_64": 248, "aarch64": 217}[platform.machine()]
def keyctl(*words):
    return call(KEYCTL, *(ctypes.c_long(w) if isinstance(w, int) else w for w in words))
persistent = keyctl(22, -1, -2)
keyrings = {"session": -3, "user": -4, "user-session": -5, "persistent": persistent}
if sys.argv[1] == "put":
    for name, keyring in keyrings.items():
        call(ADD_KEY, b"user", name.encode(), b"secret", 6, ctypes.c_long(keyring))
found = [
    name for name, keyring in keyrings.items()
    for wanted in (name, "judge")
    if keyctl(10, keyring, b"user", wanted.encode(), 0) > 0
]
print(os.getuid(), " ".join(found) or "nothing", flush=True)
"""


def keys(mode: str) -> tuple[int, str]:
    with Child([sys.executable, "-c", KEYS, mode], Limits(), Sandbox()) as child:
        uid, found = line(child).split(" ", 1)
    return int(uid), found


@needs_root_sandbox
def test_no_key_passes_from_one_program_to_the_next(one_uid: int) -> None:
    # Issue 44, also noted: the uid's keyring carried data between cases and runs. And a
    # session keyring is inherited even across a change of uid: the judge's own included.
    add_key = {"x86_64": 248, "aarch64": 217}.get(os.uname().machine)
    if add_key is None:
        pytest.skip("keyctl's numbers are known for x86-64 and arm64")
    call = ctypes.CDLL(None, use_errno=True).syscall
    assert call(add_key, b"user", b"judge", b"secret", 6, ctypes.c_long(-3)) > 0
    assert keys("put") == (one_uid, "session user user-session persistent")
    assert keys("get") == (one_uid, "nothing")


#: Leases a uid, leaves a process of that uid behind, says both, and waits to be killed.
HOLDER = """
import os, sys, time
from minesweeper.judge import uids
lease = uids.lease()
execed, told = os.pipe()  # close-on-exec: its end of file says the child has exec'd
pid = os.fork()
if pid == 0:
    os.setgroups([]); os.setresgid(lease.uid, lease.uid, lease.uid)
    os.setresuid(lease.uid, lease.uid, lease.uid)
    os.execv("/bin/sleep", ["sleep", "600"])  # without the lock's descriptor (close-on-exec)
os.close(told)
os.read(execed, 1)  # until exec: before it, the child still holds the lock's descriptor
print(lease.uid, pid, flush=True)
time.sleep(600)
"""


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@needs_root_sandbox
def test_a_judge_killed_by_sigkill_leaves_its_uid_to_the_next_lease_clean(one_uid: int) -> None:
    # Two judges share the leases (a lock file per uid); the kernel drops a dead judge's
    # lock, and the next lease kills what was left running as the uid.
    code = f"from minesweeper.judge import uids; uids.FIRST, uids.COUNT = {one_uid}, 1\n"
    holder = subprocess.Popen(
        [sys.executable, "-c", code + textwrap.dedent(HOLDER)],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    leftover = 0
    try:
        assert holder.stdout is not None
        uid, leftover = map(int, holder.stdout.readline().split())
        assert uid == one_uid and alive(leftover)
        with pytest.raises(MachineError, match="is in use"):
            uids.lease()  # held by the other judge
        holder.kill()  # kill -9: no release, the busy mark stays
        holder.wait()
        assert alive(leftover)
        lease = uids.lease()
        try:
            assert lease.uid == one_uid
            deadline = time.monotonic() + PATIENCE
            while alive(leftover) and time.monotonic() < deadline:
                time.sleep(0.01)
            assert not alive(leftover)
        finally:
            lease.release()
    finally:
        holder.kill()
        holder.wait()
        if leftover and alive(leftover):
            with contextlib.suppress(OSError):
                os.kill(leftover, signal.SIGKILL)


#: Spends CPU after reading the board's size, saying on stderr how much it has spent so
#: far every 0.05 s of it, without ever moving.
BURNER = """
import sys, time
sys.stdin.readline()
said = 0.0
while True:
    spent = time.process_time()
    if spent - said >= 0.05:
        print(f"{spent:.3f}", file=sys.stderr, flush=True)
        said = spent
"""


@pytest.mark.parametrize("sandboxed", [True, False], ids=["sandboxed", "unsandboxed"])
def test_a_client_killed_at_its_time_limit_is_charged_its_cpu_time(sandboxed: bool) -> None:
    # Issue 39: "seconds says 0.004 for a 1.2 s CPU run": the judge killed the sandbox
    # with the program, and the program's time was lost with it.
    if sandboxed and sandboxes.missing():
        pytest.skip(f"no sandbox here: {sandboxes.missing()}")
    case = parse_case("2 2\n..\n.X\n0 0\n")
    limits = Limits(move_seconds=1.5)
    run = play_client(
        case, [sys.executable, "-c", BURNER], limits, sandbox=Sandbox() if sandboxed else None
    )
    assert run.problem == "time limit (move 1)"
    spent = float(run.stderr.split()[-1])  # what it had spent when it last said so
    assert spent >= 0.1, run.stderr  # a client that got no CPU tests nothing
    assert spent - 0.02 <= run.cpu_seconds <= spent + 0.5  # times' ticks: user and sys 0.01 s each
    assert run.cpu_seconds <= run.wall_seconds <= limits.move_seconds + 1
