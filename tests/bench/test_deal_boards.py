"""scripts/research/deal_boards.py: bench's seeded boards written to a file, read back the same."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from paths import RESEARCH

from minesweeper.bench import Deal, resolve_presets
from minesweeper.boards.cases import AdvancedCase, parse_cases
from minesweeper.variant import Rules

SCRIPT = RESEARCH / "deal_boards.py"


def test_the_file_holds_benchs_boards_and_first_clicks_in_order(tmp_path: Path) -> None:
    out = tmp_path / "deal.txt"
    args = ["--preset", "intermediate", "--rules", "modern", "--seed", "19", "--games", "5"]
    subprocess.run([sys.executable, str(SCRIPT), *args, "--out", str(out)], check=True)
    cases = parse_cases(out.read_text())
    (spec,) = resolve_presets(["intermediate"])
    deal = Deal.of_preset(spec, Rules.MODERN, 5)
    assert len(cases) == 5
    for i, case in enumerate(cases):
        board, first = deal.game(19, i)
        assert case.first == first
        assert case.board.mines == board.mines
    assert out.read_text().endswith("\n\n")


def deal(tmp_path: Path, name: str, *extra: str) -> list[AdvancedCase]:
    out = tmp_path / name
    args = ["--preset", "expert", "--rules", "modern", "--seed", "19", "--games", "4", *extra]
    subprocess.run([sys.executable, str(SCRIPT), *args, "--out", str(out)], check=True)
    return parse_cases(out.read_text())


def cell(case: AdvancedCase, row: int, col: int) -> int:
    return row * case.board.topology.cols + col


def place(how: str, r: int, c: int, rows: int, cols: int) -> tuple[int, int]:
    """Where a twin puts the cell at (r, c) of a rows x cols board."""
    return {
        "transpose": (c, r),
        "flip-rows": (rows - 1 - r, c),
        "flip-cols": (r, cols - 1 - c),
        "turn": (rows - 1 - r, cols - 1 - c),
    }[how]


def test_a_twin_is_each_board_turned_or_mirrored_with_its_first_click(tmp_path: Path) -> None:
    plain = deal(tmp_path, "plain.txt")
    for how in ("transpose", "flip-rows", "flip-cols", "turn"):
        twins = deal(tmp_path, f"{how}.txt", "--twin", how)
        for a, b in zip(plain, twins, strict=True):
            rows, cols = a.board.topology.rows, a.board.topology.cols
            assert b.first == cell(b, *place(how, *divmod(a.first, cols), rows, cols))
            moved = {cell(b, *place(how, *divmod(m, cols), rows, cols)) for m in a.board.mines}
            assert b.board.mines == moved
            # the opening shown at the first click is the same game's
            assert b.board.counts[b.first] == a.board.counts[a.first]
            shape = (b.board.topology.rows, b.board.topology.cols)
            assert shape == ((30, 16) if how == "transpose" else (16, 30))
