"""bench's progress bars: the games-per-second column."""

from __future__ import annotations

from doubles import FakeClock
from rich.progress import Progress

from minesweeper.cli.bench import SpeedColumn


def test_a_run_done_in_one_update_still_shows_its_rate() -> None:
    clock = FakeClock()
    progress = Progress(get_time=clock)
    task = progress.add_task("intermediate rollout", total=20)
    clock.now = 40.0
    progress.update(task, completed=20)  # all 20 games reported at once, after 40 s
    shown = SpeedColumn().render(progress.tasks[0]).plain
    assert shown == "0.5 games/s"


def test_a_running_task_shows_its_recent_rate() -> None:
    clock = FakeClock()
    progress = Progress(get_time=clock)
    task = progress.add_task("expert best", total=100)
    assert SpeedColumn().render(progress.tasks[0]).plain == "- games/s"  # nothing yet
    for second in range(1, 6):
        clock.now = float(second)
        progress.update(task, completed=second * 4)
    assert SpeedColumn().render(progress.tasks[0]).plain == "4 games/s"
