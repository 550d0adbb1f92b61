"""The records file: top-10 tables per category, HMAC signature, locking, key permissions."""

from __future__ import annotations

import json
import multiprocessing
import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest

from minesweeper.play.records import (
    TABLE_SIZE,
    Category,
    Entry,
    Records,
    RecordsError,
    RecordsTampered,
    _sign,
    default_key_path,
    default_records_path,
    load_key,
    replay_digest,
)
from minesweeper.variant import Variant

BEGINNER = Category(Variant.parse("9x9/10 modern"))
EXPERT = Category(Variant.parse("16x30/99 modern"))


def entry(points: int, name: str = "Ann", seconds: float = 10, won: bool = True) -> Entry:
    return Entry.make(name, points, seconds, won, datetime(2026, 1, 1, tzinfo=UTC))


@pytest.fixture
def records(tmp_path: Path) -> Records:
    return Records(tmp_path / "data" / "records.json", tmp_path / "config" / "records.key")


def test_empty_when_missing(records: Records) -> None:
    assert records.load() == {}
    assert records.verify() == 0
    assert not records.key_path.exists()  # nothing is created by reading


def test_top_ten_by_points(records: Records) -> None:
    places = [records.add(BEGINNER, entry(points, f"p{points}")) for points in range(12)]
    # Each new result is the best so far, so each enters at place 1.
    assert places == [1] * 12
    table = records.table(BEGINNER)
    assert len(table) == TABLE_SIZE
    assert [e.points for e in table] == list(range(11, 1, -1))
    assert records.add(BEGINNER, entry(1)) is None  # too low: dropped
    assert records.add(BEGINNER, entry(5, "Bob", won=False)) == 8  # losses enter too
    table = records.table(BEGINNER)
    assert [e.points for e in table] == [11, 10, 9, 8, 7, 6, 5, 5, 4, 3]
    assert table[6].name == "p5" and table[7].name == "Bob"  # a win ahead of a loss


def test_ties_break_on_win_then_time(records: Records) -> None:
    records.add(BEGINNER, entry(50, "slow", seconds=90))
    records.add(BEGINNER, entry(50, "lost", seconds=5, won=False))
    records.add(BEGINNER, entry(50, "fast", seconds=30))
    assert [e.name for e in records.table(BEGINNER)] == ["fast", "slow", "lost"]
    assert records.place_for(BEGINNER, entry(50, seconds=1)) == 1
    assert records.place_for(BEGINNER, entry(49)) == 4


def test_categories_are_separate(records: Records) -> None:
    noguess = Category(Variant.parse("9x9/10 modern"), no_guess=True)
    safe = Category(Variant.parse("9x9/10 classic"))
    hexagons = Category(Variant.parse("hex 9x9/10 modern"))
    for points, category in enumerate((BEGINNER, noguess, safe, hexagons, EXPERT)):
        records.add(category, entry(points))
    tables = records.load()
    assert len(tables) == 5
    assert [e.points for e in tables[noguess]] == [1]
    assert [e.points for e in records.table(EXPERT)] == [4]
    assert "no-guess" in noguess.label and "no-guess" not in BEGINNER.label


def test_file_is_readable_json(records: Records) -> None:
    records.add(BEGINNER, entry(42, "Ann"))
    document = json.loads(records.path.read_text())
    [table] = document["tables"]
    assert table["category"]["rows"] == 9
    assert table["entries"][0] == {
        "place": 1,
        "name": "Ann",
        "points": 42,
        "seconds": 10,
        "won": True,
        "date": "2026-01-01T00:00:00+00:00",
    }
    assert len(document["signature"]) == 64


def test_key_is_private(records: Records) -> None:
    records.add(BEGINNER, entry(1))
    assert stat.S_IMODE(records.key_path.stat().st_mode) == 0o600
    assert stat.S_IMODE(records.key_path.parent.stat().st_mode) == 0o700
    key = records.key_path.read_text()
    other = Records(records.path.parent / "other.json", records.key_path.parent / "other.key")
    other.add(BEGINNER, entry(1))
    assert other.key_path.read_text() != key  # generated, never a constant


def edit_one_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    where = data.index(b'"points": 42') + len(b'"points": ')
    data[where] = ord("9")
    path.write_bytes(bytes(data))


def truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def drop_signature(path: Path) -> None:
    document = json.loads(path.read_text())
    del document["signature"]
    path.write_text(json.dumps(document, indent=2))


def empty(path: Path) -> None:
    path.write_bytes(b"")


@pytest.mark.parametrize("damage", [edit_one_byte, truncate, drop_signature, empty])
def test_tampering_is_detected_and_never_overwritten(records: Records, damage) -> None:
    records.add(BEGINNER, entry(42))
    damage(records.path)
    damaged = records.path.read_bytes()
    for action in (records.load, records.verify):
        with pytest.raises(RecordsTampered) as raised:
            action()
        message = str(raised.value)
        assert str(records.path) in message
        assert "failed its check" in message
        assert "delete" in message and "restore" in message.lower()
    assert records.path.read_bytes() == damaged
    # A new result is not lost either: the damaged file is kept aside, whole.
    assert records.add(BEGINNER, entry(99)) == 1
    aside, why = records.kept_aside  # type: ignore[misc]
    assert aside.read_bytes() == damaged and aside.parent == records.path.parent
    assert str(aside) in str(records.kept_aside_note()) and why.reason in records.kept_aside_note()
    assert [e.points for e in records.table(BEGINNER)] == [99]


def test_a_lost_key_fails_the_check(records: Records) -> None:
    records.add(BEGINNER, entry(42))
    records.key_path.unlink()
    with pytest.raises(RecordsTampered, match="key"):
        records.load()


SHARED = Category(Variant.parse("5x5/3 classic"))


def own_category(name: str) -> Category:
    return Category(Variant.parse("5x5/4 classic" if name == "A" else "5x5/5 classic"))


def _add_many(path: str, key: str, name: str, count: int) -> None:
    """Odd results to the category both processes share, even ones to this one's own."""
    records = Records(path, key)
    for i in range(count):
        records.add(SHARED if i % 2 else own_category(name), Entry.make(name, i, i, True))


def test_two_processes_at_once_lose_nothing(records: Records) -> None:
    records.add(BEGINNER, entry(1))  # the key exists: both processes share it
    context = multiprocessing.get_context("spawn")
    workers = [
        context.Process(target=_add_many, args=(str(records.path), str(records.key_path), n, 10))
        for n in "AB"
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    tables = records.load()
    assert sorted((e.name, e.points) for e in tables[SHARED]) == [
        (name, i) for name in "AB" for i in range(1, 10, 2)
    ]
    for name in "AB":
        assert [e.points for e in tables[own_category(name)]] == [8, 6, 4, 2, 0]
    assert len(tables) == 4


def test_default_paths_follow_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MINESWEEPER_DATA_DIR", str(tmp_path / "d"))
    monkeypatch.setenv("MINESWEEPER_CONFIG_DIR", str(tmp_path / "c"))
    assert default_records_path() == tmp_path / "d" / "records.json"
    assert default_key_path() == tmp_path / "c" / "records.key"
    records = Records()
    records.add(BEGINNER, entry(3))
    assert (tmp_path / "d" / "records.json").exists()
    assert (tmp_path / "c" / "records.key").exists()


def test_an_unwritable_place_is_a_records_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    records = Records(blocker / "records.json", tmp_path / "key")
    with pytest.raises(RecordsError, match="cannot write"):
        records.add(BEGINNER, entry(1))


# -- times, replays and version 1 files -------------------------------------------------------


def test_times_keep_the_fastest_wins_of_people_only(records: Records) -> None:
    records.add(BEGINNER, entry(500, "slow", seconds=80))
    records.add(BEGINNER, entry(600, "Computer", seconds=1))  # the computer: points only
    records.add(BEGINNER, entry(700, "loser", seconds=2, won=False))  # a loss: points only
    for points in range(10):  # fill the points table with better scores
        records.add(BEGINNER, entry(1000 + points, f"p{points}", seconds=50 + points))
    # Too few points for the table, but the fastest win: it enters the times table.
    assert records.time_place_for(BEGINNER, entry(1, "quick", seconds=3)) == 1
    assert records.add(BEGINNER, entry(1, "quick", seconds=3)) is None
    times = records.load_times()[BEGINNER]
    assert [e.name for e in times][:3] == ["quick", "p0", "p1"]
    assert all(e.won and e.name != "Computer" for e in times)
    assert "quick" not in [e.name for e in records.table(BEGINNER)]
    assert records.verify() == 11  # p0-p9 and quick: every distinct result kept


def test_a_replay_is_kept_under_its_digest(records: Records) -> None:
    records.add(BEGINNER, entry(42, "Ann"), replay=b'{"a replay": 1}\n')
    (saved,) = records.table(BEGINNER)
    path = records.replay_path(saved)
    assert path is not None and path.parent == records.replays_dir
    assert path.read_bytes() == b'{"a replay": 1}\n'
    assert path.stem == replay_digest(b'{"a replay": 1}\n') == saved.replay
    # An entry that enters no table leaves no replay behind.
    for points in range(10):
        records.add(BEGINNER, entry(100 + points, won=False))
    records.add(BEGINNER, entry(1, won=False), replay=b"unwanted")
    assert not (records.replays_dir / f"{replay_digest(b'unwanted')}.json").exists()
    # The first entry has left both tables (10 better losses, and it was a win beaten
    # by none in time, so it stays in the times table): its replay stays too.
    assert path.exists()
    for seconds in range(10):
        records.add(
            BEGINNER, entry(200, f"quick{seconds}", seconds=seconds), replay=b"%d" % seconds
        )
    assert not path.exists()  # pushed out of both tables: its replay goes
    kept = {e.replay for e in [*records.table(BEGINNER), *records.load_times()[BEGINNER]]}
    assert {p.stem for p in records.replays_dir.iterdir()} == kept


def test_version_1_files_are_read_and_upgraded_on_the_next_write(records: Records) -> None:
    key = load_key(records.key_path)
    assert key is not None
    payload = {
        "format": "minesweeper-records",
        "version": 1,
        "tables": [
            {
                # As version 1 wrote a category: no count_told (every count was told).
                "category": {
                    "topology": "square",
                    "rows": 9,
                    "cols": 9,
                    "mines": 10,
                    "first_click": "opening",
                    "no_guess": False,
                },
                "entries": [
                    {
                        "place": 1,
                        "name": "Ann",
                        "points": 90,
                        "seconds": 12.5,
                        "won": True,
                        "date": "2025-01-01T00:00:00+00:00",
                    },
                    {
                        "place": 2,
                        "name": "Computer",
                        "points": 80,
                        "seconds": 1.0,
                        "won": True,
                        "date": "2025-01-01T00:00:00+00:00",
                    },
                ],
            }
        ],
    }
    records.path.parent.mkdir(parents=True)
    records.path.write_text(json.dumps({**payload, "signature": _sign(key, payload)}))
    ann, _ = records.table(BEGINNER)
    assert (ann.name, ann.bbbv, ann.replay) == ("Ann", None, None)
    assert records.load_times()[BEGINNER] == [ann]  # the person's win seeds the times
    records.add(BEGINNER, entry(10, "Bob"))
    document = json.loads(records.path.read_text())
    assert document["version"] == 2
    assert [e.name for e in records.table(BEGINNER)] == ["Ann", "Computer", "Bob"]
    assert [e.name for e in records.load_times()[BEGINNER]] == ["Bob", "Ann"]
