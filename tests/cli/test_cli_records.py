"""`minesweeper records` and `records verify` end to end."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from minesweeper.cli import main
from minesweeper.play.records import Category, Entry, Records
from minesweeper.variant import Variant

BEGINNER = Category(Variant.parse("9x9/10 modern"))
NOGUESS = Category(Variant.parse("9x9/10 modern"), no_guess=True)


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MINESWEEPER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MINESWEEPER_CONFIG_DIR", str(tmp_path / "config"))


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["records", *args], terminal_width=200)
    return result.exit_code, result.stdout, result.stderr


def test_prints_tables_and_filters_categories() -> None:
    code, out, _ = run()
    assert code == 0 and "no records yet" in out
    store = Records()
    store.add(BEGINNER, Entry.make("Ann", 120, 33.2, True))
    store.add(NOGUESS, Entry.make("Bob", 12, 3.5, False))
    code, out, _ = run()
    assert code == 0
    assert "beginner: square 9x9, 10 mines, opening first click" in out
    assert "Ann" in out and "120" in out and "33.2 s" in out and "won" in out
    assert "Bob" in out and "lost" in out
    code, out, _ = run("--category", "no-guess")
    assert "Bob" in out and "Ann" not in out
    assert "no matching records" in run("--category", "hex")[1]


def test_verify(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    code, out, _ = run("verify", "--records", str(path))
    assert code == 0 and "nothing to check" in out
    Records(path).add(BEGINNER, Entry.make("Ann", 120, 33.2, True))
    code, out, _ = run("verify", "--records", str(path))
    assert code == 0 and "signature OK, 1 result" in out
    assert run("--records", str(path), "verify")[0] == 0
    path.write_text(path.read_text().replace('"Ann"', '"Eve"'))
    code, _, err = run("verify", "--records", str(path))
    assert code == 2
    assert "failed its check" in err and str(path) in err and "delete it" in err
    code, _, err = run("--records", str(path))
    assert code == 2 and "failed its check" in err


def test_tells_apart_acm_categories_of_one_size() -> None:
    few = Category(Variant.parse("9x9/12 acm"))
    many = Category(Variant.parse("9x9/15 acm"))
    assert few.label == many.label  # in a game the count stays untold
    store = Records()
    store.add(few, Entry.make("Ann", 50, 20.0, True))
    store.add(many, Entry.make("Bob", 40, 30.0, True))
    code, out, _ = run()
    assert code == 0
    assert "square 9x9, mine count not told (acm rules), 12 mines" in out
    assert "square 9x9, mine count not told (acm rules), 15 mines" in out
