"""`minesweeper analyze` end to end: both formats, errors, agreement with the engine."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

from click.testing import CliRunner
from positions import mesh

from minesweeper.boards.position import read_position
from minesweeper.cli import main
from minesweeper.solver.probability import probabilities

# The 1s next to the known mine clear (0,1) and (2,0)-(2,1); the 2 needs one
# more mine among five cells.
POSITION = "3 4\n1???\n1F2?\n????\n"


def run(*args: str, text: str = POSITION):
    return CliRunner().invoke(main, ["analyze", *args], input=text)


def run_alone(*args: str, text: str = POSITION) -> subprocess.CompletedProcess[str]:
    """``minesweeper analyze ARGS`` as its own process, as a person runs it: a time limit
    is the process's CPU time, and in a test process a garbage collection of its large
    heap takes tens of ms that no guard can stop."""
    return subprocess.run(
        [sys.executable, "-m", "minesweeper", "analyze", *args],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )


def test_json_has_exactly_the_documented_fields() -> None:
    result = run("--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert set(doc) == {
        "rows",
        "cols",
        "probabilities",
        "safe",
        "mines",
        "solutions",
        "best",
        "approximate",
        "counted",
    }
    assert doc["approximate"] is False
    assert (doc["rows"], doc["cols"]) == (3, 4)
    assert doc["probabilities"] == [
        [None, 0.0, 0.2, 0.2],
        [None, 1.0, None, 0.2],
        [0.0, 0.0, 0.2, 0.2],
    ]
    assert doc["safe"] == [[0, 1], [2, 0], [2, 1]]
    assert doc["mines"] == [[1, 1]]
    assert doc["solutions"] == "5"
    assert doc["best"] in doc["safe"]


def test_json_probabilities_are_the_engines_floats() -> None:
    text = "4 5\n?????\n?21??\n?1???\n?????\n"
    doc = json.loads(run("--format", "json", "--mines", "4", text=text).stdout)
    view = read_position(text.splitlines(), mine_count=4)
    exact = probabilities(view)
    for cell in exact:
        r, c = view.topology.position(cell)
        assert doc["probabilities"][r][c] == float(exact[cell])
    assert doc["solutions"] == str(exact.layouts)
    assert int(doc["solutions"]) > 0
    r, c = doc["best"]
    assert exact[view.topology.cell_at(r, c)] < Fraction(1)


def test_known_count_changes_the_odds() -> None:
    unknown = json.loads(run("--format", "json", text="1 4\n1???\n").stdout)
    known = json.loads(run("--format", "json", "--mines", "1", text="1 4\n1???\n").stdout)
    # One mine in all: the cells beyond the 1's reach are safe.
    assert known["probabilities"][0] == [None, 1.0, 0.0, 0.0]
    assert known["solutions"] == "1"
    assert unknown["probabilities"][0][1] == 1.0
    assert 0 < unknown["probabilities"][0][2] < 1
    assert unknown["solutions"] == "4"


def test_text_shows_percentages_certain_cells_and_best_move() -> None:
    result = run()
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "20%" in out
    assert "safe" in out
    assert "layouts that fit: 5" in out
    assert "certain safe: (0,1) (2,0) (2,1)" in out
    assert "best move: " in out and "(safe)" in out
    assert "[safe]" in out


def test_text_best_guess_when_nothing_is_certain() -> None:
    result = run("--mines", "2", text="3 3\n?1?\n???\n???\n")
    assert result.exit_code == 0, result.output
    assert "guess" in result.stdout.splitlines()[-1]


def test_inconsistent_position_is_one_line_and_exit_2() -> None:
    for args, text in [((), "2 2\n1?\n?0\n"), (("--mines", "5"), POSITION)]:
        result = run(*args, text=text)
        assert result.exit_code == 2
        assert result.stdout == ""
        assert len(result.stderr.splitlines()) == 1
        assert "no mine layout fits" in result.stderr


def test_malformed_input_names_the_line() -> None:
    cases = {
        "3 4\n1???\n1F2\n????\n": "line 3",
        "3 4\n1???\n1F2#\n????\n": "unexpected character '#'",
        "3 4\n1???\n": "line 3",
        "x 4\n": "line 1",
        "2 2\n9?\n??\n": "more than the cell's 3 neighbours",
        "1 2\n??\n??\n": "unexpected text after the position",
    }
    for text, message in cases.items():
        result = run(text=text)
        assert result.exit_code == 2, text
        assert len(result.stderr.splitlines()) == 1
        assert message in result.stderr, (text, result.stderr)


def test_other_topology_and_file_argument(tmp_path) -> None:
    path = tmp_path / "position.txt"
    path.write_text("2 3\n1??\n???\n")
    result = CliRunner().invoke(
        main, ["analyze", "--topology", "hex", "--format", "json", str(path)]
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["probabilities"][0][0] is None
    assert abs(sum(p for row in doc["probabilities"] for p in row if p is not None)) > 0


def test_tiling_and_graph_positions_follow_their_board_formats() -> None:
    # Dominoes: both characters of a piece show it; piece ids follow the map.
    text = "2 4\n11??\n????\n0 0 1 1\n2 2 3 3\n"
    doc = json.loads(run("--topology", "domino", "--format", "json", text=text).stdout)
    assert doc["probabilities"][0][:2] == [None, None]
    assert doc["probabilities"][1][0] == doc["probabilities"][1][1]
    # Graph: N E, one row of N characters, E edges. Node 0 shows 1, its only neighbour is 1.
    result = run("--topology", "graph", "--format", "json", text="4 3\n1???\n0 1\n1 2\n2 3\n")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["mines"] == [[0, 1]]
    # A piece shown two ways, a bad edge: one line, exit 2.
    for args, text in [
        (("--topology", "domino"), "2 4\n1???\n????\n0 0 1 1\n2 2 3 3\n"),
        (("--topology", "graph"), "4 3\n1???\n0 1\n1 2\n2 9\n"),
    ]:
        bad = run(*args, text=text)
        assert bad.exit_code == 2
        assert len(bad.stderr.splitlines()) == 1


def mesh_text(rows: int, cols: int) -> tuple[str, int]:
    """`test_probability.mesh` as analyze's input, with its mine count."""
    view = mesh(rows, cols)
    height, width = view.topology.shape
    lines = [f"{height} {width}"]
    for r in range(height):
        row = ""
        for c in range(width):
            cell = view.topology.cell_at(r, c)
            row += str(view.revealed[cell]) if cell in view.revealed else "?"
        lines.append(row)
    return "\n".join(lines) + "\n", view.mine_count


def test_past_the_budget_the_answer_says_it_is_approximate() -> None:
    text, mines = mesh_text(10, 20)
    args = ("--mines", str(mines), "--format", "json")
    exact = json.loads(run(*args, text=text).stdout)
    rough = json.loads(run(*args, "--memory-limit", "0.0001", text=text).stdout)
    assert exact["approximate"] is False and rough["approximate"] is True
    # Leaving constraints out keeps the certain cells certain.
    assert {tuple(c) for c in rough["safe"]} <= {tuple(c) for c in exact["safe"]}
    assert rough["probabilities"] != exact["probabilities"]
    shown = run("--mines", str(mines), "--memory-limit", "0.0001", text=text).stdout
    assert "approximate" in shown.splitlines()[1]
    assert "approximate" not in run("--mines", str(mines), text=text).stdout


def test_no_time_left_still_answers_a_small_position_exactly() -> None:
    # Counting and walking back a count this small costs less than cutting it short would save.
    hurried = run_alone("--format", "json", "--time-limit", "0")
    assert hurried.returncode == 0, hurried.stderr
    assert hurried.stdout == run("--format", "json").stdout


def test_time_limit_bounds_a_wide_frontier() -> None:
    text, mines = mesh_text(16, 30)
    result = run_alone("--mines", str(mines), "--format", "json", "--time-limit", "0", text=text)
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["approximate"] is True
    assert doc["best"] is not None


def expert_position(seed: int) -> str:
    """A 16x30 position of 99 mines with about half of the safe cells open."""
    import random

    rng = random.Random(seed)
    mines = set(rng.sample(range(480), 99))

    def count(row: int, col: int) -> int:
        near = [(r, c) for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)]
        return sum(r * 30 + c in mines for r, c in near if 0 <= r < 16 and 0 <= c < 30)

    rows = [
        "".join(
            "?" if r * 30 + c in mines or rng.random() < 0.5 else str(count(r, c))
            for c in range(30)
        )
        for r in range(16)
    ]
    return "16 30\n" + "\n".join(rows) + "\n"


def test_an_expert_map_fits_80_columns_in_blocks_of_columns() -> None:
    """It was 214 columns wide, the certain mines' line 265."""
    text = expert_position(5)
    shown = CliRunner().invoke(
        main, ["analyze", "--mines", "99"], input=text, env={"COLUMNS": "80"}
    )
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    assert max(map(len, lines)) <= 80
    headers = [
        line.split() for line in lines if line.startswith("    ") and line.split()[0].isdigit()
    ]
    assert [int(col) for header in headers for col in header] == list(range(30))
    rows = [line for line in lines if line[:4].strip().isdigit() and not line.startswith("    ")]
    assert len(rows) == 16 * len(headers)  # every row in every block
    wide = CliRunner().invoke(
        main, ["analyze", "--mines", "99"], input=text, env={"COLUMNS": "250"}
    )
    assert len(wide.output.splitlines()[1].split()) == 30  # one block where it fits
