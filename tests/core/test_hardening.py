"""Issue 14's reproducers: no input, file or size makes a command crash, hang or write astray.

Each test runs the command in-process and expects the promise: exit status 0
or 2 (1 where a command reports failed cases), one ``minesweeper:`` line on
stderr per problem, no traceback, nothing written where it was not asked for.
A regression shows as a hang, a MemoryError or a wrong message, not as a timing.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from paths import ROOT

from minesweeper import limits
from minesweeper.boards.cases import load_cases
from minesweeper.boards.noguess import NoGuessFailed, no_guess_board
from minesweeper.cli import main
from minesweeper.errors import NotAFileError
from minesweeper.play.records import Category, Entry, Records
from minesweeper.solver.prover import ExactProver
from minesweeper.topology import SquareTopology
from minesweeper.variant import Variant

BOARD = b"2 2\n..\n.X\n"
CASE = BOARD + b"0 0\n"
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
NEEDS_FIFO = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


def run(args: list[str], stdin: bytes | None = None) -> Result:
    result = CliRunner().invoke(main, args, input=stdin)
    assert "Traceback" not in result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def one_error(result: Result, *words: str, status: int = 2) -> str:
    """The single stderr line of ``result``, checked for ``words`` and ``status``."""
    assert result.exit_code == status, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("minesweeper: ")
    for word in words:
        assert word in lines[0]
    return lines[0]


# -- bytes that are not text ---------------------------------------------------------------


def test_the_judge_keeps_a_game_won_before_a_bad_byte() -> None:
    result = run(["server"], b"1 2\n.X\n0 0\n\xff\n")
    assert result.exit_code == 0
    assert result.stdout == "??\n1@\nYOU WIN!\n1 1\n"
    assert result.stderr == ""


def test_a_bad_byte_mid_game_keeps_the_maps_and_names_its_line() -> None:
    result = run(["server"], BOARD + b"0 0\n\xff\n")
    assert result.stdout == "??\n??\n1?\n??\n"
    one_error(result, "line 5", "0xff", "not UTF-8")


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (["advanced", "--strategy", "worlds"], CASE.replace(b"0 0", b"0 0\xff")),
        (["analyze"], b"2 2\n?1\n\xff?\n"),
        (["topology", "export", "-"], b"2 2\n..\n\xc3(\n"),
        (["topology", "show", "-"], b"2 2\n..\n\x00.\n"),
    ],
)
def test_every_reader_names_the_line_of_a_bad_byte(args: list[str], text: bytes) -> None:
    line = one_error(run(args, text), "line")
    assert "UTF-8" in line or "control character" in line


def test_utf8_that_is_not_ascii_is_named_as_a_character() -> None:
    one_error(run(["server"], "2 2\n..\n.é\n".encode()), "line 3", "'é'", "ASCII")


def test_grade_and_bench_boards_report_a_file_of_bad_bytes(tmp_path: Path) -> None:
    (tmp_path / "bad.in").write_bytes(b"\xff\xfe")
    (tmp_path / "bad2.in").write_bytes(BOARD + b"\xff\n")
    (tmp_path / "bad2.out").write_bytes(b"??\n??\n")
    result = run(["grade", str(tmp_path)])
    assert result.exit_code == 1
    assert "not UTF-8" in result.stdout
    with pytest.raises(Exception, match=r"bad\.in: line 1: byte 0xff at column 1 is not UTF-8"):
        load_cases(tmp_path / "bad.in")


# -- grade's search: links, FIFOs, devices, unreadable folders -----------------------------


def test_grade_names_a_link_loop_a_broken_link_and_a_device(tmp_path: Path) -> None:
    (tmp_path / "good.in").write_bytes(CASE)
    (tmp_path / "a.in").symlink_to("a.in")
    (tmp_path / "gone.in").symlink_to("nowhere")
    if Path("/dev/zero").exists():
        (tmp_path / "zero.in").symlink_to("/dev/zero")
    result = run(["grade", "--strategy", "gauss-powermean", str(tmp_path)])
    assert result.exit_code == 1
    errors = result.stderr.splitlines()
    assert any("a.in" in e and "symbolic links" in e for e in errors)
    assert any("gone.in" in e for e in errors)
    if Path("/dev/zero").exists():
        assert any("zero.in" in e and "character device" in e for e in errors)
    assert all(e.startswith("minesweeper: ") and e.endswith("(not graded)") for e in errors)
    assert "1/1 won" in result.stdout or "0/1 won" in result.stdout


@NEEDS_FIFO
def test_a_fifo_among_cases_never_blocks_grade_or_bench(tmp_path: Path) -> None:
    (tmp_path / "good.in").write_bytes(CASE)
    os.mkfifo(tmp_path / "x.in")
    result = run(["grade", str(tmp_path)])
    assert result.exit_code == 1
    assert "x.in: a FIFO, not a regular file (not graded)" in result.stderr
    with pytest.raises(NotAFileError, match=r"x\.in: a FIFO"):
        load_cases(tmp_path)


def test_an_unreadable_sub_folder_is_reported_with_status_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "good.in").write_bytes(CASE)
    locked = tmp_path / "locked"
    locked.mkdir()
    scandir = os.scandir

    def refusing(path: os.PathLike[str] | str = ".") -> object:
        if Path(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)  # chmod cannot lock root out
    result = run(["grade", str(tmp_path)])
    assert result.exit_code == 1
    assert "locked: cannot list: Permission denied (not graded)" in result.stderr


def test_the_judge_refuses_an_endless_device() -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    one_error(run(["server", "/dev/zero"]), "line 1")


# -- generate --out --------------------------------------------------------------------------


def test_generate_refuses_a_file_as_its_folder(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    one_error(run(["generate", "--out", str(tmp_path / "file")]), "--out", "is a file")
    if Path("/dev/null").exists():
        one_error(run(["generate", "--out", "/dev/null"]), "/dev/null is not a folder")


def test_generated_boards_get_the_umasks_mode(tmp_path: Path) -> None:
    """Boards are for sharing: written aside and moved in place, yet not private."""
    old = os.umask(0o022)
    try:
        result = run(["generate", "--count", "2", "--seed", "1", "--out", str(tmp_path)])
    finally:
        os.umask(old)
    assert result.exit_code == 0
    modes = {stat.S_IMODE(path.stat().st_mode) for path in tmp_path.iterdir()}
    assert modes == {0o644}


@pytest.mark.skipif(IS_ROOT, reason="root writes into read-only folders")
def test_generate_refuses_a_read_only_folder(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        one_error(run(["generate", "--out", str(folder)]), "cannot write in", "ermission")
    finally:
        folder.chmod(0o755)


def test_generate_reports_a_folder_it_cannot_write_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*args: object, **kwargs: object) -> tuple[int, str]:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refused)
    one_error(run(["generate", "--out", str(tmp_path)]), "cannot write in", "Permission denied")


def test_generate_never_writes_through_a_dangling_link(tmp_path: Path) -> None:
    out = tmp_path / "D"
    out.mkdir()
    outside = tmp_path / "outside.in"
    (out / "beginner-001.in").symlink_to(outside)
    for force in ([], ["--force"]):
        one_error(run(["generate", "--out", str(out), *force]), "symbolic link")
        assert not outside.exists()


def test_generate_force_never_overwrites_a_links_target(tmp_path: Path) -> None:
    out = tmp_path / "D"
    out.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    (out / "beginner-002.in").symlink_to(victim)
    one_error(run(["generate", "--count", "3", "--out", str(out), "--force"]), "symbolic link")
    assert victim.read_text() == "precious\n"
    assert not (out / "beginner-001.in").exists()  # refused before any work


@pytest.mark.parametrize("to_folder", [True, False])
def test_generate_writes_each_board_as_it_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, to_folder: bool
) -> None:
    from minesweeper.cli import generate as command

    made = []
    real = command.random_board

    def interrupted_at_the_third(*args: object, **kwargs: object) -> object:
        if len(made) == 2:
            raise KeyboardInterrupt  # the user gives up while the third board is drawn
        made.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(command, "random_board", interrupted_at_the_third)
    out = ["--out", str(tmp_path)] if to_folder else []
    result = run(["generate", "--count", "1000000000", *out])
    if to_folder:
        assert sorted(p.name for p in tmp_path.iterdir()) == [
            "beginner-001.in",
            "beginner-002.in",
        ]
    else:
        assert result.stdout.count("9 9\n") == 2


# -- sizes -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["generate", "--rows", "100000", "--cols", "100000", "--mines", "10"],
        ["topology", "export", "--rows", "100000", "--cols", "100000"],
        ["topology", "show", "--rows", "30000", "--cols", "30000"],
        ["topology", "show", "--topology", "domino", "--rows", "1000", "--cols", "1000"],
        ["topology", "export", "--rows", "1000", "--cols", "1000"],
        ["play", "--rows", "100000", "--cols", "100000", "--mines", "10"],
        ["autoplay", "--rows", "100000", "--cols", "100000", "--mines", "10"],
        ["autoplay", "--rows", "300", "--cols", "300", "--mines", "20000"],
    ],
)
def test_huge_sizes_are_refused_at_once(args: list[str]) -> None:
    one_error(run(args), "at most")


@pytest.mark.parametrize(
    ("topology", "header"),
    [("square", b"100000 100000"), ("domino", b"1000 1000"), ("graph", b"200000 1")],
)
def test_huge_headers_are_refused_before_anything_is_read(topology: str, header: bytes) -> None:
    one_error(run(["server", "--topology", topology], header + b"\n"), "line 1", "too large")


def test_a_graph_with_too_many_edges_is_refused() -> None:
    one_error(run(["server", "--topology", "graph"], b"2 99999999\n..\n"), "line 1", "edges")


def test_a_huge_line_costs_little_and_is_quoted_short() -> None:
    line = b"1" * (limits.MAX_LINE_BYTES + 10)
    result = run(["server"], BOARD + line + b"\n")
    one_error(result, "line 4", "longer than 2 MiB")
    long_move = b"1 " * (limits.MAX_LINE_BYTES // 3)
    result = run(["server"], BOARD + long_move + b"\n")
    assert len(one_error(result, "line 4", "expected a move")) < 200


def test_whole_files_are_read_up_to_the_file_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    from minesweeper import inputs

    monkeypatch.setattr(inputs, "MAX_FILE_BYTES", 100)
    one_error(run(["analyze"], b"2 2\n" + b"\n" * 200), "standard input", "larger than")


def test_no_guess_search_gives_up_in_time() -> None:
    topology = SquareTopology(60, 60)
    with pytest.raises(NoGuessFailed, match=r"in 0\.5 s"):
        no_guess_board(topology, 1000, topology.cell_at(30, 30), prover=ExactProver, seconds=0.5)


# -- records -----------------------------------------------------------------------------------


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Records:
    monkeypatch.setenv("MINESWEEPER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MINESWEEPER_CONFIG_DIR", str(tmp_path / "config"))
    records = Records()
    records.add(Category(Variant.parse("9x9/10 modern")), Entry.make("Ann", 1, 1.0, False))
    return records


@pytest.mark.parametrize("content", [b"[" * 100_000, b'{"a": ' + b"9" * 5000 + b"}"])
def test_damaged_records_are_refused_by_every_reader(store: Records, content: bytes) -> None:
    store.path.write_bytes(content)
    for args in (["records"], ["records", "verify"]):
        one_error(run(args), "failed its check", "not valid JSON")
    result = run(["autoplay", "--quiet", "--seed", "1"])
    assert result.exit_code == 0
    assert "points" in result.stdout  # the game's result is still shown
    assert "failed its check" in result.stderr
    (aside,) = store.path.parent.glob("records.damaged-*.json")  # kept aside, not lost
    assert aside.read_bytes() == content


@NEEDS_FIFO
def test_a_fifo_or_a_folder_as_the_records_files_is_one_line_and_never_blocks(
    store: Records,
) -> None:
    signed = store.path.read_bytes()
    store.path.unlink()
    os.mkfifo(store.path)  # opened blocking, this would wait for a writer for ever
    one_error(run(["records"]), "is a FIFO, not a regular file")
    store.path.unlink()
    store.path.mkdir()
    one_error(run(["records", "verify"]), "is a folder, not a regular file")
    store.path.rmdir()
    store.path.write_bytes(signed)
    store.key_path.unlink()
    os.mkfifo(store.key_path)
    one_error(run(["records", "verify"]), "cannot read the records key", "FIFO")


def test_a_signature_with_a_non_ascii_character_fails_the_check(store: Records) -> None:
    document = json.loads(store.path.read_text())
    document["signature"] = "\u00e9" + document["signature"][1:]  # found by the fuzz script
    store.path.write_text(json.dumps(document))
    one_error(run(["records", "verify"]), "the signature does not match")


def test_a_key_that_is_a_folder_is_one_line(store: Records) -> None:
    store.key_path.unlink()
    store.key_path.mkdir()
    one_error(run(["records", "verify"]), "cannot read the records key")


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_a_key_other_users_can_read_is_refused(store: Records) -> None:
    store.key_path.chmod(0o644)
    one_error(run(["records", "verify"]), "open to other users", "chmod 600")
    store.key_path.chmod(0o600)
    assert run(["records", "verify"]).exit_code == 0
    assert stat.S_IMODE(store.key_path.stat().st_mode) == 0o600


@pytest.mark.skipif(IS_ROOT, reason="root reads any file")
def test_an_unreadable_key_is_one_line(store: Records) -> None:
    store.key_path.chmod(0o000)
    try:
        one_error(run(["records", "verify"]), "cannot read the records key")
    finally:
        store.key_path.chmod(0o600)


@pytest.mark.parametrize(("field", "value"), [("mines", True), ("rows", False), ("cols", 9.0)])
def test_a_signed_category_of_the_wrong_type_is_refused(
    store: Records, field: str, value: object
) -> None:
    # `"mines": true` in a records file signed with its key was shown as "True mines".
    from minesweeper.play.records import _sign, load_key

    document = json.loads(store.path.read_text())
    del document["signature"]
    document["tables"][0]["category"][field] = value
    key = load_key(store.key_path, create=False)
    assert key is not None
    document["signature"] = _sign(key, document)
    store.path.write_text(json.dumps(document))
    one_error(run(["records"]), "failed its check", "malformed")


def test_records_file_stays_signed_json(store: Records) -> None:
    document = json.loads(store.path.read_text())
    assert document["format"] == "minesweeper-records"


# -- messages --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["generate", "--rows", "0"], ("generate:", "--rows")),
        (["generate", "--nope"], ("generate:", "--nope")),
        (["grade"], ("grade:", "Missing argument")),
        (["records", "verify", "--x"], ("records verify:", "--x")),
        (["server", "/nonexistent/board.in"], ("server:", "/nonexistent/board.in")),
        (["no-such-command"], ("no-such-command",)),
    ],
)
def test_usage_errors_are_one_line(args: list[str], words: tuple[str, ...]) -> None:
    line = one_error(run(args), *words)
    assert "Usage:" not in line


def test_help_is_unchanged() -> None:
    result = run(["generate", "--help"])
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: ")
    assert "generate [OPTIONS]" in result.stdout.splitlines()[0]
    assert "--out" in result.stdout


ARABIC_THREE, FULLWIDTH_ONE, FULLWIDTH_THREE, ARABIC_ZERO = "\u0663", "\uff11", "\uff13", "\u0660"


@pytest.mark.parametrize(
    "header",
    [
        f"{ARABIC_THREE} 3",
        f"{FULLWIDTH_ONE} {FULLWIDTH_ONE}",
        "1_0 3",
        "+2 3",
        "3 3.0",
        f"{FULLWIDTH_THREE} 3",
    ],
)
def test_numbers_are_ascii_digits(header: str) -> None:
    one_error(run(["server"], header.encode() + b"\n...\n...\n...\n"), "line 1")


def test_moves_are_ascii_digits_too() -> None:
    result = run(["server"], BOARD + f"{ARABIC_ZERO} {ARABIC_ZERO}\n".encode())
    assert result.stdout == "??\n??\n"
    one_error(result, "line 4")


@pytest.mark.parametrize("content", [b"[" * 100_000, b'{"a": ' + b"9" * 5000 + b"}"])
def test_a_damaged_replay_is_a_replay_error(content: bytes) -> None:
    from minesweeper.play.replay import Replay, ReplayError

    with pytest.raises(ReplayError):
        Replay.from_bytes(content)


def test_the_client_command_names_a_bad_byte_from_its_judge() -> None:
    one_error(run(["client"], b"2 2\n\xff?\n"), "line 2", "0xff")


@pytest.mark.parametrize("line", [b"[" * 100_000, b'{"a": ' + b"9" * 5000 + b"}"])
def test_a_damaged_per_game_log_line_is_an_input_error(tmp_path: Path, line: bytes) -> None:
    from minesweeper.bench.gamelog import _read_rows
    from minesweeper.errors import InputError

    log = tmp_path / "games.jsonl"
    log.write_bytes(b'{"seed": 1}\n' + line + b"\n")
    with pytest.raises(InputError, match=r"line 2: .*not a line of a per-game log"):
        _read_rows(log)


@pytest.mark.parametrize("command", [["bench", "--games", "1", "--preset", "beginner"], ["grade"]])
def test_reports_never_replace_a_link(tmp_path: Path, command: list[str]) -> None:
    """--json is replaced whole at the end: a link there is refused before any work."""
    target = tmp_path / "elsewhere.json"
    target.write_text("kept")
    link = tmp_path / "report.json"
    link.symlink_to(target)
    cases = [str(ROOT / "testcases" / "basic")] if command == ["grade"] else []
    result = run([*command, "--json", str(link), *cases])
    assert result.exit_code == 2, result.output
    assert "symbolic link" in result.stderr and len(result.stderr.splitlines()) == 1
    assert target.read_text() == "kept" and link.is_symlink()
