"""Community videos read through ms-toollib: a real .evf made by its own writer, read back."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from minesweeper.cli import main
from minesweeper.play.videos import Video, VideoError, read_video, to_replay

pytest.importorskip("ms_toollib", reason="the videos extra (ms-toollib) is not installed")

#: A 4x4 board: mines at (0, 2) and (3, 0); ms-toollib's rows of counts, -1 a mine.
BOARD = [[0, 1, -1, 1], [0, 1, 1, 1], [1, 1, 0, 0], [-1, 1, 0, 0]]
#: The writer, in a child: its Rust core may abort on misuse, which must not end the tests.
WRITER = """
import sys, ms_toollib
board = {board}
video = ms_toollib.BaseVideo(board, 16)
def click(row, col, button):
    at = (row * 16 + 8, col * 16 + 8)  # the writer takes (row, column) in pixels
    video.step("mv", at)
    video.step(button + "c", at)
    video.step(button + "r", at)
for row, col, button in {clicks}:
    click(row, col, button)
video.player_identifier = "Ada"
video.generate_evf_v4_raw_data()
video.save_to_evf_file(sys.argv[1])
"""


def write_evf(path: Path, clicks: list[tuple[int, int, str]]) -> Path:
    code = WRITER.format(board=BOARD, clicks=clicks)
    subprocess.run([sys.executable, "-c", code, str(path.with_suffix(""))], check=True)
    return path


def test_an_evf_made_by_ms_toollib_reads_back_as_a_won_game(tmp_path: Path) -> None:
    path = write_evf(tmp_path / "win.evf", [(0, 0, "l"), (2, 0, "r"), (0, 3, "l"), (2, 3, "l")])
    replay = read_video(path)
    assert replay.player == "Ada"
    final = replay.final
    assert final.won
    game = replay.category.variant
    assert (game.rows, game.cols, game.mines) == (4, 4, 2)
    assert [(a.kind, replay.board.topology.position(a.cell)) for a in replay.actions] == [
        ("open", (0, 0)),
        ("flag", (2, 0)),
        ("open", (0, 3)),
        ("open", (2, 3)),
    ]
    stats = replay.stats()
    assert (stats.bbbv, stats.clicks.left, stats.clicks.right) == (3, 3, 1)


def test_a_lost_video_and_events_after_the_end(tmp_path: Path) -> None:
    path = write_evf(tmp_path / "loss.evf", [(0, 0, "l"), (3, 0, "l")])
    replay = read_video(path)
    assert replay.final.lost and len(replay.actions) == 2


def test_the_replay_command_reads_a_video(tmp_path: Path) -> None:
    path = write_evf(tmp_path / "win.evf", [(0, 0, "l"), (0, 3, "l"), (2, 3, "l")])
    result = CliRunner().invoke(main, ["replay", "--stats", str(path)])
    assert result.exit_code == 0, result.output
    assert "square 4x4, 2 mines" in result.output and "Ada" in result.output
    assert "won" in result.output and "3BV 3/3" in result.output


def test_a_damaged_video_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.avf"
    path.write_bytes(b"\x00\x01not a video at all" * 10)
    with pytest.raises(VideoError, match=r"bad\.avf"):
        read_video(path)
    result = CliRunner().invoke(main, ["replay", "--stats", str(path)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_chords_by_both_buttons_and_the_middle_one() -> None:
    # (0, 1) shows 1 with its mine at (0, 2) flagged: a chord opens (1, 2)... and the rest.
    px = 16
    events = [
        (0.0, "lc", 0, 0),
        (0.0, "lr", 0, 0),
        (0.5, "rc", 2 * px, 0),
        (0.6, "rr", 2 * px, 0),
        (1.0, "lc", 1 * px, 0),
        (1.1, "rc", 1 * px, 0),
        (1.2, "lr", 1 * px, 0),
        (1.2, "rr", 1 * px, 0),
        (2.0, "mc", 3 * px, 3 * px),
        (2.1, "mr", 3 * px, 3 * px),
    ]
    replay = to_replay(Video(BOARD, events, "", "", 0))
    kinds = [action.kind for action in replay.actions]
    assert kinds == ["open", "flag", "chord", "chord"]
    assert replay.actions[2].ms == 1200
