"""`minesweeper advanced` end to end: result lines, the trace, replay, bad input."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from doubles import register_doubles
from paths import ROOT

from minesweeper.advanced import DEFAULT_STRATEGY
from minesweeper.boards.cases import format_case
from minesweeper.boards.generate import random_board
from minesweeper.cli import main
from minesweeper.cli.advanced import advanced
from minesweeper.server import serve
from minesweeper.solver.registry import STRATEGIES, find_strategy
from minesweeper.topology import SquareTopology, find_topology


@pytest.fixture(autouse=True)
def _doubles(monkeypatch: pytest.MonkeyPatch) -> None:
    register_doubles(monkeypatch)


def case_text(rows: int, cols: int, mines: int, seed: int) -> str:
    topology = SquareTopology(rows, cols)
    first = topology.cell_at(rows // 2, cols // 2)
    board = random_board(topology, mines, random.Random(seed), first, "zero")
    return format_case(board, first)


def run(args: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, args, input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_prints_the_two_result_lines(tmp_path: Path) -> None:
    path = tmp_path / "case.in"
    path.write_text(case_text(8, 8, 10, 1))
    status, out, err = run(["advanced", "--strategy", "first-unknown", str(path)])
    assert status == 0, err
    verdict, counts = out.splitlines()
    assert verdict in ("YOU WIN!", "GAME OVER!")
    visits, steps = map(int, counts.split())
    assert 1 <= visits <= 54 and steps >= 1
    assert err == ""


@pytest.mark.parametrize("seed", range(4))
def test_the_trace_replays_on_the_server(seed: int) -> None:
    text = case_text(9, 9, 12, seed)
    status, out, err = run(["advanced", "--strategy", "seeded-guess", "--trace"], stdin=text)
    assert status == 0
    lines = err.splitlines()
    first_click = text.splitlines()[-1]
    assert lines[0] == first_click
    # The trace alternates a move line and a 9-row map.
    moves = lines[::10]
    maps = ["\n".join(lines[i + 1 : i + 10]) + "\n" for i in range(0, len(lines), 10)]
    assert len(lines) % 10 == 0
    # Replaying the moves on the judge gives the same maps and the same result lines.
    board_text = "\n".join(text.splitlines()[:-1]) + "\n"
    stdout = io.StringIO()
    serve(io.StringIO(board_text + "\n".join(moves) + "\n"), stdout)
    printed = stdout.getvalue().splitlines()
    assert "\n".join(printed[:-2]) + "\n" == "?????????\n" * 9 + "".join(maps)
    assert "\n".join(printed[-2:]) + "\n" == out


def test_same_seed_same_moves() -> None:
    text = case_text(10, 10, 20, 5)
    args = ["advanced", "--strategy", "seeded-guess", "--seed", "3", "--trace"]
    assert run(args, text) == run(args, text)


def test_default_strategy_is_gauss_powermean() -> None:
    option = next(p for p in advanced.params if p.name == "strategy")
    assert option.default == DEFAULT_STRATEGY == "gauss-powermean"


def test_default_strategy_plays_when_registered() -> None:
    find_strategy("first-unknown")  # fills the registry
    if DEFAULT_STRATEGY not in STRATEGIES:
        pytest.skip(f"{DEFAULT_STRATEGY} is not registered yet")
    status, out, err = run(["advanced"], case_text(16, 16, 30, 2))
    assert status == 0, err
    assert out.splitlines()[0] in ("YOU WIN!", "GAME OVER!")


def test_acm_conformance_cases_play() -> None:
    directory = ROOT / "testcases" / "acm-2023" / "advanced"
    assert len(list(directory.glob("*.in"))) == 5
    for path in sorted(directory.glob("*.in")):
        status, out, err = run(["advanced", "--strategy", "first-unknown", str(path)])
        assert status == 0, err
        assert len(out.splitlines()) == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2 2\n..\n.X\n", "line 4: input ended where the first click was expected"),
        ("2 2\n..\n.Y\n0 0\n", "line 3: unexpected character 'Y'"),
        ("2 2\n..\n.X\n5 5\n", "line 4: move '5 5'"),
        ("2 2\n..\n.X\n0 0\n1 1\n", "line 5: unexpected text after the first click: '1 1'"),
    ],
)
def test_bad_input_is_one_line_and_status_2(text: str, message: str) -> None:
    status, out, err = run(["advanced", "--strategy", "first-unknown"], text)
    assert status == 2
    assert out == ""
    assert len(err.splitlines()) == 1
    assert message in err


def test_unknown_strategy() -> None:
    status, _, err = run(["advanced", "--strategy", "nope"], "1 2\n.X\n0 0\n")
    assert status == 2
    assert "unknown strategy 'nope'" in err


@pytest.mark.parametrize("topology", ["hex", "triangle", "tromino", "graph"])
def test_other_topologies_play_through_map_text(topology: str) -> None:
    kind = find_topology(topology)
    rng = random.Random(11)
    shape = kind.random(6, 6, rng)
    first = shape.size // 2
    board = random_board(shape, 3, rng, first, "zero")
    status, out, err = run(
        ["advanced", "--topology", topology, "--strategy", "first-unknown", "--trace"],
        format_case(board, first),
    )
    assert status == 0, err
    assert out.splitlines()[0] in ("YOU WIN!", "GAME OVER!")
    assert err.splitlines()[0] == " ".join(map(str, shape.move_of(first)))


def test_several_files_and_folders_play_every_case(tmp_path: Path) -> None:
    # Two named files, and a folder holding an advanced case, a basic pair (not played)
    # and a hex case in a folder named hex (played as hex).
    first, second = tmp_path / "a.in", tmp_path / "b.in"
    first.write_text(case_text(8, 8, 10, 1))
    second.write_text(case_text(9, 9, 10, 2))
    folder = tmp_path / "more"
    (folder / "hex").mkdir(parents=True)
    (folder / "c.in").write_text(case_text(6, 6, 5, 3))
    (folder / "basic.in").write_text("1 2\n.X\n0 0\n")
    (folder / "basic.out").write_text("??\n1@\nYOU WIN!\n1 1\n")
    (folder / "hex" / "h.in").write_text("2 3\n..X\n...\n0 0\n")
    args = ["advanced", "--strategy", "first-unknown", str(first), str(second), str(folder)]
    status, out, err = run(args)
    assert status == 0, err
    lines = out.splitlines()
    headings = [line for line in lines if line.startswith("==> ")]
    assert headings == [
        f"==> {first} <==",
        f"==> {second} <==",
        f"==> {folder / 'c.in'} <==",
        f"==> {folder / 'hex' / 'h.in'} <==",
    ]
    results = [lines[index + 1] for index, line in enumerate(lines) if line.startswith("==> ")]
    assert set(results) <= {"YOU WIN!", "GAME OVER!"}
    # Each result is what the case alone gives.
    alone = run(["advanced", "--strategy", "first-unknown", str(second)])[1]
    assert out.split(f"==> {second} <==\n")[1].startswith(alone)
    hexes = run(
        ["advanced", "--strategy", "first-unknown", "--topology", "hex"], "2 3\n..X\n...\n0 0\n"
    )
    assert out.endswith(hexes[1])


def test_several_inputs_refuse_standard_input(tmp_path: Path) -> None:
    path = tmp_path / "a.in"
    path.write_text(case_text(8, 8, 10, 1))
    status, _, err = run(["advanced", str(path), "-"])
    assert status == 2
    assert "standard input ('-') is one case" in err
