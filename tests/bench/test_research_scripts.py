"""The research scripts' answers to bad input: one line on stderr, a non-zero exit."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from paths import RESEARCH, script

from minesweeper.bench import Deal, resolve_presets
from minesweeper.bench.choices import view_of
from minesweeper.bench.pairing import Reference
from minesweeper.solver.best import Best
from minesweeper.solver.perfect import perfect_play
from minesweeper.variant import Rules

pytestmark = pytest.mark.slow  # research scripts, not the product

time_hill = script("research/hill/time_hill.py")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120)


def decisions(log: Path, preset: str, rules: str, games: int) -> Path:
    """``bench --decisions``' log of `best`'s guesses on ``games`` seeded boards."""
    made = ["-m", "minesweeper", "bench", "--preset", preset, "--rules", rules, "--jobs", "1"]
    made += ["--games", str(games), "--strategy", "best", "--decisions", str(log)]
    assert run(*made).returncode == 0
    return log


@pytest.mark.parametrize(
    ("content", "says"),
    [(None, "cannot read"), ('{"board": 0,\n', "line 1: not a decision log line")],
)
def test_compare_decisions_names_a_bad_log(tmp_path: Path, content: str | None, says: str) -> None:
    log = tmp_path / "his.jsonl"
    if content is not None:
        log.write_text(content)
    done = run(str(RESEARCH / "compare_decisions.py"), str(log), "--strategy", "best")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("compare_decisions: ") and says in done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_compare_decisions_takes_every_board_unless_told(tmp_path: Path) -> None:
    log = decisions(tmp_path / "ours.jsonl", "beginner", "classic", 6)
    lines = log.read_text().splitlines()
    last = {**json.loads(lines[-1]), "board": 500}  # past the first hundred, once the default
    log.write_text("\n".join([*lines[:-1], json.dumps(last)]) + "\n")
    boards = {json.loads(line)["board"] for line in log.read_text().splitlines()}
    compare = [str(RESEARCH / "compare_decisions.py"), str(log), "--layouts", "2"]
    every = run(*compare)
    assert every.returncode == 0, every.stderr
    assert f"ours.jsonl, every board: {len(boards)} boards" in every.stdout
    assert f"positions {len(lines)}: same cell {len(lines)} (100.0%)" in every.stdout
    some = run(*compare, "--boards", "0", "1").stdout
    assert "ours.jsonl, boards 0-1: " in some and f"positions {len(lines)}:" not in some


def test_compare_decisions_calibrates_two_draws_and_refuses_an_old_out(tmp_path: Path) -> None:
    # best's guesses, judged by exact-safest: they often differ
    log = decisions(tmp_path / "best.jsonl", "intermediate", "classic", 6)
    compare = [str(RESEARCH / "compare_decisions.py"), str(log), "--strategy", "exact-safest"]
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
        str(RESEARCH / "hill" / "time_hill.py"),
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


def test_the_research_scripts_share_one_module_and_import_no_other() -> None:
    """No script reaches into another (nor onto the import path): what they share is in
    `common`, and intervals come from `minesweeper.intervals`."""
    scripts = {path.stem for path in RESEARCH.rglob("*.py")}
    for path in RESEARCH.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top == "common" or top not in scripts, f"{path.name} imports {name}"
        assert "sys.path" not in path.read_text(), path.name


def test_common_deals_benchs_boards_and_pairs_variants(tmp_path: Path) -> None:
    common = script("research/common.py")
    (spec,) = resolve_presets(["beginner"])
    deal = Deal.of_preset(spec, Rules.CLASSIC, 5)
    dealt = list(common.preset_boards("beginner", Rules.CLASSIC, 3, 9, offset=2))
    assert [index for index, _, _ in dealt] == [2, 3, 4]
    assert [(b.mines, f) for _, b, f in dealt] == [
        (deal.game(9, i)[0].mines, deal.game(9, i)[1]) for i in (2, 3, 4)
    ]
    log = tmp_path / "games.jsonl"
    with log.open("w") as sink:
        for index, (a, b) in enumerate([(1, 1), (1, 0), (1, 0), (0, 1), (0, 0)]):
            common.write_row(sink, "a", index, bool(a), 0.5)
            common.write_row(sink, "b", index, bool(b), 0.25)
    with log.open("a") as sink:
        sink.write('{"variant": "b", "ind')  # a cut last line, as a killed run leaves it
    report = common.paired_report(common.game_rows([log]))
    assert "a " in report and "3/5" in report and "2/5" in report
    assert "b vs a on 5 games: won only by b: 1, only by a: 2, McNemar p = 1" in report


def test_first_guess_plays_each_cell_first_and_pairs_them(tmp_path: Path) -> None:
    out = tmp_path / "first.jsonl"
    first_guess = RESEARCH / "first_guess.py"
    played = run(str(first_guess), "--preset", "beginner", "--games", "8", "--out", str(out),
                 "0,1", "1,1")  # fmt: skip
    assert played.returncode == 0, played.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert {row["variant"] for row in rows} == {"first=0,1", "first=1,1"} and rows
    report = run(str(first_guess), "--report", str(out))
    assert report.returncode == 0 and "first=1,1 vs first=0,1 on" in report.stdout


def test_the_limit_table_gives_perfect_play_beside_each_strategy() -> None:
    found = run(
        str(RESEARCH / "perfect_play.py"),
        "table",
        "--boards",
        "3x3/2,4x4/2",
        "--strategy",
        "best",
    )
    assert found.returncode == 0, found.stderr
    rows = found.stdout.splitlines()
    assert rows[0] == "| board | first click | layouts | perfect play | best | CPU s |"
    # 3x3 with 2 mines, the corner first: 23 of the 28 layouts won by perfect play, and by
    # best too; the modern first click in the middle leaves no room for 2 mines.
    assert rows[2].startswith(
        "| 3x3/2 | classic (0,0) | 28 | **82.14%** (23/28) | 82.14% (optimal) |"
    )
    assert rows[3] == "| 3x3/2 | modern (middle) | | no mine layout fits the position |"
    assert rows[4].startswith("| 4x4/2 | classic (0,0) | 105 | **97.14%** (34/35) |")
    # gauss-powermean wins 8 of 3x3/3's 56 classic layouts fewer than perfect play.
    fewer = run(
        str(RESEARCH / "perfect_play.py"),
        "table",
        "--boards",
        "3x3/3",
        "--strategy",
        "gauss-powermean",
    )
    assert fewer.returncode == 0, fewer.stderr
    assert "| **58.93%** (33/56) | 44.64% (8 fewer) |" in fewer.stdout.splitlines()[2]
    alone = run(str(RESEARCH / "perfect_play.py"), "table", "--boards", "3x3/3", "--perfect-only")
    assert alone.returncode == 0, alone.stderr
    rows = alone.stdout.splitlines()
    assert rows[0] == "| board | first click | layouts | perfect play | CPU s |"
    assert rows[2].startswith("| 3x3/3 | classic (0,0) | 56 | **58.93%** (33/56) | ")
    modern = run(
        str(RESEARCH / "perfect_play.py"), "table", "--boards", "4x4/2,4x4/3", "--rules", "modern"
    )
    assert modern.returncode == 0, modern.stderr
    rows = modern.stdout.splitlines()[2:]
    assert [row.split(" | ")[:3] for row in rows] == [
        ["| 4x4/2", "modern (middle)", "21"],
        ["| 4x4/3", "modern (middle)", "35"],
    ]


def test_versus_values_another_solvers_guesses_and_bests_against_perfect_play(
    tmp_path: Path,
) -> None:
    position = ["1???", "????", "????"]  # 84 layouts of 3 mines
    guesses = [(0, 1), (1, 2)]  # next to the 1 (costly), and a best move
    log = tmp_path / "log.jsonl"
    log.write_text(
        "".join(
            json.dumps({"board": board, "guess": 1, "row": row, "col": col, "mines_left": 3,
                        "position": position}) + "\n"
            for board, (row, col) in enumerate(guesses)
        )
    )  # fmt: skip
    out = tmp_path / "versus.jsonl"
    found = run(str(RESEARCH / "perfect_play.py"), "versus", str(log), "--out", str(out))
    assert found.returncode == 0, found.stderr
    view = view_of(position, 3)
    play = perfect_play(view)
    ours = play.of(Best().decide(view).opens[0]).won
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(row["theirs"], row["ours"]) for row in rows] == [
        (play.of(view.topology.cell_at(*cell)).won, ours) for cell in guesses
    ]
    assert all((row["perfect"], row["total"]) == (53, 84) for row in rows)
    assert found.stdout.splitlines()[0].endswith(": 2 positions valued (both moves exact)")
    again = run(str(RESEARCH / "perfect_play.py"), "versus", str(log), "--out", str(out))
    assert again.returncode == 0 and len(out.read_text().splitlines()) == 2  # went on: done


def test_far_corner_offers_a_far_corner_exactly_as_safe_as_our_blind_guess(
    tmp_path: Path,
) -> None:
    log, out = decisions(tmp_path / "ours.jsonl", "expert", "classic", 60), tmp_path / "c.jsonl"
    done = run(str(RESEARCH / "far_corner.py"), str(log), "--out", str(out))
    assert done.returncode == 0, done.stderr
    ours = {(row["board"], row["guess"]): row for row in map(json.loads, log.open())}
    offered = [json.loads(line) for line in out.read_text().splitlines()]
    assert offered and f"{len(offered)} guesses" in done.stdout
    for row in offered:
        mine = ours[row["board"], row["guess"]]
        assert {**row, "row": mine["row"], "col": mine["col"]} == mine and row["guess"] >= 2
        assert row["row"] in (0, 15) and row["col"] in (0, 29)
        assert (mine["row"], mine["col"]) not in {(r, c) for r in (0, 15) for c in (0, 29)}
        near = [line[max(0, row["col"] - 2) : row["col"] + 3] for line in mine["position"]]
        assert set("".join(near[max(0, row["row"] - 2) : row["row"] + 3])) == {"?"}
        chances = Best().solve(view_of(mine["position"], mine["mines_left"]))
        ours_cell, corner = (30 * mine["row"] + mine["col"], 30 * row["row"] + row["col"])
        assert abs(chances.chance(ours_cell) - chances.chance(corner)) < 1e-6


def test_headroom_values_the_heavy_choosers_switches_against_bests_own_cell(
    tmp_path: Path,
) -> None:
    log, out = decisions(tmp_path / "ours.jsonl", "expert", "modern", 30), tmp_path / "hr.jsonl"
    asked = [json.loads(line) for line in log.read_text().splitlines()]
    firsts = {r["board"]: r for r in asked if r["guess"] == 1 and r["method"] == "look-ahead"}
    headroom = [str(RESEARCH / "headroom.py"), str(log), "--layouts", "3", "--candidates", "3"]
    done = run(*headroom, "--out", str(out))
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(row["board"] for row in rows) == sorted(firsts) and rows
    for row in rows:
        mine = firsts[row["board"]]
        assert row["cells"][0] == 30 * mine["row"] + mine["col"]  # best's own cell first
        assert len(row["cells"]) <= 3
        if row["switched"]:
            assert row["star"] in row["cells"][1:] and row["error"] > 0
        else:
            assert row["gain"] == row["error"] == 0
    switched = sum(row["switched"] for row in rows)
    assert 0 < switched < len(rows)  # (3 layouts: the first draw's winner is often another)
    assert f"positions {len(rows)}, the heavy chooser switches in {switched} " in done.stdout
    with out.open("a") as sink:
        sink.write('{"board": 99, "gu')  # a cut last line, as a killed run leaves it
    again = run(*headroom, "--out", str(out))  # resumed: nothing left to play
    assert again.returncode == 0 and f"positions {len(rows)}, " in again.stdout
