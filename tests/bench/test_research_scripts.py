"""The research scripts' answers to bad input: one line on stderr, a non-zero exit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from paths import SCRIPTS, script

from minesweeper.bench.pairing import Reference

time_hill = script("hill/time_hill.py")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    ("content", "says"),
    [(None, "cannot read"), ('{"board": 0,\n', "line 1: not a decision log line")],
)
def test_compare_decisions_names_a_bad_log(tmp_path: Path, content: str | None, says: str) -> None:
    log = tmp_path / "his.jsonl"
    if content is not None:
        log.write_text(content)
    done = run(str(SCRIPTS / "compare_decisions.py"), str(log), "--strategy", "best")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("compare_decisions: ") and says in done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_compare_decisions_takes_every_board_unless_told(tmp_path: Path) -> None:
    log = tmp_path / "ours.jsonl"
    made = ["-m", "minesweeper", "bench", "--preset", "beginner", "--rules", "classic"]
    made += ["--games", "6", "--strategy", "best", "--jobs", "1", "--decisions", str(log)]
    assert run(*made).returncode == 0
    lines = log.read_text().splitlines()
    last = {**json.loads(lines[-1]), "board": 500}  # past the first hundred, once the default
    log.write_text("\n".join([*lines[:-1], json.dumps(last)]) + "\n")
    boards = {json.loads(line)["board"] for line in log.read_text().splitlines()}
    compare = [str(SCRIPTS / "compare_decisions.py"), str(log), "--layouts", "2"]
    every = run(*compare)
    assert every.returncode == 0, every.stderr
    assert f"ours.jsonl, every board: {len(boards)} boards" in every.stdout
    assert f"positions {len(lines)}: same cell {len(lines)} (100.0%)" in every.stdout
    some = run(*compare, "--boards", "0", "1").stdout
    assert "ours.jsonl, boards 0-1: " in some and f"positions {len(lines)}:" not in some


def test_compare_decisions_calibrates_two_draws_and_refuses_an_old_out(tmp_path: Path) -> None:
    log = tmp_path / "best.jsonl"  # best's guesses, judged by exact-safest: they often differ
    made = ["-m", "minesweeper", "bench", "--preset", "intermediate", "--rules", "classic"]
    made += ["--games", "6", "--strategy", "best", "--jobs", "1", "--decisions", str(log)]
    assert run(*made).returncode == 0
    compare = [str(SCRIPTS / "compare_decisions.py"), str(log), "--strategy", "exact-safest"]
    for seed in ("0", "1"):
        done = run(*compare, "--layouts", "8", "--seed", seed, "--out", str(tmp_path / seed))
        assert done.returncode == 0, done.stderr
    judged = sum("difference" in line for line in (tmp_path / "0").read_text().splitlines())
    assert judged > 0
    both = run(*compare, "--report", str(tmp_path / "0"), "--calibrate", str(tmp_path / "1"))
    assert both.returncode == 0, both.stderr
    assert f"a second draw of {judged} positions: squared differences" in both.stdout
    old = tmp_path / "old.jsonl"  # a line of the format before play-on counted exact safeties
    row = {"board": 0, "guess": 1, "theirs": 4, "ours": 5, "ours_certain": False, "strata": []}
    old.write_text(json.dumps(row) + "\n")
    refused = run(*compare, "--out", str(old))
    assert refused.returncode == 1 and len(refused.stderr.splitlines()) == 1
    assert "line 1: not a compared position" in refused.stderr
    missing = run(*compare, "--report", str(tmp_path / "none.jsonl"))
    assert missing.returncode == 1 and "none.jsonl: no such file" in missing.stderr


def test_time_hill_names_a_missing_board_file(tmp_path: Path) -> None:
    missing = tmp_path / "boards.txt"
    done = run(
        str(SCRIPTS / "hill" / "time_hill.py"),
        *("--hill", str(tmp_path), "decisions", "--boards", str(missing), "--out", "x.jsonl"),
    )
    assert done.returncode == 1
    assert done.stderr == f"time_hill: --boards {missing}: no such file\n"


def test_time_hills_results_file_is_what_bench_reads_as_a_reference(tmp_path: Path) -> None:
    games = [time_hill.Game(0, True, 1.0, 0), time_hill.Game(1, False, 2.0, 3)]
    path = tmp_path / "b.dh-results.txt"
    path.write_text(time_hill.results_text(games))
    assert Reference.read(path).won == {0: True, 1: False}
    again = time_hill.read_reference(path)  # and fidelity's reader: the guess counts too
    assert [(g.won, g.guesses) for g in again.values()] == [(True, 0), (False, 3)]
    assert path.read_text().splitlines()[-1] == "SUMMARY played=2 won=1"


def test_time_hill_keeps_a_runs_strategy_and_will_not_mix_two(tmp_path: Path) -> None:
    assert time_hill.run_strategy(tmp_path) == "best"  # a run from before --strategy
    time_hill.check_strategy(tmp_path, "best:regions=1")
    time_hill.check_strategy(tmp_path, "best:regions=1")  # resuming the same: fine
    assert time_hill.run_strategy(tmp_path) == "best:regions=1"
    with pytest.raises(SystemExit) as stopped:
        time_hill.check_strategy(tmp_path, "best")
    assert "times --strategy best:regions=1, not best" in str(stopped.value)


def test_time_hill_keeps_how_a_run_ran_our_modules_and_will_not_mix_two(tmp_path: Path) -> None:
    assert time_hill.run_modules(tmp_path) == "unknown"  # a run from before the record
    time_hill.check_modules(tmp_path, "compiled")
    time_hill.check_modules(tmp_path, "compiled")
    assert time_hill.run_modules(tmp_path) == "compiled"
    with pytest.raises(SystemExit) as stopped:
        time_hill.check_modules(tmp_path, "source: best")  # a stale build, say
    assert "ran our modules compiled, this block source: best" in str(stopped.value)
