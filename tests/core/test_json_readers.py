"""Issue 27: every JSON reader refuses text that is not valid Unicode, huge numbers and deep
nesting in one line naming the file, and a bad records file never costs the game just played.

The readers: the records file (`records`, `records verify`, `autoplay`), replays (`replay`,
`records verify --replays`) and per-game logs (`bench --resume`). A JSON string ``"\\ud800"``
(a lone surrogate) used to pass `json.loads` and crash the first ``encode`` after it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from minesweeper.cli import main
from minesweeper.play.records import Category, Entry, Records
from minesweeper.variant import Variant

LONE = '"\\ud800"'  # the JSON text of a lone surrogate
BEGINNER = Category(Variant.parse("9x9/10 modern"))


def run(args: list[str]) -> Result:
    result = CliRunner().invoke(main, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def one_line(result: Result, *words: str, status: int = 2) -> str:
    assert result.exit_code == status, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("minesweeper: ")
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Records:
    monkeypatch.setenv("MINESWEEPER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MINESWEEPER_CONFIG_DIR", str(tmp_path / "config"))
    assert run(["autoplay", "--preset", "beginner", "--quiet", "--seed", "1"]).exit_code == 0
    return Records()


def poisoned(text: str) -> str:
    """``text`` with its first ``"Computer"`` turned into a lone surrogate."""
    assert '"Computer"' in text
    return text.replace('"Computer"', LONE, 1)


@pytest.mark.parametrize("args", [["records"], ["records", "verify"]])
def test_a_lone_surrogate_in_the_records_is_one_line(store: Records, args: list[str]) -> None:
    store.path.write_text(poisoned(store.path.read_text()))
    one_line(run(args), str(store.path), "not valid Unicode")


def test_a_lone_surrogate_in_a_replay_is_one_line(store: Records, tmp_path: Path) -> None:
    (saved,) = store.replays_dir.glob("*.json")
    bad = tmp_path / "bad.json"
    bad.write_text(poisoned(saved.read_text()))
    one_line(run(["replay", "--stats", str(bad)]), str(bad), "not valid Unicode")


def test_records_verify_reports_a_recorded_replay_that_is_not_unicode(store: Records) -> None:
    (saved,) = store.replays_dir.glob("*.json")
    data = poisoned(saved.read_text()).encode()
    store.add(BEGINNER, Entry.make("Ann", 500, 3.0, True), data)  # signed, and its digest right
    result = run(["records", "verify", "--replays"])
    assert result.exit_code == 2
    (bad,) = [line for line in result.stderr.splitlines() if "Ann" in line]
    assert "not valid Unicode" in bad and str(store.replays_dir) in bad


def test_autoplay_keeps_its_game_when_the_records_are_not_unicode(store: Records) -> None:
    damaged = poisoned(store.path.read_text())
    store.path.write_text(damaged)
    result = run(["autoplay", "--preset", "beginner", "--quiet", "--seed", "2"])
    assert result.exit_code == 0
    assert "place 1" in result.stdout
    note = one_line(result, "failed its check", "kept as", status=0)
    (aside,) = store.path.parent.glob("records.damaged-*.json")
    assert str(aside) in note
    assert aside.read_text() == damaged  # kept whole, for the player to restore or delete
    assert [e.name for e in Records().entries()] == ["Computer"]  # the new game, recorded
    # The damaged file's replay stays beside it: nothing it refers to was pruned.
    assert len(list(store.replays_dir.glob("*.json"))) == 2


def test_a_records_file_that_is_not_json_costs_no_game_either(store: Records) -> None:
    store.path.write_bytes(b"[" * 100_000)
    result = run(["autoplay", "--preset", "beginner", "--quiet", "--seed", "2"])
    assert result.exit_code == 0
    one_line(result, "nested too deeply", "kept as", status=0)
    assert run(["records", "verify"]).exit_code == 0


def test_a_lone_surrogate_in_a_per_game_log_is_one_line(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    args = ["bench", "--preset", "beginner", "--games", "2", "--strategy", "best"]
    assert run([*args, "--jobs", "1", "--per-game", str(log)]).exit_code == 0
    first, *rest = log.read_text().splitlines(keepends=True)
    row = json.loads(first)
    row["strategy"] = "\ud800"
    log.write_text(json.dumps(row) + "\n" + "".join(rest))
    one_line(run([*args, "--jobs", "1", "--resume", str(log)]), str(log), "line 1", "Unicode")


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b'{"a": "\\udfff"}', "not valid Unicode"),
        (b'["\\ud800\\ud800"]', "not valid Unicode"),
        (b'{"\\ud800": 1}', "not valid Unicode"),
        (b"[" + b"9" * 5000 + b"]", "5,000 digits"),
        (b"[1e999]", "overflows"),
        (b"[NaN]", "not a number"),
        (b"[-Infinity]", "not a number"),
        (b"[" * 100_000, "nested too deeply"),
        (b'{"a":\n\xff}', "line 2: byte 0xff"),
        (b'{"a":\n}', "line 2: not valid JSON"),
    ],
)
def test_load_json_refuses_in_words(data: bytes, words: str) -> None:
    from minesweeper.jsontext import NotJSONError, load_json

    with pytest.raises(NotJSONError) as caught:
        load_json(data, "f.json")
    assert words in str(caught.value)
    assert str(caught.value).startswith("f.json: ")
    assert len(str(caught.value)) < 120


def test_load_json_reads_surrogate_pairs_and_big_but_fair_numbers() -> None:
    from minesweeper.jsontext import load_json

    assert load_json(b'["\\ud83d\\ude00", 18446744073709551615, 1e300]') == [
        "\U0001f600",
        2**64 - 1,
        1e300,
    ]
