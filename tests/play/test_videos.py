"""Community videos read through ms-toollib: a real .evf made by its own writer, read back."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from tui_helpers import wait_until

from minesweeper.cli import main
from minesweeper.play.videos import (
    Change,
    Figures,
    Video,
    VideoError,
    open_video,
    read_video,
    to_replay,
)

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
# Its own save_to_evf_file writes from a background thread, which may lose the race with exit.
with open(sys.argv[1], "wb") as out:
    out.write(bytes(video.raw_data))
"""


def write_evf(path: Path, clicks: list[tuple[int, int, str]]) -> Path:
    code = WRITER.format(board=BOARD, clicks=clicks)
    subprocess.run([sys.executable, "-c", code, str(path)], check=True)
    return path


def test_an_evf_made_by_ms_toollib_reads_back_as_a_won_game(tmp_path: Path) -> None:
    path = write_evf(tmp_path / "win.evf", [(0, 0, "l"), (2, 0, "r"), (0, 3, "l"), (2, 3, "l")])
    replay, video = open_video(path)
    assert replay.player == "Ada"
    final = replay.final
    assert final.won
    game = replay.category.variant
    assert (game.rows, game.cols, game.mines) == (4, 4, 2)
    # The right click on (2, 0), opened by the first click's flood, changed nothing: our
    # replay keeps the clicks that changed the board; ms-toollib's figures count it.
    assert [(a.kind, replay.board.topology.position(a.cell)) for a in replay.actions] == [
        ("open", (0, 0)),
        ("open", (0, 3)),
        ("open", (2, 3)),
    ]
    stats = replay.stats()
    assert (stats.bbbv, stats.clicks.left, stats.clicks.right) == (3, 3, 0)
    figures = video.figures
    assert (figures.left, figures.right, figures.bbbv, figures.completed) == (3, 1, 3, True)


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


def test_a_damaged_video_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # ms-toollib's panic writes crash.log here unless kept away
    path = tmp_path / "bad.avf"
    path.write_bytes(b"\x00\x01not a video at all" * 10)
    with pytest.raises(VideoError, match=r"bad\.avf"):
        read_video(path)
    result = CliRunner().invoke(main, ["replay", "--stats", str(path)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert [entry.name for entry in tmp_path.iterdir()] == ["bad.avf"]


DATA = Path(__file__).parent / "data" / "videos"
#: Real videos from ms-toollib's test data (data/videos/README.md), with what each holds:
#: rows, columns, mines, player, program, its time in ms and 3BV.
REAL = {
    "arbiter-beginner.avf": (8, 8, 10, "Wang Jianing G15208", "Arbiter", 14520, 24),
    "arbiter-custom.avf": (11, 8, 7, "王嘉宁", "Arbiter", 5420, 8),
    "viennasweeper-preflags.rmv": (8, 8, 10, "Thomas Kolar", "Viennasweeper", 16032, 16),
    "viennasweeper-24px.rmv": (8, 8, 10, "Thomas Kolar", "Viennasweeper", 1849, 5),
}


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_arbiter_and_viennasweeper_videos_play_back_as_they_were_won(name: str) -> None:
    rows, cols, mines, player, program, ms, bbbv = REAL[name]
    replay, video = open_video(DATA / name)
    assert video.software == program and replay.player == player
    game = replay.category.variant
    assert (game.rows, game.cols, game.mines) == (rows, cols, mines)
    final = replay.final
    # Our rules, replaying the clicks, end the game where the video's program did.
    assert final.won and video.figures.completed
    assert final.ms == ms == round(video.figures.seconds * 1000)
    assert final.stats().bbbv == bbbv == video.figures.bbbv
    assert final.stats().solved == bbbv


def test_the_replay_command_prints_a_real_videos_figures() -> None:
    result = CliRunner().invoke(main, ["replay", "--stats", str(DATA / "arbiter-beginner.avf")])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "square 8x8, 10 mines, safe first click"
    assert lines[1].startswith("Wang Jianing G15208, 2024-08-24T16:38:59+00:00: won")
    assert lines[2].startswith("3BV 24/24, 38 clicks (13 left, 16 right, 9 chord)")
    # As Arbiter counts them: every click, also those that changed nothing.
    assert lines[3] == (
        "as Arbiter counts them (ms-toollib): 42 clicks (13 left, 16 right, 13 double), "
        "28 effective, IOE 0.571, 3BV/s 1.653, 14.520 s"
    )


def test_the_analysis_of_a_real_video_judges_its_guesses() -> None:
    path = str(DATA / "arbiter-beginner.avf")
    result = CliRunner().invoke(main, ["replay", "--analyze", "--layouts", "10", path])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    # After the first click's 1 in the corner, its three neighbours are 1/3 each, but the
    # second click's cell shares its mine with fewer layouts; checked against the engine.
    assert (
        "click 2 at 0.500 s, open row 2, column 1: avoidable risk, safe with 2/3 (66.7%); "
        "safer: row 3, column 1, safe with 17/20 (85.0%)"
    ) in lines
    assert (
        "click 3 at 0.800 s, open row 1, column 2: avoidable risk, safe with 1/2 (50.0%); "
        "row 3, column 2 was certainly safe"
    ) in lines
    assert "22 clicks that opened cells: 18 certain, 0 forced guess, 3 avoidable risk" in lines
    summed = [line for line in lines if line.startswith("from guess")]
    assert len(summed) == 3 and all("of 10 layouts that fit (95%: " in s for s in summed)
    assert summed[0].endswith("the guesses made come out safe with 20/73 (27.4%)")
    # No time left for the estimates: each guess says so, the clicks are judged all the same.
    spent = CliRunner().invoke(main, ["replay", "--analyze", "--budget", "0", path])
    assert spent.exit_code == 0, spent.output
    summed = [line for line in spent.stdout.splitlines() if line.startswith("from guess")]
    assert len(summed) == 3
    assert all("not estimated (the time budget was spent); the guesses" in s for s in summed)
    # A Viennasweeper video: flags placed before the first click are the player's opinion.
    path = str(DATA / "viennasweeper-preflags.rmv")
    result = CliRunner().invoke(main, ["replay", "--analyze", "--layouts", "5", path])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[3].startswith("as Viennasweeper counts them (ms-toollib): 41 clicks")
    assert "15 clicks that opened cells: 13 certain, 0 forced guess, 1 avoidable risk" in lines
    assert (
        "click 11 at 0.472 s, open row 1, column 2: avoidable risk, safe with 2/3 (66.7%); "
        "safer: row 1, column 3, safe with 17/20 (85.0%)"
    ) in lines


def test_a_video_our_rules_cannot_follow_is_refused() -> None:
    # The video says the click on (2, 2), a zero, opened that cell alone; ours floods.
    change = Change(1.0, (2, 2), ((2, 2, 10, 0),))
    video = Video(BOARD, [change], "", "", 0, Figures(3, False, 1.0, 1, 0, 0, 1))
    said = r"at 1\.000 s opened 1 cell in the video, 9 cells by our rules"
    with pytest.raises(VideoError, match=said):
        to_replay(video)


def test_the_viewer_plays_a_real_video_to_its_end() -> None:
    import asyncio

    from minesweeper.tui.replay import ReplayApp

    replay = read_video(DATA / "viennasweeper-24px.rmv")

    async def scenario() -> None:
        app = ReplayApp(replay, speed=50)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.viewer.finished, 120)  # only bounds a hang
            assert app.viewer.finished and app.viewer.session.won
            status = str(app.replay_screen.query_one("#status").render())
            assert "Thomas Kolar" in status and "won" in status

    asyncio.run(scenario())
