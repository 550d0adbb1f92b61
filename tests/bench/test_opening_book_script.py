"""scripts/opening_book.py: play-on from a position's candidates, resumable and seeded,
and the book written from it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from click.testing import CliRunner

from minesweeper.solver import View
from minesweeper.solver.best import Best
from minesweeper.solver.book import OpeningBook
from minesweeper.topology import SquareTopology

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "opening_book.py"


def load():
    spec = importlib.util.spec_from_file_location("opening_book", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(*args: str) -> str:
    result = CliRunner().invoke(load().main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def measure(out: Path, layouts: int, seed: int = 3) -> None:
    run(
        "measure", "--board", "5x5/5", "--shown", "0,0=1", "--cell", "2,2",
        "--layouts", str(layouts), "--seed", str(seed), "--block", "20", "--out", str(out),
    )  # fmt: skip


def test_a_measurement_is_seeded_and_resumes_where_it_stopped(tmp_path: Path) -> None:
    whole, parts = tmp_path / "whole.jsonl", tmp_path / "parts.jsonl"
    measure(whole, 60)
    measure(parts, 20)
    with parts.open("a") as handle:
        handle.write('{"block": 1, "kin')  # a cut last line, as a killed run leaves it
    measure(parts, 60)
    assert parts.read_text() == whole.read_text()
    lines = whole.read_text().splitlines()
    header = json.loads(lines[0])
    assert len(lines) == 4 and [json.loads(x)["block"] for x in lines[1:]] == [0, 1, 2]
    # `best`'s own choice comes first, then its other candidates and the extra cell.
    view = View(SquareTopology(5, 5), {0: 1}, frozenset(), 5)
    assert header["ours"] == header["cells"][0] == Best(0).decide(view).opens[0]
    assert 12 in header["cells"]
    other = tmp_path / "other.jsonl"
    measure(other, 60, seed=4)
    assert other.read_text() != whole.read_text()


def test_every_layout_is_played_from_each_candidate_safe_in_it(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    measure(out, 20)
    _, blocks = load().read(out)
    (block,) = blocks
    kinds = block["kinds"]
    assert sum(len(k["games"]) for k in kinds) == 20
    assert abs(sum(k["chance"] for k in kinds) - 1) < 0.05  # all-mine kinds left out
    for kind in kinds:
        for game in kind["games"]:
            assert sorted(int(c) for c in game) == kind["safe"]
            assert set(game.values()) <= {0, 1}


def test_the_book_takes_the_measured_best_cell_only_when_it_wins_clearly(tmp_path: Path) -> None:
    script = load()
    out = tmp_path / "m.jsonl"
    measure(out, 100)
    header, blocks = script.read(out)
    rows = script.summary(header, script.playout(header, blocks))
    top = max(rows, key=lambda row: row["gain"])
    book = tmp_path / "book.json"
    run("build", str(out), "--margin", "0", "--out", str(book))
    entries = OpeningBook.read(book).entries
    if top["gain"] > 0:  # the top candidate, recomputed, is the book's entry
        (entry,) = entries
        assert list(entry.cell) == top["cell"] and entry.revealed == ((0, 0, 1),)
        assert entry.evidence["layouts"] == 100 and entry.evidence["seed"] == 3
    else:
        assert entries == []
    strict = tmp_path / "strict.json"
    run("build", str(out), "--margin", "1000", "--out", str(strict))
    assert OpeningBook.read(strict).entries == []  # no cell beats best by 1000 errors
    report = run("report", str(out))
    assert "100 layouts" in report and report.count("vs best's") == len(header["cells"])
