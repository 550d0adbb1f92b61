"""scripts/research/first_divergence.py: where two decision logs of the same boards part."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from paths import RESEARCH

SCRIPT = RESEARCH / "first_divergence.py"


def guess(board: int, k: int, rows: list[str], cell: tuple[int, int], **kw: object) -> dict:
    line = {"board": board, "guess": k, "row": cell[0], "col": cell[1], "safety": 0.5}
    return {**line, "method": "m", "hit_mine": False, "position": rows, **kw}


def write(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def run(
    tmp_path: Path,
    first: list[dict],
    second: list[dict],
    games: int,
    printed: list[str] | None = None,
) -> list[dict]:
    listed = tmp_path / "parted.jsonl"
    a, b = write(tmp_path / "a.jsonl", first), write(tmp_path / "b.jsonl", second)
    args = [str(a), str(b), "--games", str(games), "--list", str(listed)]
    done = subprocess.run([sys.executable, str(SCRIPT), *args], check=True, capture_output=True)
    assert f"{games} games" in done.stdout.decode()
    if printed is not None:
        printed += done.stdout.decode().splitlines()
    return [json.loads(line) for line in listed.read_text().splitlines()]


def test_games_part_at_the_first_other_cell_or_position(tmp_path: Path) -> None:
    start, later, other = ["1?", "??"], ["12", "??"], ["1?", "3?"]
    first = [
        # board 0: the same first guess, then other cells in the same position (a cell
        # the first log's player knows is a mine, F, is hidden): parts at guess 2, a choice
        guess(0, 1, start, (0, 1)),
        guess(0, 2, ["12", "F?"], (1, 1), hit_mine=True),
        # board 1: the same game throughout (both lose): never parts
        guess(1, 1, start, (1, 1), hit_mine=True),
        # board 2: the first log's player sees another position at guess 2: a deduction
        guess(2, 1, start, (0, 1)),
        guess(2, 2, ["12", "F?"], (1, 1)),
        # board 3: won without a guess by the first, lost by the second: a deduction
    ]
    second = [
        guess(0, 1, start, (0, 1)),
        guess(0, 2, later, (1, 0)),
        guess(1, 1, start, (1, 1), hit_mine=True),
        guess(2, 1, start, (0, 1)),
        guess(2, 2, other, (0, 1), hit_mine=True),
        guess(3, 1, start, (1, 0), hit_mine=True),
    ]
    printed: list[str] = []
    parted = {p["board"]: p for p in run(tmp_path, first, second, 4, printed)}
    assert sorted(parted) == [0, 2, 3]
    assert parted[0]["kind"] == "choice" and parted[0]["theirs"]["guess"] == 2
    assert (parted[0]["theirs_won"], parted[0]["ours_won"]) == (False, True)
    assert parted[2]["kind"] == "deduction" and parted[2]["ours"]["position"] == other
    assert (parted[2]["theirs_won"], parted[2]["ours_won"]) == (True, False)
    assert parted[3]["kind"] == "deduction" and parted[3]["theirs"] is None
    assert parted[3]["theirs_won"] and not parted[3]["ours_won"]
    # board 0 parted at two cells of 1/2, one of them a mine: a coin decided it
    (coin,) = [line.split() for line in printed if "a coin at the parting" in line]
    assert coin[-4:-1] == ["1", "0", "1"]


def test_cells_a_symmetry_of_the_position_swaps_are_a_mirror_tie(tmp_path: Path) -> None:
    corner = ["1??", "???", "???"]  # the first click in a corner: a transpose keeps it
    edge = ["?1?", "???", "???"]  # in mid-edge: a mirror of the columns keeps it
    first = [guess(0, 1, corner, (0, 2)), guess(1, 1, edge, (2, 0)), guess(2, 1, edge, (0, 2))]
    second = [guess(0, 1, corner, (2, 0)), guess(1, 1, edge, (2, 2)), guess(2, 1, edge, (2, 0))]
    kinds = {p["board"]: p["kind"] for p in run(tmp_path, first, second, 3)}
    assert kinds == {0: "mirror", 1: "mirror", 2: "choice"}


def test_a_bad_log_is_one_line_naming_the_file_and_line(tmp_path: Path) -> None:
    good = write(tmp_path / "good.jsonl", [guess(0, 1, ["??"], (0, 0))])
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps(guess(0, 1, ["??"], (0, 1))) + "\n" + '{"board": 0,\n')
    short = write(tmp_path / "short.jsonl", [{"board": 0, "guess": 1}])
    for bad, says in (
        (broken, f"{broken} line 2: not JSON"),
        (short, f"{short} line 1: no row, col, safety, method, hit_mine, position"),
        (tmp_path / "absent.jsonl", "cannot read it"),
    ):
        args = [sys.executable, str(SCRIPT), str(good), str(bad), "--games", "1"]
        done = subprocess.run(args, capture_output=True, text=True)
        assert done.returncode == 1
        assert done.stderr.startswith("first_divergence: ") and says in done.stderr
        assert len(done.stderr.splitlines()) == 1 and done.stdout == ""


def test_positions_are_the_first_logs_lines_of_the_partings_in_the_rows_asked(
    tmp_path: Path,
) -> None:
    corner = ["1??", "???", "???"]
    safer, same = {"safety": 0.9}, {"safety": 0.5}
    first = [guess(b, 1, corner, (2, 2), **same) for b in range(3)]
    second = [
        guess(0, 1, corner, (0, 2), **safer),  # ours safer
        guess(1, 1, corner, (1, 2), **same),  # the same safety
        guess(2, 1, corner, (2, 2), **same),  # the same cell: no parting
    ]
    a, b = write(tmp_path / "a.jsonl", first), write(tmp_path / "b.jsonl", second)
    out = tmp_path / "positions.jsonl"

    def positions(*where: str) -> subprocess.CompletedProcess[str]:
        args = [str(a), str(b), "--games", "3", "--positions", str(out)]
        args += [part for w in where for part in ("--where", w)]
        return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)

    assert positions().returncode == 0
    assert [json.loads(line) for line in out.read_text().splitlines()] == first[:2]
    assert positions("ours safer", "guess 1").returncode == 0
    assert [json.loads(line) for line in out.read_text().splitlines()] == first[:1]
    typo = positions("ours safe")
    assert typo.returncode == 1 and typo.stderr.startswith("first_divergence: --where 'ours safe'")
