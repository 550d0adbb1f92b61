"""Imports point inwards: every module of the package sits in a declared layer, imports
only its own layer and those below it (peers do not import each other), and no chain
of imports, at any depth of the code, comes back to where it started.

docs/architecture.md explains the layers; `python tests/core/test_layers.py` prints the
upward imports and cycles it finds.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "minesweeper"

#: The layers, innermost first. A layer is its units (top-level modules or packages of
#: ``minesweeper``); ``peers`` units of one layer must not import one another.
LAYERS: list[tuple[str, tuple[str, ...], bool]] = [
    # name, units, peers
    (
        "core",
        (
            "__init__",
            "errors",
            "limits",
            "inputs",
            "outputs",
            "jsontext",
            "resources",
            "intervals",
            "topology",
            "board",
            "game",
            "protocol",
            "variant",
            "server",
        ),
        False,
    ),
    ("solver", ("solver",), False),
    ("boards", ("boards",), False),
    ("play", ("play",), False),
    ("client", ("client", "advanced"), False),
    ("runners", ("judge", "bench", "ladder"), True),
    ("faces", ("tui", "web"), True),
    ("cli", ("cli", "__main__"), False),
]
#: Libraries of the faces: nothing below the faces imports them.
UI = ("click", "rich", "textual")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of the package by its dotted name."""
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(path: Path) -> set[str]:
    """Every module a source file imports, at any depth of its code (inside functions and
    ``TYPE_CHECKING`` blocks too): ``from a import b`` counts as ``a.b`` when that is a
    module, else as ``a``."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules() else base)
    return found


@cache
def graph() -> dict[str, frozenset[str]]:
    """The package's modules and the package modules each imports."""
    ours = modules()
    result = {}
    for name, path in ours.items():
        targets = set()
        for target in imported(path):
            while target and target not in ours:  # `a.b.C`: the module is `a.b`
                target = target.rpartition(".")[0]
            if target and target != name:
                targets.add(target)
        result[name] = frozenset(targets)
    return result


def unit(module: str) -> str:
    """The top-level module or package of ``minesweeper`` that ``module`` belongs to."""
    parts = module.split(".")
    if len(parts) == 1:
        return "__init__"
    return parts[1]


def layer_of(module: str) -> int:
    for index, (_, units, _) in enumerate(LAYERS):
        if unit(module) in units:
            return index
    raise LookupError(module)


def upward_imports() -> Iterator[str]:
    """Each import that breaks the layering, as ``importer -> imported (why)``."""
    for source, targets in sorted(graph().items()):
        here = layer_of(source)
        for target in sorted(targets):
            there = layer_of(target)
            if there > here:
                yield f"{source} -> {target} (up from {LAYERS[here][0]} to {LAYERS[there][0]})"
            elif there == here and LAYERS[here][2] and unit(source) != unit(target):
                yield f"{source} -> {target} (peers in {LAYERS[here][0]})"


def cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    edges = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(edges[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_every_module_has_a_layer() -> None:
    unplaced = []
    for name in modules():
        try:
            layer_of(name)
        except LookupError:
            unplaced.append(name)
    assert unplaced == [], "add these to LAYERS (and docs/architecture.md)"


def test_no_import_runs_up_a_layer() -> None:
    assert list(upward_imports()) == []


def test_no_import_cycle() -> None:
    assert cycles() == []


def test_the_checks_see_an_upward_import_and_a_cycle(monkeypatch: pytest.MonkeyPatch) -> None:
    edges = dict(graph())
    edges["minesweeper.board"] = edges["minesweeper.board"] | {"minesweeper.play.session"}
    monkeypatch.setitem(globals(), "graph", lambda: edges)
    assert any(
        line.startswith("minesweeper.board -> minesweeper.play") for line in upward_imports()
    )
    assert any("minesweeper.board" in component for component in cycles())


def below_the_faces() -> list[str]:
    faces = next(index for index, (name, _, _) in enumerate(LAYERS) if name == "faces")
    return [name for name in modules() if layer_of(name) < faces]


@pytest.mark.parametrize("module", below_the_faces())
def test_only_the_faces_import_ui_libraries(module: str) -> None:
    ui = {name for name in imported(modules()[module]) if name.split(".")[0] in UI}
    assert ui == set()


#: The one solver module that plays games, on boards it is handed (the client's, or
#: layouts a strategy drew itself to play on in its head), giving its strategy only views.
PLAYS_GAMES = {"minesweeper.solver.player": ("board", "game")}


@pytest.mark.parametrize("module", [m for m in modules() if unit(m) == "solver"])
def test_the_solver_reads_only_what_a_player_sees(module: str) -> None:
    """The solver imports only itself, the topologies and the errors: never a board
    (but `PLAYS_GAMES`, whose strategies see views)."""
    allowed = ("solver", "topology", "errors", *PLAYS_GAMES.get(module, ()))
    assert {target for target in graph()[module] if unit(target) not in allowed} == set()


#: Modules that judge foreign programs: they must work without the solver.
FOREIGN_JUDGING = [
    "minesweeper.judge.process",
    "minesweeper.judge.protocol",
    "minesweeper.judge.interactive",
    "minesweeper.judge.server",
    "minesweeper.judge.difference",
    "minesweeper.judge.sandbox",
    "minesweeper.judge.cgroups",
    "minesweeper.judge.escape",
]


@pytest.mark.parametrize("module", FOREIGN_JUDGING)
def test_judging_foreign_programs_needs_no_solver(module: str) -> None:
    assert {target for target in graph()[module] if unit(target) == "solver"} == set()


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


if __name__ == "__main__":
    print("upward imports:", *upward_imports(), sep="\n  ")
    print("cycles:", *(" ".join(component) for component in cycles()), sep="\n  ")
