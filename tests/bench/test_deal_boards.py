"""scripts/deal_boards.py: bench's seeded boards written to a file, read back the same."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from minesweeper.bench import Deal, resolve_presets
from minesweeper.boards.cases import parse_cases
from minesweeper.variant import Rules

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "deal_boards.py"


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
