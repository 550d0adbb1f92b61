"""Foreign programs fenced in with bubblewrap: what a judged program can see and touch.

A `Sandbox` turns a command into a ``bwrap`` command line (`Sandbox.wrap`). The
program then runs with its own PID, network, IPC and UTS namespaces, in a mount
namespace holding only the system's programs and libraries (read-only), its own
files (read-only, see `program_files`; the judge's own installation only for the
judge's own programs, `runs_the_judge`) and an empty private tmpfs as its working
folder, ``HOME`` and ``TMPDIR``; with a clean environment; as an unprivileged user
with no supplementary groups, no capabilities and ``no_new_privs``.

As root, bubblewrap builds the namespaces with root's view of the files, and the
sandbox's init (`INIT`, root) becomes the program with ``setpriv`` (util-linux) as
the user id the judge leased for it (`judge.uids`): outside the sandbox the program
is that user, never the judge's nor another program's. As any other user,
bubblewrap also makes a user namespace, in which the program is uid 65534 and has
no capabilities; outside it is still the judge's uid, fenced by the namespaces
alone (docs/judge.md says what holds then).
"""

from __future__ import annotations

import errno
import functools
import glob
import os
import re
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import minesweeper
from minesweeper.errors import JudgeError
from minesweeper.judge import cgroups

#: The program's user and group inside a user namespace (the judge not root): ``nobody``.
NOBODY = 65534
#: Its working folder, ``HOME`` and ``TMPDIR``: an empty tmpfs of `TMPFS_MIB`, its own.
HOME = "/tmp"
TMPFS_MIB = 64
#: Where the sandbox looks for programs named without a folder.
PATH = "/usr/local/bin:/usr/bin:/bin"
#: The judge's environment variables a program always gets, set to these values.
ENVIRONMENT = {"PATH": PATH, "LANG": "C.UTF-8", "HOME": HOME, "TMPDIR": HOME}
#: The system folders visible read-only (those that exist; a link stays a link).
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: What of /etc a program needs to start: the dynamic linker's cache, ``alternatives``
#: (``/usr/bin/awk``, ``c++`` and ``java`` are links through it), the time zone, and the
#: JVM's configuration (``/usr/lib/jvm/*/conf`` links into ``/etc/java-*``).
ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime", "java-*")
#: The judge's uid as root; the sandbox then drops to `Sandbox.uid` with ``setpriv``.
ROOT = 0
#: The descriptor on which the sandbox's init reports: a word when the program starts, and
#: at its end the CPU time of the program and all it reaped (``times``).
STATUS_FD = 3
#: The sandbox's PID 1: a shell that forks, reports the program's start, runs it (in the
#: fork, without the report's descriptor), waits for it and reports its CPU time, then
#: exits with its status (128 + N for signal N). Its own messages ("Killed") are not the
#: program's: they go nowhere. As root it runs as root (the program
#: becomes its own user with ``setpriv`` in the fork), so a program can neither signal it
#: (init ignores signals from its namespace, and it is another user) nor write its reports;
#: it dies with bubblewrap. The judge ends a program by killing every process below it.
INIT = (
    "/bin/sh",
    "-c",
    'exec 4>&2 2>/dev/null; (echo >&3; exec "$@" 2>&4 3>&- 4>&-); s=$?; command times >&3; exit $s',
    "sh",
)
#: A duration in ``times``' output: ``1m2.345s``.
_DURATION = re.compile(r"(\d+)m(\d+(?:\.\d*)?)s")


class SandboxUnavailable(JudgeError):
    """No sandbox can be made on this machine; the message names what is missing."""


@functools.cache
def missing() -> str:
    """What this machine lacks to make a sandbox, in a phrase; "" when nothing is missing.

    Tried once per process: a trivial program in a sandbox of the kind `Sandbox` makes.
    """
    if not sys.platform.startswith("linux"):
        return f"the sandbox needs Linux namespaces (this is {sys.platform})"
    if shutil.which("bwrap") is None:
        return "bubblewrap is not installed (apt-get install bubblewrap)"
    if os.geteuid() == ROOT and not Path("/usr/bin/setpriv").exists():
        return "setpriv is not installed (apt-get install util-linux)"
    try:
        trial = subprocess.run(
            Sandbox().wrap(["/bin/true"]).argv,
            capture_output=True,
            timeout=10,
            env=ENVIRONMENT,
            cwd="/",
        )
    except (OSError, subprocess.SubprocessError) as error:
        return f"bubblewrap cannot run: {error}"
    if trial.returncode != 0:
        reason = trial.stderr.decode(errors="replace").strip().splitlines() or ["no message"]
        return f"bubblewrap cannot make a sandbox here (user namespaces?): {reason[-1]}"
    return ""


def require() -> None:
    """Raise `SandboxUnavailable` (one line: what is missing) unless a sandbox can be made."""
    lack = missing()
    if lack:
        raise SandboxUnavailable(f"cannot sandbox the program: {lack}; or give --no-sandbox")


@dataclass(frozen=True)
class Jail:
    """A command ready to start in its sandbox: the ``bwrap`` command line and environment."""

    argv: list[str]
    env: dict[str, str]


@dataclass(frozen=True)
class Sandbox:
    """What a foreign program may see besides the system: the rules of one grading run.

    ``hidden`` paths (the graded folders and cases) are covered by an empty tmpfs
    wherever they lie under something visible; ``read_only`` and ``writable``
    are more folders to show (a compiler's source and output folders);
    ``pass_env`` names the judge's environment variables the program also gets.
    ``writable`` folders are given to the sandbox's user when the judge is root.
    """

    hidden: tuple[Path, ...] = ()
    read_only: tuple[Path, ...] = ()
    writable: tuple[Path, ...] = ()
    pass_env: tuple[str, ...] = ()
    uid: int = NOBODY
    gid: int = NOBODY
    #: The judge's own installation, shown read-only so that its programs run.
    own: tuple[Path, ...] = field(default_factory=lambda: _installation())

    def environment(self) -> dict[str, str]:
        """The program's environment: `ENVIRONMENT` and the passed variables the judge has."""
        passed = {name: os.environ[name] for name in self.pass_env if name in os.environ}
        return {**passed, **ENVIRONMENT}

    def wrap(self, command: Sequence[str]) -> Jail:
        """``command`` as a ``bwrap`` command line that runs it in this sandbox.

        The judge's own installation is shown only to the judge's own programs
        (`runs_the_judge`); to any other, its package is hidden even where a system
        folder or the program's own Python would show it.
        """
        argv, files = program_files(command)
        judge = runs_the_judge(argv)
        shown = [*(self.own if judge else ()), *self.read_only, *files]
        if as_root():
            _check_readable(argv[0], files, _outermost(shown))
        options = [*self._namespaces(), *_system()]
        options += ["--proc", "/proc", "--dev", "/dev"]
        options += ["--size", str(TMPFS_MIB * 1024 * 1024), "--tmpfs", HOME]
        options += ["--chmod", "1777", HOME]
        visible = _outermost([*shown, *self.writable])
        for folder in _ancestors(visible):  # traversable, not listable: made, not shown
            options += ["--perms", "0711", "--dir", str(folder)]
        bound = _outermost(shown)
        for path in bound:
            options += ["--ro-bind", str(path), str(path)]
        hidden = _covers(self.hidden, [*_system_folders(), *bound], bound)
        package = [] if judge else _covers([_package()], [*_system_folders(), *bound], [])
        for path in _outermost([*hidden, *package]):  # a file is covered by an empty one
            options += (
                ["--tmpfs", str(path)] if path.is_dir() else ["--ro-bind", "/dev/null", str(path)]
            )
        # Shown again: program files in a hidden folder, folders shown in the judge's package.
        again = [path for path in files if path.is_file() and _within(path, hidden)]
        again += [path for path in self.read_only if _within(path, package)]
        for path in again:
            options += ["--ro-bind", str(path), str(path)]
        for path in self.writable:
            self._give(path)
            options += ["--bind", str(path), str(path)]
        options += ["--chdir", HOME]
        return Jail(["bwrap", *options, "--", *INIT, *self._become(), *argv], self.environment())

    def _namespaces(self) -> list[str]:
        shared = ["--die-with-parent", "--new-session", "--unshare-pid", "--as-pid-1"]
        shared += ["--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
        shared += ["--hostname", "sandbox"]
        if os.geteuid() == ROOT:
            return shared  # no user namespace: `_become` drops root for real
        identity = ["--uid", str(self.uid), "--gid", str(self.gid)]
        return [*shared, "--unshare-user", "--disable-userns", *identity, "--cap-drop", "ALL"]

    def _become(self) -> list[str]:
        """As root: ``setpriv`` to the sandbox's user, no groups, no capabilities at all."""
        if os.geteuid() != ROOT:
            return []
        identity = ["--reuid", str(self.uid), "--regid", str(self.gid), "--clear-groups"]
        return ["setpriv", *identity, "--inh-caps=-all", "--bounding-set=-all", "--"]

    def _give(self, path: Path) -> None:
        if os.geteuid() == ROOT:
            os.chown(path, self.uid, self.gid)


def program_files(command: Sequence[str]) -> tuple[list[str], list[Path]]:
    """``command`` with its paths made absolute, and the files and folders it needs.

    The rule: the program (found on the sandbox's `PATH` first, then on the
    judge's) and every argument that names an existing file (or folder, when
    the argument has a ``/`` or is ``.``: ``-m pkg`` names no folder); for a
    file, its folder too, unless that folder is ``/`` or the judge's home; for
    a script, its ``#!`` interpreter likewise; and for a program in a ``bin``
    folder, the folder above it (a virtual environment, an installation prefix),
    following links. The sandbox's user must be able to read them.
    """
    argv = list(command)
    program = argv[0]
    if "/" not in program and shutil.which(program, path=PATH) is None:
        program = shutil.which(program) or program
    argv[0] = program
    needed: list[Path] = []
    for index, word in enumerate(argv):
        path = Path(word)
        if _names_a_path(word, first=index == 0):
            absolute = Path(os.path.abspath(path))
            argv[index] = str(absolute)
            needed += _needs(absolute)
    return argv, [path for path in dict.fromkeys(needed) if not _system_path(path)]


def runs_the_judge(argv: Sequence[str]) -> bool:
    """Whether a command runs the judge's own programs: its ``minesweeper`` command, or its
    Python with ``-m minesweeper`` (its reference client and server, shown the judge's
    installation to run)."""
    program = Path(argv[0])
    python = Path(sys.executable).resolve()
    if program.name == "minesweeper" and program.is_absolute():
        interpreter = _interpreter(program)
        return interpreter is not None and interpreter.resolve() == python
    if not program.is_absolute() or program.resolve() != python:
        return False
    for index, word in enumerate(argv[1:], 1):
        if word == "-m" or (word.startswith("-m") and len(word) > 2):
            module = word[2:] or (argv[index + 1] if index + 1 < len(argv) else "")
            return module.split(".")[0] == "minesweeper"
        if not word.startswith("-"):
            return False  # a script
    return False


def _covers(hidden: Iterable[Path], bound: Iterable[Path], own: Iterable[Path]) -> list[Path]:
    """Where an empty tmpfs goes so that no hidden path can be seen: each hidden path, as
    given and as resolved, wherever it lies in a ``bound`` folder, at the place that folder
    shows it (a folder shown by a path through a link shows its real folder); and each of
    the program's ``own`` folders that lies in a hidden one."""
    forms = {form for path in hidden for form in _forms(path)}
    points = []
    for folder in bound:
        real = Path(os.path.realpath(folder))
        for form in forms:
            if _under(form, folder):
                points.append(form)
            if _under(form, real):
                points.append(folder / form.relative_to(real))
    for folder in own:
        if any(_under(mine, form) for mine in _forms(folder) for form in forms):
            points.append(folder)
    return _outermost(points)


def _within(path: Path, folders: Iterable[Path]) -> bool:
    return any(_under(path, folder) for folder in folders)


def _forms(path: Path) -> set[Path]:
    """A path as given (absolute) and as resolved (its links followed)."""
    return {Path(os.path.abspath(path)), Path(os.path.realpath(path))}


def _system_folders() -> list[Path]:
    """The system folders shown (`SYSTEM`: those that are folders, not links)."""
    return [
        Path(folder) for folder in SYSTEM if os.path.isdir(folder) and not os.path.islink(folder)
    ]


def _check_readable(program: str, files: list[Path], roots: list[Path]) -> None:
    """Raise `PermissionError` unless others (the sandbox's user) may read the program's
    files, run the program, and cross the folders between them and what is shown."""
    for path in files:
        if not path.is_file():
            continue
        root = next(root for root in roots if _under(path, root))
        folders = [folder for folder in path.parents if _under(folder, root)]
        needed = [(folder, stat.S_IXOTH) for folder in folders]
        needed.append((path, stat.S_IROTH | (stat.S_IXOTH if str(path) == program else 0)))
        for where, bits in needed:
            try:
                mode = where.stat().st_mode
            except OSError:
                continue
            if mode & bits != bits:
                raise PermissionError(
                    errno.EACCES,
                    f"{where} is not open to the sandbox's user (chmod -R o+rX {root})",
                )


def _names_a_path(word: str, first: bool) -> bool:
    """Whether a word of a command names a path: a file, or a folder if the word has a
    ``/`` or is ``.`` (``-m minesweeper`` names a module, not the folder of that name)."""
    try:
        if "/" in word or word in (".", ".."):
            return os.path.exists(word)
        return not first and os.path.isfile(word)
    except (OSError, ValueError):
        return False


def _needs(path: Path, depth: int = 0) -> list[Path]:
    """``path``, its folder or prefix, and those of what it links to or runs (``#!``)."""
    found = [path]
    if path.is_file():
        folder = path.parent
        if folder.name == "bin" and (folder.parent / "pyvenv.cfg").exists():
            folder = folder.parent  # a virtual environment: its packages too
        elif folder.name == "bin":
            folder = folder.parent
        if folder not in (Path("/"), Path.home()):
            found.append(folder)
    if depth < 4:
        if path.is_symlink():
            target = Path(os.path.normpath(path.parent / os.readlink(path)))
            found += _needs(target, depth + 1)
        interpreter = _interpreter(path)
        if interpreter is not None:
            found += _needs(interpreter, depth + 1)
    return found


def _interpreter(path: Path) -> Path | None:
    """The program a ``#!`` script names, if ``path`` is one."""
    try:
        with path.open("rb") as file:
            first = file.readline(256)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].split()
    return Path(os.fsdecode(words[0])) if words and words[0].startswith(b"/") else None


def _system_path(path: Path) -> bool:
    return any(_under(path, Path(folder)) for folder in (*SYSTEM, "/etc"))


def _under(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _outermost(paths: Iterable[Path]) -> list[Path]:
    """``paths`` without those inside another one, outermost first."""
    unique = sorted(set(paths), key=lambda path: len(path.parts))
    kept: list[Path] = []
    for path in unique:
        if not any(_under(path, outer) for outer in kept):
            kept.append(path)
    return kept


def _ancestors(paths: Iterable[Path]) -> list[Path]:
    """The folders above ``paths`` (``/`` and `HOME` excepted), each once, outermost first."""
    above = {parent for path in paths for parent in path.parents}
    above -= {Path("/"), Path(HOME)}  # the tmpfs stays writable
    return sorted(above, key=lambda path: len(path.parts))


def _system() -> list[str]:
    options: list[str] = []
    for folder in SYSTEM:
        if os.path.islink(folder):
            options += ["--symlink", os.readlink(folder), folder]
        elif os.path.isdir(folder):
            options += ["--ro-bind", folder, folder]
    # Made open to every user first: bubblewrap, as root, would make it 0700 for its binds.
    options += ["--perms", "0755", "--dir", "/etc"]
    for pattern in ETC:
        for path in sorted(glob.glob(f"/etc/{pattern}")) if "*" in pattern else [f"/etc/{pattern}"]:
            options += ["--ro-bind-try", path, path]
    return options


def _package() -> Path:
    """The judge's package folder."""
    return Path(minesweeper.__file__).resolve().parent


def _installation() -> tuple[Path, ...]:
    """The judge's Python and its package folder: shown so `minesweeper client` runs."""
    package = _package()
    prefixes = {Path(sys.prefix), Path(sys.base_prefix), Path(sys.base_prefix).resolve()}
    return tuple(path for path in (*sorted(prefixes), package) if not _system_path(path))


def program_cpu(report: bytes) -> float | None:
    """The program's CPU seconds from its init's report (None when there is none): the
    user and system times of the init's children, ``times``' second line."""
    lines = report.decode("ascii", errors="replace").split("\n")
    durations = _DURATION.findall(lines[2]) if len(lines) > 2 and lines[0] == "" else []
    if len(durations) != 2:
        return None
    return sum(int(minutes) * 60 + float(seconds) for minutes, seconds in durations)


def as_root() -> bool:
    """Whether the judge runs as root (and the sandbox then runs programs as `NOBODY`)."""
    return os.geteuid() == ROOT


def describe(sandbox: Sandbox | None) -> str:
    """The first line of a report, within 80 columns: how the programs ran. Without a
    cgroup per program (`cgroups.missing` says why), the memory limit holds per process."""
    if sandbox is None:
        return "unsandboxed (--no-sandbox): programs ran as this user, with its files, network"
    who = "a uid per program" if as_root() else "the judge's uid"
    memory = "per process" if cgroups.missing() else "per program"
    passed = f"; passed environment: {', '.join(sandbox.pass_env)}" if sandbox.pass_env else ""
    return f"sandboxed (bubblewrap): {who}, no network, memory limit {memory}{passed}"
