"""Replays: the session's click log, the JSON format, playing it back, checking entries."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest
from doubles import FakeClock
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minesweeper.board import Board
from minesweeper.errors import SettingsError
from minesweeper.play.records import Entry
from minesweeper.play.replay import Replay, ReplayError, check_entry, read_replay, save_replay
from minesweeper.play.session import Action, GameSession, Settings
from minesweeper.topology import TOPOLOGIES, SquareTopology
from minesweeper.variant import Rules, Variant

WHEN = datetime(2026, 1, 1, tzinfo=UTC)


def dealt(settings: Settings, first: int, mines: set[int], clock: FakeClock) -> GameSession:
    """A game dealt by the game itself (from a seed) whose first open at ``first`` lays
    ``mines``: the first seed that does, so that its replay proves its deal."""
    for seed in range(1000):
        probe = GameSession(settings, seed=seed, clock=FakeClock(100.0))
        probe.open(first)
        if probe.board is not None and probe.board.mines == frozenset(mines):
            return GameSession(settings, seed=seed, clock=clock)
    raise AssertionError("no seed deals that board")


def small_game() -> tuple[GameSession, FakeClock]:
    """1x5 row ``.X...``: flag, open, a wasted click, a chord with nothing to open, the win."""
    clock = FakeClock(100.0)
    settings = Settings(Variant.parse("1x5/1 classic"))
    session = dealt(settings, 4, {1}, clock)
    session.toggle_flag(1)  # before the first open: at 0 ms
    clock.now = 101.0
    session.open(4)  # the timer starts here; opens 4, 3 and 2 (a zero's flood)
    clock.now = 101.25
    session.open(4)  # wasted: already open
    clock.now = 101.75
    session.chord(2)  # its one flag matches, but no closed cell is left around it
    clock.now = 102.5
    session.open(0)  # the last safe cell: won
    return session, clock


def test_the_session_logs_every_click_with_its_time() -> None:
    session, clock = small_game()
    assert session.actions == [
        Action(0, "flag", 1),
        Action(0, "open", 4),
        Action(250, "open", 4),
        Action(750, "chord", 2),
        Action(1500, "open", 0),
    ]
    assert session.won
    clock.now = 500  # the timer stopped at the winning click
    assert session.ms == 1500 and session.elapsed == 1.5
    stats = session.stats()
    assert (stats.clicks.left, stats.clicks.right, stats.clicks.chord) == (3, 1, 1)
    # 3BV: the opening {3, 4} (with 2 on its edge) and the lone 1 at cell 0.
    assert stats.bbbv == stats.solved == 2
    assert stats.efficiency == 0.4


def test_clicks_after_the_end_are_not_logged() -> None:
    session, _ = small_game()
    session.open(0)
    session.toggle_flag(0)
    assert len(session.actions) == 5


def test_round_trip_and_replay_give_the_same_game() -> None:
    session, _ = small_game()
    replay = Replay.of(session, player="Ann", date=WHEN)
    again = Replay.from_bytes(replay.to_bytes())
    assert again == replay
    final = again.final
    assert (final.won, final.points, final.ms) == (True, session.points, 1500)
    assert final.flags == session.flags
    document = json.loads(replay.to_bytes())
    assert document["actions"][0] == [0, "flag", 0, 1]
    assert document["result"] == {"won": True, "points": session.points, "ms": 1500}


@st.composite
def played_sessions(draw: st.DrawFn) -> GameSession:
    """A game on any topology, played by random clicks at random times."""
    name = draw(st.sampled_from(sorted(TOPOLOGIES)))
    rows, cols = draw(st.integers(2, 6)), draw(st.integers(1, 3)) * 2
    try:
        game = Variant(TOPOLOGIES[name], rows, cols, 0)
        topology = game.make_topology(random.Random(draw(st.integers())))
    except SettingsError:  # no such board of this size (e.g. an odd area in trominoes)
        topology = SquareTopology(rows, cols)
    mines = draw(st.sets(st.integers(0, topology.size - 1), max_size=topology.size - 1))
    clock = FakeClock(100.0)
    session = GameSession.from_board(Board(topology, mines), clock=clock)
    for _ in range(draw(st.integers(0, 30))):
        clock.now += draw(st.floats(0, 5, allow_nan=False))
        cell = draw(st.integers(0, topology.size - 1))
        kind = draw(st.sampled_from(["open", "open", "flag", "chord"]))
        {"open": session.open, "flag": session.toggle_flag, "chord": session.chord}[kind](cell)
        if session.over:
            break
    if draw(st.booleans()):
        session.note_assist("hint")
    return session


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_sessions())
def test_any_game_on_any_topology_replays_exactly(session: GameSession) -> None:
    if session.board is None:
        with pytest.raises(ReplayError):
            Replay.of(session)
        return
    replay = Replay.from_bytes(Replay.of(session, date=WHEN).to_bytes())
    final = replay.final
    assert final.state == session.state
    assert final.points == session.points
    assert final.ms == session.ms
    assert final.opened() == session.opened()
    assert final.flags == session.flags
    assert final.assists == session.assists
    assert final.stats() == session.stats()


def test_the_session_part_way() -> None:
    session, _ = small_game()
    replay = Replay.of(session, date=WHEN)
    assert replay.session(upto=0).opened() == {}
    assert replay.session(upto=1).flags == {1}
    assert replay.session(upto=2).opened() == {2: 1, 3: 0, 4: 0}
    assert not replay.session(upto=4).over and replay.session(upto=5).won


def document() -> dict:
    session, _ = small_game()
    return json.loads(Replay.of(session, player="Ann", date=WHEN).to_bytes())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other"), "not a replay"),
        (lambda d: d.update(version=9), "version 9"),
        (lambda d: d.pop("board"), '"board" is missing'),
        (lambda d: d.update(mines=2), "the board has 1 mines, the replay says 2"),
        (lambda d: d.update(cols=9), "the board is 1x5, the replay says 1x9"),
        (lambda d: d["board"].__setitem__(1, ".Y..."), "board line 2"),
        (lambda d: d["actions"].append([9, "dance", 0, 0]), "unknown kind 'dance'"),
        (lambda d: d["actions"].append([9, "open", 0, 7]), "outside the 1x5 board"),
        (lambda d: d["actions"].append([9, "open", 0]), "expected [ms, kind, r, c]"),
        (lambda d: d["actions"].append([1, "open", 0, 0]), "runs backwards"),
        (lambda d: d["actions"][0].__setitem__(0, 5), "must be at 0 ms"),
        (lambda d: d.update(assists=[["luck", 0]]), "expected [kind, action index]"),
        (lambda d: d.update(extra=1), "unknown field 'extra'"),
        (lambda d: d.update(topology="moon"), "moon"),
    ],
)
def test_bad_replays_are_named_clearly(change, message: str) -> None:
    doc = document()
    change(doc)
    with pytest.raises(ReplayError, match=message.replace("[", r"\[").replace("(", r"\(")):
        Replay.from_bytes(json.dumps(doc).encode())


@pytest.mark.parametrize("data", [b"", b"{", b"\xff\xfe", b"[]", b"[" * 100_000])
def test_garbage_is_not_a_replay(data: bytes) -> None:
    with pytest.raises(ReplayError):
        Replay.from_bytes(data)


def test_a_click_after_the_end_makes_no_game() -> None:
    doc = document()
    doc["actions"].append([1600, "open", 0, 1])
    replay = Replay.from_bytes(json.dumps(doc).encode())
    with pytest.raises(ReplayError, match="action 6 comes after the game ended"):
        replay.session()


def test_files_are_never_overwritten(tmp_path: Path) -> None:
    first = save_replay(b"one", tmp_path, "game")
    second = save_replay(b"two", tmp_path, "game")
    assert (first.name, second.name) == ("game.json", "game-2.json")
    assert first.read_bytes() == b"one"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_read_replay_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(b'{"format": ')
    with pytest.raises(ReplayError, match=r"r\.json: line 1"):
        read_replay(path)


def test_check_entry_accepts_the_truth_and_names_each_lie() -> None:
    session, _ = small_game()
    replay = Replay.of(session, player="Ann", date=WHEN)
    category = session.settings.category()
    honest = session.entry("Ann", WHEN)
    assert check_entry(replay, category, honest) == []
    lies = {
        "points": Entry(**{**honest.as_json(), "points": honest.points + 100}),
        "took": Entry(**{**honest.as_json(), "seconds": 0.5}),
        "says lost": Entry(**{**honest.as_json(), "won": False}),
        "names": Entry(**{**honest.as_json(), "name": "Bob"}),
    }
    for words, entry in lies.items():
        problems = check_entry(replay, category, entry)
        assert len(problems) == 1 and words in problems[0], problems


def test_check_entry_holds_the_first_click_to_its_rule() -> None:
    # 1x6 ``X.....``: an opening first click must be a zero.
    board = Board(SquareTopology(1, 6), [0])
    opening = Settings(Variant(rules=Rules.MODERN))
    session = GameSession.from_board(board, opening, clock=FakeClock(100.0))
    session.open(1)  # a 1: no opening, though the mine would fit away from it
    session.open(5)
    replay = Replay.of(session, player="Ann", date=WHEN)
    problems = check_entry(replay, session.settings.category(), session.entry("Ann", WHEN))
    assert problems == [
        "the first click is no opening, which the opening first-click rule promises"
    ]
    fair = dealt(Settings(Variant.parse("1x6/1 modern")), 5, {0}, FakeClock(100.0))
    fair.open(5)
    replay = Replay.of(fair, player="Ann", date=WHEN)
    assert check_entry(replay, fair.settings.category(), fair.entry("Ann", WHEN)) == []


def test_a_no_guess_game_replays() -> None:
    from minesweeper.play.autoplay import AutoPlayer, new_session

    session = new_session(Settings(no_guess=True), seed=4)
    for _ in AutoPlayer.named(session, "gauss-powermean").play():
        pass
    replay = Replay.from_bytes(Replay.of(session, date=WHEN).to_bytes())
    assert replay.category.no_guess
    assert (replay.final.won, replay.final.points) == (session.won, session.points)
