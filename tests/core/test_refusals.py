"""Issue 27: errors quote at most `QUOTE_CHARS` of a value, one refusal gives one line, and
what a write killed halfway leaves behind is removed by the next write."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from minesweeper.cli import main
from minesweeper.limits import QUOTE_CHARS
from minesweeper.play.records import Category, Entry, Records
from minesweeper.variant import Variant

HUGE = "x" * 1000
#: The longest error line a quoted value may give: the message (with the choices it
#: lists), its file name, the quote.
LONGEST = 250


def run(args: list[str]) -> Result:
    result = CliRunner().invoke(main, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def short_line(result: Result, path: Path | None = None, status: int = 2) -> str:
    assert result.exit_code == status, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    line = lines[0].replace(str(path), "FILE") if path is not None else lines[0]
    assert HUGE[: QUOTE_CHARS + 1] not in line
    assert len(line) <= LONGEST, line
    return line


@pytest.fixture
def replay_document(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    monkeypatch.setenv("MINESWEEPER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MINESWEEPER_CONFIG_DIR", str(tmp_path / "config"))
    assert run(["autoplay", "--preset", "beginner", "--quiet", "--seed", "1"]).exit_code == 0
    (saved,) = Records().replays_dir.glob("*.json")
    return json.loads(saved.read_text())


@pytest.mark.parametrize(
    "spoil",
    [
        lambda d: d.update(topology=HUGE),
        lambda d: d.update(first_click=HUGE),
        lambda d: d.update(version=HUGE),
        lambda d: d.update({HUGE: 1}),
        lambda d: d.update(assists=[[HUGE, 0]]),
        lambda d: d["actions"].__setitem__(0, [0, HUGE, 0, 0]),
        lambda d: d["board"].__setitem__(0, HUGE),
    ],
)
def test_replay_errors_quote_a_bad_value_short(
    replay_document: dict, tmp_path: Path, spoil
) -> None:
    spoil(replay_document)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(replay_document))
    short_line(run(["replay", "--stats", str(bad)]), bad)


def test_per_game_log_errors_quote_a_bad_value_short(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    args = ["bench", "--preset", "beginner", "--games", "2", "--strategy", "best", "--jobs", "1"]
    assert run([*args, "--per-game", str(log)]).exit_code == 0
    for field in ("strategy", "seed", "size", "preset"):
        first, *rest = log.read_text().splitlines(keepends=True)
        row = json.loads(first)
        kept = row[field]
        row[field] = HUGE
        log.write_text(json.dumps(row) + "\n" + "".join(rest))
        short_line(run([*args, "--resume", str(log)]), log)
        row[field] = kept
        log.write_text(json.dumps(row) + "\n" + "".join(rest))


def test_option_errors_quote_a_bad_value_short() -> None:
    short_line(run(["autoplay", "--preset", HUGE]))
    short_line(run(["server", "--topology", HUGE]))


def test_grade_of_a_folder_holding_only_a_fifo_is_one_line(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "case.in")
    result = run(["grade", str(tmp_path)])
    assert result.exit_code == 1
    (line,) = result.stderr.splitlines()
    assert "a FIFO" in line and "case.in" in line


KILLED_MID_WRITE = """
import os, signal, sys
from minesweeper.play.records import Category, Entry, Records
from minesweeper.variant import Variant

def killed(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)  # as kill -9 would, between writing and renaming

os.replace = killed
Records(sys.argv[1], sys.argv[2]).add(Category(Variant.parse("9x9/10 modern")),
                                      Entry.make("Ann", 5, 1.0, False))
"""


def test_a_write_killed_halfway_leaves_nothing_after_the_next(tmp_path: Path) -> None:
    path, key = tmp_path / "records.json", tmp_path / "records.key"
    records = Records(path, key)
    records.add(Category(Variant.parse("9x9/10 modern")), Entry.make("Bob", 3, 2.0, False))
    killed = subprocess.run([sys.executable, "-c", KILLED_MID_WRITE, str(path), str(key)])
    assert killed.returncode == -9
    assert len(list(tmp_path.glob(".records-*.tmp"))) == 1  # what kill -9 leaves
    records.add(Category(Variant.parse("9x9/10 modern")), Entry.make("Cy", 4, 2.0, False))
    assert list(tmp_path.glob(".*.tmp")) == []
    assert [e.name for e in records.entries()] == ["Cy", "Bob"]


def test_a_write_in_progress_is_never_removed(tmp_path: Path) -> None:
    """Another live process's temporary file is its own: only a dead writer's are stale."""
    from minesweeper.outputs import write_atomically

    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        theirs = tmp_path / f".records-@{sleeper.pid}-abc.tmp"
        theirs.write_text("half")
        write_atomically(tmp_path / "records.json", b"{}")
        assert theirs.exists()
    finally:
        sleeper.kill()
        sleeper.wait()
    write_atomically(tmp_path / "records.json", b"{}")
    assert not theirs.exists()
