"""scripts/research/early_guess.py: play-on from a position's candidates, resumable and seeded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from paths import script

from minesweeper.solver import View
from minesweeper.solver.best import Best
from minesweeper.topology import SquareTopology

pytestmark = pytest.mark.slow  # a research script's measurements, not the product

early_guess = script("research/early_guess.py")


def run(*args: str) -> str:
    result = CliRunner().invoke(early_guess.main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def measure(out: Path, layouts: int, seed: int = 3, block: int = 2) -> None:
    run(
        "measure", "--board", "5x5/5", "--shown", "0,0=1", "--cell", "2,2",
        "--layouts", str(layouts), "--seed", str(seed), "--block", str(block), "--out", str(out),
    )  # fmt: skip


def test_a_measurement_is_seeded_and_resumes_where_it_stopped(tmp_path: Path) -> None:
    whole, parts = tmp_path / "whole.jsonl", tmp_path / "parts.jsonl"
    measure(whole, 6)
    measure(parts, 2)
    with parts.open("a") as handle:
        handle.write('{"block": 1, "kin')  # a cut last line, as a killed run leaves it
    measure(parts, 6)
    assert parts.read_text() == whole.read_text()
    lines = whole.read_text().splitlines()
    header = json.loads(lines[0])
    assert len(lines) == 4 and [json.loads(x)["block"] for x in lines[1:]] == [0, 1, 2]
    # `best`'s own choice comes first, then its other candidates and the extra cell.
    view = View(SquareTopology(5, 5), {0: 1}, frozenset(), 5)
    assert header["ours"] == header["cells"][0] == Best(0).decide(view).opens[0]
    assert 12 in header["cells"]
    other = tmp_path / "other.jsonl"
    measure(other, 6, seed=4)
    assert other.read_text() != whole.read_text()


def test_every_layout_is_played_from_each_candidate_safe_in_it(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    measure(out, 8, block=8)
    _, blocks = early_guess.read(out)
    (block,) = blocks
    kinds = block["kinds"]
    assert sum(len(k["games"]) for k in kinds) == 8
    assert abs(sum(k["chance"] for k in kinds) - 1) < 0.05  # all-mine kinds left out
    for kind in kinds:
        for game in kind["games"]:
            assert sorted(int(c) for c in game) == kind["safe"]
            assert set(game.values()) <= {0, 1}


def test_the_report_pairs_each_candidate_with_bests_choice(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    measure(out, 12, block=6)
    header, blocks = early_guess.read(out)
    result = early_guess.playout(header, blocks)
    rows = early_guess.summary(header, result)
    assert [row["cell"] for row in rows] == [list(divmod(c, 5)) for c in header["cells"]]
    ours = rows[0]
    assert ours["gain"] == 0 and ours["gain_error"] == 0
    for row in rows[1:]:
        cell = row["cell"][0] * 5 + row["cell"][1]
        assert row["gain"] == result.win(cell) - result.win(header["ours"])
        assert 0 <= row["gain_error"] < 0.5 and 0 <= row["win"] <= 1
    report = run("report", str(out))
    assert "12 layouts" in report and report.count("vs best's") == len(header["cells"])


def test_a_file_of_another_measurement_is_not_resumed_into(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    measure(out, 2)
    before = out.read_text()
    result = CliRunner().invoke(
        early_guess.main,
        ["measure", "--board", "5x5/6", "--shown", "0,0=1", "--layouts", "2", "--out", str(out)],
    )
    assert result.exit_code == 2 and "holds another measurement" in result.output
    assert out.read_text() == before  # nothing lost
