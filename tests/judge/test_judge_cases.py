"""End-to-end judge cases: our hand-checked pairs and the public ACM testcases."""

from __future__ import annotations

from pathlib import Path

import pytest
from judge_helpers import ACM, ROOT, run_cli

from minesweeper.topology import TOPOLOGIES

BASIC = ROOT / "testcases" / "basic"


def topology_of(case: Path, root: Path) -> str:
    """Cases in a subfolder named after a topology use that topology; others are square."""
    parts = case.relative_to(root).parts[:-1]
    return parts[0] if parts and parts[0] in TOPOLOGIES else "square"


def pairs(root: Path) -> list[Path]:
    return sorted(path for path in root.rglob("*.in") if path.with_suffix(".out").exists())


OWN = pairs(BASIC)


def test_own_cases_are_plenty() -> None:
    assert len([case for case in OWN if case.parent == BASIC]) >= 12


@pytest.mark.parametrize("case", OWN, ids=lambda path: str(path.relative_to(BASIC)))
def test_own_basic_case(case: Path) -> None:
    topology = topology_of(case, BASIC)
    run = run_cli(["server", "--topology", topology, str(case)])
    assert run.exit_code == 0, run.stderr
    assert run.stdout == case.with_suffix(".out").read_text()


def acm_cases() -> list[Path]:
    return pairs(ACM / "basic")


@pytest.mark.parametrize("case", acm_cases(), ids=lambda path: path.name)
def test_public_acm_case(case: Path) -> None:
    run = run_cli(["server", str(case)])
    assert run.exit_code == 0, run.stderr
    assert run.stdout == case.with_suffix(".out").read_text()


def test_the_public_acm_cases_are_found() -> None:
    assert len(acm_cases()) == 5


def test_input_ending_early_keeps_maps_and_says_so() -> None:
    case = BASIC / "ends-early.in"
    run = run_cli(["server", str(case)])
    assert run.exit_code == 0
    assert run.stdout == case.with_suffix(".out").read_text()
    assert len(run.stderr.strip().splitlines()) == 1
    assert "before the game was decided" in run.stderr


def test_stdin_is_read_when_file_is_absent_or_dash() -> None:
    text = (BASIC / "win-one-flood.in").read_text()
    expected = (BASIC / "win-one-flood.out").read_text()
    assert run_cli(["server"], stdin=text).stdout == expected
    assert run_cli(["server", "-"], stdin=text).stdout == expected
