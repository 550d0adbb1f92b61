"""Imports point inwards: the core and the solver never import the layers above them."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "minesweeper"
CORE = [
    "topology",
    "board.py",
    "game.py",
    "protocol.py",
    "server.py",
    "play/session.py",
    "play/records.py",
    "play/scoring.py",
    "play/stats.py",
    "play/history.py",
    "intervals.py",
    "boards/mbf.py",
    "play/replay.py",
    "boards/generate.py",
    "errors.py",
    "limits.py",
    "inputs.py",
    "outputs.py",
]
UI = ("click", "rich", "textual", "minesweeper.cli", "minesweeper.tui")


def imports(path: Path) -> set[str]:
    """Every module a source file imports, at any depth of its code."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def sources(*names: str) -> list[Path]:
    paths = []
    for name in names:
        path = PACKAGE / name
        paths.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return paths


@pytest.mark.parametrize("path", sources(*CORE), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_imports_no_ui_and_no_solver(path: Path) -> None:
    bad = {name for name in imports(path) if name.startswith((*UI, "minesweeper.solver"))}
    assert not bad


@pytest.mark.parametrize("path", sources("solver"), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_solver_imports_only_the_solver_topologies_and_errors(path: Path) -> None:
    allowed = ("minesweeper.solver", "minesweeper.topology", "minesweeper.errors")
    ours = {name for name in imports(path) if name.startswith("minesweeper")}
    assert {name for name in ours if not name.startswith(allowed)} == set()
    assert not {name for name in imports(path) if name.startswith(UI)}


def test_the_judge_command_loads_only_what_it_needs() -> None:
    code = (
        "import sys; from minesweeper.cli import main\n"
        "try:\n    main(['server', '-'], standalone_mode=False)\n"
        "finally:\n    print('\\n'.join(sys.modules), file=sys.stderr)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        input="1 2\n.X\n0 0\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.stdout == "??\n1@\nYOU WIN!\n1 1\n"
    loaded = set(result.stderr.split())
    heavy = ("rich", "textual", "minesweeper.solver")
    assert not {name for name in loaded if name.startswith(heavy)}


JUDGE = [
    "judge/process.py",
    "judge/protocol.py",
    "judge/interactive.py",
    "judge/server.py",
    "judge/difference.py",
]


def within(name: str, packages: tuple[str, ...]) -> bool:
    """Whether module ``name`` is one of ``packages`` or inside one."""
    return any(name == package or name.startswith(package + ".") for package in packages)


@pytest.mark.parametrize("path", sources("judge"), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_judge_package_imports_no_ui(path: Path) -> None:
    assert not {name for name in imports(path) if within(name, UI)}


@pytest.mark.parametrize("path", sources(*JUDGE), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_judging_foreign_programs_needs_no_solver(path: Path) -> None:
    assert not {name for name in imports(path) if within(name, ("minesweeper.solver",))}


@pytest.mark.parametrize("path", sources("ladder"), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_ladder_service_imports_no_face(path: Path) -> None:
    faces = (*UI, "minesweeper.web", "minesweeper.judge", "minesweeper.bench")
    assert not {name for name in imports(path) if within(name, faces)}
