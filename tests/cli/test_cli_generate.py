"""`minesweeper generate` end to end: valid cases, reproducible, never overwriting silently."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from minesweeper.boards.cases import parse_cases
from minesweeper.boards.noguess import solvable
from minesweeper.cli import main
from minesweeper.solver.prover import find_prover
from minesweeper.topology import TOPOLOGIES


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["generate", *args])
    return result.exit_code, result.stdout, result.stderr


def test_prints_one_board_with_its_first_click() -> None:
    code, out, _ = run("--preset", "expert", "--seed", "1")
    assert code == 0
    [case] = parse_cases(out)
    board, first = case.board, case.first
    assert board.topology.shape == (16, 30) and board.mine_count == 99
    assert board.topology.move_of(first) == (3, 3)  # the preset's first click
    assert not any(board.is_mine(c) for c in (first, *board.topology.neighbours(first)))


def test_custom_size_first_click_and_rule() -> None:
    code, out, _ = run(
        "--rows", "6", "--cols", "7", "--mines", "40", "--first", "0", "6",
        "--first-click", "safe", "--seed", "2", "--count", "3",
    )  # fmt: skip
    assert code == 0
    cases = parse_cases(out)
    assert len(cases) == 3
    for case in cases:
        assert case.board.mine_count == 40 and case.board.topology.move_of(case.first) == (0, 6)
        assert not case.board.is_mine(case.first)


def test_same_seed_same_boards(tmp_path: Path) -> None:
    args = ("--preset", "intermediate", "--count", "4", "--seed", "9")
    assert run(*args, "--out", str(tmp_path / "a"))[0] == 0
    assert run(*args, "--out", str(tmp_path / "b"))[0] == 0
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert files == [f"intermediate-00{i}.in" for i in range(1, 5)]
    for name in files:
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()
    assert run(*args[:-1], "10")[1] != run(*args)[1]
    assert run(*args)[1] == run(*args)[1]


def test_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    target = tmp_path / "out"
    assert run("--seed", "1", "--count", "2", "--out", str(target))[0] == 0
    before = (target / "beginner-001.in").read_text()
    code, _, err = run("--seed", "2", "--count", "2", "--out", str(target))
    assert code == 2
    assert "already exists" in err and "--force" in err
    assert (target / "beginner-001.in").read_text() == before
    assert run("--seed", "2", "--count", "2", "--out", str(target), "--force")[0] == 0
    assert (target / "beginner-001.in").read_text() != before


def test_no_guess_boards_pass_their_prover() -> None:
    for prover in ("subset", "exact"):
        code, out, _ = run(
            "--preset", "intermediate", "--no-guess", "--prover", prover, "--seed", "5",
            "--count", "2",
        )  # fmt: skip
        assert code == 0
        for case in parse_cases(out):
            assert solvable(case.board, case.first, find_prover(prover))


def test_bad_settings_are_one_line_errors() -> None:
    for args in (
        ("--topology", "tetromino", "--rows", "9", "--cols", "9"),
        ("--rules", "modern", "--first-click", "safe"),
        ("--rows", "3", "--cols", "3", "--mines", "9"),
        ("--first", "20", "0"),
        ("--rows", "3", "--cols", "3", "--mines", "8", "--first-click", "opening"),
    ):
        code, _, err = run(*args)
        assert code == 2, args
        assert err.startswith("minesweeper: ") and err.count("\n") == 1, err


def test_every_topology_reads_back() -> None:
    for name in sorted(TOPOLOGIES):
        code, out, err = run(
            "--topology", name, "--rows", "8", "--cols", "12", "--mines", "4", "--seed", "3",
            "--count", "2",
        )  # fmt: skip
        assert code == 0, (name, err)
        cases = parse_cases(out, topology=TOPOLOGIES[name])
        assert len(cases) == 2
        for case in cases:
            board = case.board
            assert board.topology.name == name and board.mine_count == 4
            assert not any(
                board.is_mine(c) for c in (case.first, *board.topology.neighbours(case.first))
            )


def test_a_preset_sized_graph_starts_at_the_presets_node() -> None:
    # 16x16 with 40 mines is the intermediate preset: its start (2, 2) is node 2 * 16 + 2.
    code, out, err = run("--topology", "graph", "--rows", "16", "--cols", "16", "--mines", "40")
    assert code == 0, err
    assert out.splitlines()[-1] == "34"
