"""MBF board files and board files in general: reading, writing, and the commands using them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from minesweeper.board import Board
from minesweeper.boards.cases import default_first, load_board, load_cases
from minesweeper.boards.mbf import MbfError, read_mbf, write_mbf
from minesweeper.cli import main
from minesweeper.errors import InputError
from minesweeper.play.stats import bbbv
from minesweeper.topology import TOPOLOGIES, HexTopology, SquareTopology


def test_the_bytes_of_a_hand_made_board() -> None:
    # 3 columns, 2 rows, mines at (row 0, col 2) and (row 1, col 0).
    board = Board(SquareTopology(2, 3), [2, 3])
    data = bytes([3, 2, 0, 2, 2, 0, 0, 1])
    assert write_mbf(board) == data
    assert read_mbf(data) == board


@given(
    st.integers(1, 20).flatmap(
        lambda rows: st.integers(1, 20).flatmap(
            lambda cols: st.tuples(
                st.just(rows),
                st.just(cols),
                st.sets(st.integers(0, rows * cols - 1), max_size=rows * cols - 1),
            )
        )
    )
)
def test_round_trip(shape: tuple[int, int, set[int]]) -> None:
    rows, cols, mines = shape
    board = Board(SquareTopology(rows, cols), mines)
    assert read_mbf(write_mbf(board)) == board


def test_a_mine_count_over_255_takes_two_bytes() -> None:
    board = Board(SquareTopology(30, 30), range(300))
    data = write_mbf(board)
    assert data[2:4] == bytes([1, 44]) and len(data) == 4 + 600
    assert read_mbf(data) == board


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "too short"),
        (bytes([3, 2, 0]), "too short"),
        (bytes([0, 2, 0, 0]), "has no cells"),
        (bytes([2, 1, 0, 2, 0, 0, 1, 0]), "leave no safe cell"),
        (bytes([3, 2, 0, 2, 2, 0]), "truncated: 2 mine(s) take 8 bytes, the file has 6"),
        (bytes([3, 2, 0, 1, 2, 0, 0]), "too long"),
        (bytes([3, 2, 0, 1, 3, 0]), "byte 4: mine at column 3, row 0 is off the 3x2 board"),
        (bytes([3, 2, 0, 2, 1, 1, 1, 1]), "byte 6: mine at column 1, row 1 is listed twice"),
    ],
)
def test_bad_bytes_are_named(data: bytes, message: str) -> None:
    with pytest.raises(MbfError) as raised:
        read_mbf(data)
    assert message in str(raised.value)


def test_what_mbf_cannot_hold() -> None:
    with pytest.raises(MbfError, match="square boards only"):
        write_mbf(Board(HexTopology(3, 3), [0]))
    with pytest.raises(MbfError, match="up to 255x255"):
        write_mbf(Board(SquareTopology(256, 1), [0]))


def test_default_first_is_the_zero_nearest_the_middle() -> None:
    # 3x5, mines on the left column: zeros at columns 2-4; the middle (1, 2) is one.
    board = Board(SquareTopology(3, 5), [0, 5, 10])
    assert default_first(board) == 7
    # No zero at all: the safe cell nearest the middle.
    checker = Board(SquareTopology(3, 3), [0, 2, 4, 6, 8])
    assert default_first(checker) == 1


# -- files ------------------------------------------------------------------------------------


def test_load_board_reads_mbf_and_text(tmp_path: Path) -> None:
    board = Board(SquareTopology(2, 3), [2, 3])
    (tmp_path / "b.mbf").write_bytes(write_mbf(board))
    assert load_board(tmp_path / "b.mbf") == (board, None)
    (tmp_path / "b.in").write_text("2 3\n..X\nX..\n1 2\n")
    assert load_board(tmp_path / "b.in") == (board, 5)
    (tmp_path / "plain.txt").write_text("2 3\n..X\nX..\n")
    assert load_board(tmp_path / "plain.txt") == (board, None)
    (tmp_path / "hex.txt").write_text("2 2\nX.\n..\n")
    hex_board, _ = load_board(tmp_path / "hex.txt", TOPOLOGIES["hex"])
    assert hex_board.topology == HexTopology(2, 2)


def test_load_board_errors_name_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "b.in"
    path.write_text("2 3\n..X\nX..\n1 2\n0 0\n")
    with pytest.raises(InputError, match="unexpected text after the first click") as raised:
        load_board(path)
    assert raised.value.line == 5 and str(path) in str(raised.value)
    (tmp_path / "bin.txt").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(Exception, match="not a text board"):
        load_board(tmp_path / "bin.txt")


def test_load_cases_reads_mbf_files_in_a_folder(tmp_path: Path) -> None:
    boards = [Board(SquareTopology(4, 4), [0]), Board(SquareTopology(3, 3), [8])]
    (tmp_path / "a.mbf").write_bytes(write_mbf(boards[0]))
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.MBF").write_bytes(write_mbf(boards[1]))  # any case of the suffix
    (tmp_path / "c.in").write_text("2 2\nX.\n..\n1 1\n")
    cases = load_cases(tmp_path)
    assert [case.name for case in cases] == ["a.mbf", "c.in"]  # rglob is case-sensitive
    assert cases[0].board == boards[0] and cases[0].first == default_first(boards[0])


# -- commands ---------------------------------------------------------------------------------


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def test_generate_mbf_gives_the_same_boards_as_text(tmp_path: Path) -> None:
    common = ["generate", "--preset", "expert", "--seed", "5", "--count", "3"]
    assert invoke(*common, "--out", str(tmp_path / "in")).exit_code == 0
    result = invoke(*common, "--format", "mbf", "--out", str(tmp_path / "mbf"))
    assert result.exit_code == 0, result.output
    texts = load_cases(tmp_path / "in")
    mbfs = load_cases(tmp_path / "mbf")
    assert [case.name for case in mbfs] == [f"expert-00{i}.mbf" for i in (1, 2, 3)]
    assert [case.board for case in mbfs] == [case.board for case in texts]
    single = invoke("generate", "--preset", "expert", "--seed", "5", "--format", "mbf")
    assert single.exit_code == 0
    assert read_mbf(single.stdout_bytes) == texts[0].board


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--topology", "hex"], "MBF holds square boards only, not hex ones"),
        (["--count", "2"], "an MBF file holds one board: give --out for --count above 1"),
        (
            ["--rows", "256", "--cols", "2", "--mines", "1"],
            "MBF holds boards up to 255x255, not 256x2",
        ),
    ],
)
def test_generate_mbf_refusals(tmp_path: Path, args: list[str], message: str) -> None:
    out = [] if "--count" in args else ["--out", str(tmp_path / "o")]
    result = invoke("generate", "--format", "mbf", *args, *out)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [f"minesweeper: {message}"]
    assert not (tmp_path / "o").exists()


def test_analyze_board_shows_the_odds_after_the_first_click(tmp_path: Path) -> None:
    # 3x5 with the left column mined: the first click (the zero in the middle)
    # opens columns 1-4, and the three unknown cells of column 0 are all mines.
    path = tmp_path / "wall.mbf"
    path.write_bytes(write_mbf(Board(SquareTopology(3, 5), [0, 5, 10])))
    result = invoke("analyze", "--board", str(path), "--format", "json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["probabilities"][1] == [1.0, None, None, None, None]
    assert document["mines"] == [[0, 0], [1, 0], [2, 0]]
    assert document["best"] is None


def test_analyze_board_uses_the_files_first_click(tmp_path: Path) -> None:
    path = tmp_path / "b.in"
    path.write_text("3 3\nX..\n...\n...\n0 1\n")  # the 1 at (0, 1) opens alone
    document = json.loads(invoke("analyze", "--board", str(path), "--format", "json").stdout)
    # The one mine (the count is told) is one of the five cells around the 1.
    assert document["probabilities"][0] == [0.2, None, 0.2]
    assert document["probabilities"][2] == [0.0, 0.0, 0.0]
    path.write_text("3 3\nX..\n...\n...\n0 0\n")
    result = invoke("analyze", "--board", str(path))
    assert result.exit_code == 2 and "the first click (0, 0) is a mine" in result.stderr


@pytest.mark.parametrize("command", ["play", "analyze"])
def test_a_bad_or_truncated_board_file_is_one_line_and_exit_2(tmp_path: Path, command: str) -> None:
    path = tmp_path / "t.mbf"
    path.write_bytes(write_mbf(Board(SquareTopology(9, 9), range(10)))[:-3])
    result = invoke(command, "--board", str(path))
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"minesweeper: {path}: truncated: 10 mine(s) take 24 bytes, the file has 21"
    ]
    assert result.stdout == ""
    text = tmp_path / "t.in"
    text.write_text("2 3\n..X\nX.")
    result = invoke(command, "--board", str(text))
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and "line 3" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.in", "t.mbf"]  # nothing written


def test_bench_plays_a_folder_of_mbf_files_and_reports_3bv(tmp_path: Path) -> None:
    boards = [Board(SquareTopology(5, 5), [0, 24]), Board(SquareTopology(4, 6), [5, 18, 19])]
    folder = tmp_path / "boards"
    folder.mkdir()
    for index, board in enumerate(boards):
        (folder / f"{index}.mbf").write_bytes(write_mbf(board))
    per_game = tmp_path / "games.jsonl"
    result = invoke(
        "bench",
        "--boards",
        str(folder),
        "--strategy",
        "gauss-powermean",
        "--jobs",
        "1",
        "--rules",
        "modern",
        "--per-game",
        str(per_game),
    )
    assert result.exit_code == 0, result.output
    games = [json.loads(line) for line in per_game.read_text().splitlines()]
    assert sorted((g["board"], g["bbbv"]) for g in games) == [
        ("0.mbf", bbbv(boards[0])),
        ("1.mbf", bbbv(boards[1])),
    ]
