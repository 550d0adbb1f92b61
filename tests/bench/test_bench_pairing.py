"""Paired comparisons in `bench`: McNemar's exact test, the interval, --reference."""

from __future__ import annotations

import json
import random
from math import comb
from pathlib import Path

import pytest
from click.testing import CliRunner
from doubles import register_doubles
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from minesweeper.bench.pairing import Paired, Reference, pair
from minesweeper.cli import main
from minesweeper.cli.bench import breakable, name_tags, paired_table
from minesweeper.errors import InputError
from minesweeper.intervals import mcnemar_exact


@pytest.fixture(autouse=True)
def _doubles(monkeypatch: pytest.MonkeyPatch) -> None:
    register_doubles(monkeypatch)


def binomial_two_sided(a: int, b: int) -> float:
    """The two-sided binomial test at 1/2 by summing every split as unlikely as (a, b)."""
    n = a + b
    here = comb(n, a)
    return min(1.0, sum(comb(n, k) for k in range(n + 1) if comb(n, k) <= here) / 2**n)


@pytest.mark.parametrize(
    ("a", "b", "p"),
    [(0, 5, 0.0625), (1, 9, 0.021484375), (3, 3, 1.0), (0, 0, 1.0), (10, 0, 2 / 1024)],
)
def test_mcnemar_exact_known_values(a: int, b: int, p: float) -> None:
    assert mcnemar_exact(a, b) == pytest.approx(p, rel=1e-12)


@settings(deadline=None)  # the brute-force reference is slow on a busy machine
@given(st.integers(0, 200), st.integers(0, 200))
def test_mcnemar_is_the_two_sided_binomial_test(a: int, b: int) -> None:
    assert mcnemar_exact(a, b) == pytest.approx(binomial_two_sided(a, b), rel=1e-9)
    assert mcnemar_exact(a, b) == mcnemar_exact(b, a)


def test_mcnemar_on_the_issue_figures() -> None:
    # Issue 23: best against D. Hill on classic expert, 580 / 607, p = 0.45.
    assert round(mcnemar_exact(580, 607), 2) == 0.45
    assert round(mcnemar_exact(308, 363), 3) == 0.037


def test_interval_covers_the_true_difference() -> None:
    """Seeded simulation: 95% intervals cover the true paired difference about 95% of the time."""
    rng = random.Random(7)
    # Cells: both won, only A, only B, neither.
    probs = (0.35, 0.08, 0.12, 0.45)
    truth = probs[1] - probs[2]
    covered = 0
    runs = 2000
    for _ in range(runs):
        cells = rng.choices(range(4), probs, k=300)
        one = Paired("d", "a", "b", 300, cells.count(1), cells.count(2))
        low, high = one.ci95
        covered += low <= truth <= high
    assert 0.93 <= covered / runs <= 0.97


def test_pair_counts_only_common_games() -> None:
    a = {0: True, 1: True, 2: False, 3: False, 9: True}
    b = {0: True, 1: False, 2: True, 3: True, 7: False}
    one = pair("d", "a", a, "b", b)
    assert (one.games, one.only_a, one.only_b) == (4, 1, 2)
    assert one.difference == pytest.approx(-0.25)
    low, high = one.ci95
    assert low < one.difference < high


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_reference_reads_the_dh_results_format(tmp_path: Path) -> None:
    path = write(
        tmp_path / "r.txt", "0 WIN guesses=2\n1 LOSS guesses=1\n\n2 WIN\nSUMMARY played=3\n"
    )
    assert dict(Reference.read(path).won) == {0: True, 1: False, 2: True}


@pytest.mark.parametrize(
    ("text", "line", "what"),
    [
        ("0 WIN\nx LOSS\n", 2, "expected 'INDEX WIN|LOSS'"),
        ("0 WIN\n1 DRAW\n", 2, "expected"),
        ("0 WIN\n0 LOSS\n", 2, "game 0 appears twice"),
        ("SUMMARY played=0\n", None, "no game results"),
    ],
)
def test_bad_reference_names_the_line(
    tmp_path: Path, text: str, line: int | None, what: str
) -> None:
    with pytest.raises(InputError) as caught:
        Reference.read(write(tmp_path / "r.txt", text))
    assert caught.value.line == line
    assert what in str(caught.value)


def test_paired_table_fits_80_columns() -> None:
    rows = [
        Paired("intermediate", "search (think 100 ms)", "gauss-powermean", 10000, 1234, 987),
        Paired("intermediate", "search (think 100 ms)", "reference", 10000, 5, 3),
    ]
    console = Console(width=80, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(paired_table(rows, Reference(Path("expert_classic_seed2026.dh-results.txt"), {})))
    text = console.export_text()
    assert max(map(len, text.splitlines())) <= 80
    # Nothing folded: each name whole on its line, the preset once as its section's title.
    assert text.count("search (think 100 ms)") == 2 and "gauss-powermean" in text
    assert text.count("intermediate") == 1
    assert "+2.5" in text and "<0.001" in text and "0.727" in text


BASE = ["bench", "--preset", "beginner", "--games", "40", "--seed", "3", "--jobs", "1"]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*BASE, *args])
    return result.exit_code, result.output


def per_game(path: Path, strategy: str) -> dict[int, bool]:
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    return {row["game"]: row["won"] for row in rows if row["strategy"] == strategy}


def test_cli_pairs_strategies_and_a_reference(tmp_path: Path) -> None:
    log, report = tmp_path / "games.jsonl", tmp_path / "r.json"
    code, out = run("--strategy", "seeded-guess", "--strategy", "first-unknown",
                    "--per-game", str(log))  # fmt: skip
    assert code == 0, out
    assert "Paired, game by game" in out
    seeded, first = per_game(log, "seeded-guess"), per_game(log, "first-unknown")
    # The reference: first-unknown's results with games 0-9 flipped and game 39 left out.
    lines = [f"{g} {'WIN' if (w if g >= 10 else not w) else 'LOSS'}" for g, w in first.items()]
    flipped = write(tmp_path / "ref.txt", "\n".join(lines[:-1]) + "\nSUMMARY x\n")
    code, out = run("--strategy", "seeded-guess", "--strategy", "first-unknown",
                    "--resume", str(log), "--reference", str(flipped),
                    "--json", str(report))  # fmt: skip
    assert code == 0, out
    assert "reference ref.txt" in out
    paired = json.loads(report.read_text())["paired"]
    assert [(p["a"], p["b"]) for p in paired] == [
        ("seeded-guess", "first-unknown"),
        ("seeded-guess", "reference"),
        ("first-unknown", "reference"),
    ]
    expected = pair("beginner", "a", seeded, "b", first)
    assert (paired[0]["only_a"], paired[0]["only_b"]) == (expected.only_a, expected.only_b)
    # Against its own results, flipped on 10 games and missing one.
    against = paired[2]
    assert against["games"] == 39
    assert against["only_a"] + against["only_b"] == 10
    assert against["only_a"] == sum(first[g] for g in range(10))


def test_cli_one_strategy_without_reference_prints_no_pairs() -> None:
    code, out = run("--strategy", "first-unknown")
    assert code == 0, out
    assert "Paired" not in out


def test_cli_bad_reference_is_one_line(tmp_path: Path) -> None:
    bad = write(tmp_path / "ref.txt", "0 WIN\nnonsense\n")
    code, out = run("--strategy", "first-unknown", "--reference", str(bad))
    assert code != 0
    assert "line 2" in out and "Traceback" not in out


LONG = "best:endgame_layouts=500,endgame_nodes=20000"


def test_a_long_spec_is_tagged_in_the_paired_table_and_spelled_out_whole() -> None:
    rows = [
        Paired("expert", "best", LONG, 1000, 12, 9),
        Paired("expert", "best", "best:cutoff=0.8", 1000, 3, 4),
        Paired("expert", LONG, "best:cutoff=0.8", 1000, 5, 5),
    ]
    console = Console(width=80, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(paired_table(rows, None))
    lines = console.export_text().splitlines()
    assert max(map(len, lines)) <= 80
    assert [line.strip() for line in lines if LONG in line] == [f"[1] {LONG}"]
    assert sum(line.startswith("best [1]") for line in lines) == 1
    assert sum(line.startswith("[1]  best:cutoff=0.8") for line in lines) == 1


def test_names_are_tagged_only_until_both_columns_fit() -> None:
    assert name_tags(["best"], ["gauss-powermean"], width=36) == {}
    assert name_tags(["a" * 20], ["b" * 20], width=36) == {"a" * 20: "[1]"}
    assert name_tags(["a" * 40, "c"], ["b" * 40], width=36) == {"a" * 40: "[1]", "b" * 40: "[2]"}


def test_a_long_spec_breaks_between_its_settings() -> None:
    assert breakable(LONG, 22) == "best:\nendgame_layouts=500,\nendgame_nodes=20000"
    assert breakable("best:cutoff=0.8", 22) == "best:cutoff=0.8"
    assert breakable("search (think 500 positions)", 22) == "search (think 500 positions)"
    for width in range(1, 50):
        assert breakable(LONG, width).replace("\n", "") == LONG
