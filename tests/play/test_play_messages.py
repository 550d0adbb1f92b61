"""Messages that tell the truth: what a result entered, the computer's figures, one name."""

from __future__ import annotations

from pathlib import Path

from doubles import FakeClock
from tui_helpers import private_dirs  # noqa: F401

from minesweeper.play.records import COMPUTER, Entry, Ranking, Records, entered
from minesweeper.play.replay import read_replay
from minesweeper.play.session import Settings
from minesweeper.play.stats import Clicks, GameStats
from minesweeper.tui.controller import Controller


def controller(tmp_path: Path, **options: object) -> Controller:
    return Controller(
        Settings(),
        seed=7,
        records=Records(tmp_path / "records.json"),
        clock=FakeClock(tick=1.0),
        **options,  # type: ignore[arg-type]
    )


def win(control: Controller) -> None:
    control.open(40)
    session = control.session
    for cell in session.topology.cells():
        if not session.board.is_mine(cell) and not session.is_opened(cell):
            control.open(cell)
    assert session.won


def lose(control: Controller) -> None:
    control.open(40)
    control.open(min(control.session.board.mines))
    assert control.session.lost


def test_entered_words() -> None:
    assert entered(None, None, True) is None
    assert entered(4, None, False) == "entered at place 4 (lost)"
    assert entered(1, None, False) == "entered at place 1 (lost)"
    assert entered(1, 1, True) == "a new record: place 1 (won) and place 1 of the fastest wins"
    assert entered(3, 1, True) == "a new record: place 3 (won) and place 1 of the fastest wins"
    assert entered(3, 2, True) == "entered at place 3 (won) and place 2 of the fastest wins"
    assert entered(None, 5, True) == "entered at place 5 of the fastest wins"


def test_a_loss_that_enters_the_table_is_no_new_record(tmp_path: Path) -> None:
    control = controller(tmp_path)
    lose(control)
    assert control.outcome is not None and control.outcome.waiting_for_name
    assert control.news == "Entered at place 1 (lost)"
    assert control.enter_record("Ada") == 1
    assert control.message.startswith("entered at place 1 (lost)\n")
    assert "record" not in control.message


def test_a_first_win_is_a_new_record(tmp_path: Path) -> None:
    control = controller(tmp_path)
    win(control)
    assert control.news == "A new record: place 1 (won) and place 1 of the fastest wins"


def test_the_computer_s_figures_leave_out_its_pace() -> None:
    stats = GameStats(30, 30, Clicks(left=40), 6, True)
    assert "3BV/s" in stats.summary()
    assert "3BV/s" not in stats.summary(by_computer=True)
    assert "efficiency" in stats.summary(by_computer=True)
    person = Entry.make("Ada", 100, 6.0, True)
    computer = Entry.make(COMPUTER, 120, 0.006, True)
    assert Ranking.POINTS.row(1, computer)[3] == "-"
    assert Ranking.POINTS.row(2, person)[3] == "6.0 s"


def test_the_computer_game_message_has_no_3bv_per_second(tmp_path: Path) -> None:
    control = controller(tmp_path)
    control.start_computer()
    while control.computer_step():
        pass
    assert control.session.over
    assert "3BV/s" not in control.message


def test_the_replay_dir_replay_names_the_name_typed(tmp_path: Path) -> None:
    control = controller(tmp_path, replay_dir=tmp_path / "saved", player="Bob")
    win(control)
    assert control.saved_replay is None  # not before the name is known
    control.enter_record("Ada")
    (path,) = (tmp_path / "saved").glob("*.json")
    assert read_replay(path).player == "Ada"
    assert f"replay saved: {path.name} (in {path.parent})" in control.message
    assert control.player == "Ada"
    (entry,) = control.records.table(control.settings.category())
    assert entry.name == "Ada"


def test_a_game_off_the_tables_is_saved_under_the_player_s_name(tmp_path: Path) -> None:
    control = controller(tmp_path, replay_dir=tmp_path / "saved", player="Bob")
    control.open(40)
    control.show_hint()  # assisted: never recorded, replay still saved
    lose(control)
    (path,) = (tmp_path / "saved").glob("*.json")
    assert read_replay(path).player == "Bob"
