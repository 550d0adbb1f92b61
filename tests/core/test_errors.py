"""Errors are typed by kind: the package raises one of the kinds of `minesweeper.errors`
(or a subclass of one), never the base class, and every error class it defines is of a
kind."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import minesweeper
from minesweeper import errors
from minesweeper.board import Board
from minesweeper.errors import MinesweeperError
from minesweeper.game import Game
from minesweeper.ladder.errors import LadderError
from minesweeper.topology import SquareTopology

PACKAGE = Path(minesweeper.__file__).parent
#: The kinds: the classes of `minesweeper.errors` right under the base, and the ladder's.
KINDS = {
    cls
    for cls in vars(errors).values()
    if isinstance(cls, type) and cls.__bases__ == (MinesweeperError,)
} | {LadderError}


def raised_names(path: Path) -> list[str]:
    """The names of the exceptions ``raise X(...)`` or ``raise X`` makes in ``path``."""
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Raise) and node.exc is not None:
            target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(target, ast.Name):
                names.append(target.id)
    return names


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.name)
def test_nothing_raises_the_base_class_or_a_runtime_error(path: Path) -> None:
    bad = {"MinesweeperError", "RuntimeError", "Exception"}
    assert bad.isdisjoint(raised_names(path))


def test_every_error_class_is_of_a_kind() -> None:
    classes = set()
    for info in pkgutil.walk_packages(minesweeper.__path__, "minesweeper."):
        if "migrations" in info.name or info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, MinesweeperError) and cls is not MinesweeperError:
                classes.add(cls)
    assert len(classes) > len(KINDS)
    assert {cls for cls in classes if not any(issubclass(cls, kind) for kind in KINDS)} == set()


def test_a_move_after_the_end_is_against_the_rules() -> None:
    game = Game(Board(SquareTopology(1, 2), [0]))
    game.visit(0)
    with pytest.raises(errors.RulesError, match="over"):
        game.visit(1)
