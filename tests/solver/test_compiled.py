"""The solver modules compiled from their own source (`minesweeper.solver.compiled`): loaded
only when fresh, and the same answers as their source run by the interpreter."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from importlib import import_module
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from types import ModuleType
from typing import Any
from unittest import mock

import pytest
from brute import Position, positions
from ctrl_c import reached_by_ctrl_c
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minesweeper.solver import InconsistentView, View, compiled
from minesweeper.solver.compiled import COMPILED, PACKAGE, python_only, source_to_load

EXAMPLES = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LOADED = {name: import_module(f"{PACKAGE}.{name}") for name in COMPILED}
IS_BUILT = all(not str(module.__file__).endswith(".py") for module in LOADED.values())
needs_build = pytest.mark.skipif(
    not IS_BUILT, reason="the modules are not compiled (or not wanted)"
)


def _files(tmp_path: Path) -> Path:
    """A module's source and a build beside it (no stamp yet)."""
    source = tmp_path / "engine.py"
    source.write_text("ANSWER = 42\n")
    (tmp_path / f"engine{EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    return source


def test_a_build_of_the_very_source_is_used(tmp_path: Path) -> None:
    source = _files(tmp_path)
    compiled.stamp(source).write_text(compiled.fingerprint(source))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert source_to_load(source, pure=False) is None
    assert source_to_load(source, pure=True) == source  # MINESWEEPER_ENGINE=python


def test_a_build_of_another_text_is_not_used(tmp_path: Path) -> None:
    source = _files(tmp_path)
    compiled.stamp(source).write_text(compiled.fingerprint(source))
    source.write_text("ANSWER = 43\n")  # edited after the build
    with pytest.warns(UserWarning, match="not built from this engine.py"):
        assert source_to_load(source, pure=False) == source
    compiled.stamp(source).unlink()  # a build that says nothing of its source
    with pytest.warns(UserWarning, match="not built from this engine.py"):
        assert source_to_load(source, pure=False) == source


def test_without_a_build_the_source_loads(tmp_path: Path) -> None:
    source = tmp_path / "engine.py"
    source.write_text("")
    assert compiled.built(source) is None
    assert source_to_load(source, pure=False) == source


def test_the_modules_load_as_the_environment_says() -> None:
    """Pure Python under MINESWEEPER_ENGINE=python; else the build where a compiler made one."""
    for name, module in LOADED.items():
        path = Path(str(module.__file__))
        if python_only():
            assert path.suffix == ".py"
        elif shutil.which("gcc") or shutil.which("cc"):
            assert path.suffix != ".py", f"{name} is not compiled: pip install -e . builds it"


@pytest.fixture(scope="module")
def source() -> Iterator[dict[str, ModuleType]]:
    """Every compiled module's source run by the interpreter, imported afresh as a set of
    its own (each imports the others' source, not their builds); then the builds are the
    package's modules again."""
    names = [f"{PACKAGE}.{name}" for name in COMPILED]
    saved = {name: sys.modules.pop(name) for name in names}
    try:
        with mock.patch.object(compiled, "python_only", lambda: True):
            found = {name: import_module(f"{PACKAGE}.{name}") for name in COMPILED}
    finally:
        for name in names:
            sys.modules.pop(name, None)
        sys.modules.update(saved)
        for name, module in saved.items():  # ``from package import module`` reads these
            package, _, attribute = name.rpartition(".")
            setattr(sys.modules[package], attribute, module)
    yield found


def _answer(result: Any) -> object:
    """What a `Probabilities` says, as plain values."""
    return (
        [(cell, result[cell]) for cell in sorted(result)],
        result.layouts,
        result.weight,
        result.safe,
        result.mines,
        result.smallest(2),
    )


def _either(count: Callable[[], object]) -> object:
    try:
        return count()
    except InconsistentView as error:
        return str(error)


@needs_build
@EXAMPLES
@given(positions(), st.booleans(), st.integers(0, 10**6))
def test_the_compiled_engine_answers_as_its_source(
    source: dict[str, ModuleType], position: Position, told: bool, pick: int
) -> None:
    """Constraints, probabilities and every outcome of opening a cell: the same numbers
    (the mine count told or not)."""
    view = position.view
    if told:
        view = View(view.topology, view.revealed, view.mines, position.board.mine_count)
    twins = (LOADED, source)
    rules = [twin["constraints"].constraints(view) for twin in twins]
    assert [(r.cells, r.mines) for r in rules[0]] == [(r.cells, r.mines) for r in rules[1]]
    answers = [
        _either(lambda twin=twin: _answer(twin["probability"].probabilities(view)))
        for twin in twins
    ]
    assert answers[0] == answers[1]
    unknown = view.unknown()
    if not unknown:
        return
    cell = unknown[pick % len(unknown)]
    around = [o for o in view.topology.neighbours(cell) if o in set(unknown)]
    kept = [rule for rule in rules[0] if cell not in rule.cells]
    outcomes = []
    for twin in twins:
        found = twin["probability"].solve_outcomes(
            kept, around, unknown, view.mines_left, opened=cell, cache={}
        )
        outcomes.append(None if found is None else {n: _answer(r) for n, r in found.items()})
    assert outcomes[0] == outcomes[1]


#: 9x9 with an opening in one corner: 60-odd unknown cells, most of them free.
WIDE = "9 9\n" + "\n".join(["0001?????", "0112?????", "01???????", "12???????"] + ["?" * 9] * 5)


@needs_build
@pytest.mark.parametrize("told", [None, 20])
def test_past_64_free_cells_the_compiled_engine_answers_as_its_source(
    source: dict[str, ModuleType], told: int | None
) -> None:
    """A free block of more than 64 cells: compiled, ``1 << len(cells)`` shifts a C integer
    (in 64 bits) where Python's has no bound, so the engine must never write it so."""
    from minesweeper.boards.position import read_position

    view = read_position(WIDE, mine_count=told)
    unknown = view.unknown()
    assert len(unknown) > 64
    rules = LOADED["constraints"].constraints(view)
    for cell in (unknown[0], unknown[30], unknown[-1]):
        around = [o for o in view.topology.neighbours(cell) if view.is_unknown(o)]
        kept = [rule for rule in rules if cell not in rule.cells]
        found = [
            twin["probability"].solve_outcomes(
                kept, around, unknown, view.mines_left, opened=cell, cache={}
            )
            for twin in (LOADED, source)
        ]
        assert found[0] is not None and found[1] is not None
        assert {n: _answer(r) for n, r in found[0].items()} == {
            n: _answer(r) for n, r in found[1].items()
        }


#: A count of about 4 CPU seconds, all of it in the compiled engine's own loops (63 cells:
#: too many for the kernel, too few for deduction first), run under a guard of 0.3 s (with
#: ``guard``) or until Ctrl-C; in a process of its own (no test tool's gc callbacks, where
#: an asynchronous exception would land and be swallowed). It prints the CPU seconds taken.
LONG_COUNT = """
import random, sys, time
from minesweeper.resources import Guard, OverBudget
from minesweeper.solver.constraints import Constraint
from minesweeper.solver.probability import solve
rng = random.Random(1)
rules = [Constraint(frozenset(rng.sample(range(63), 8)), 2, -1) for _ in range(28)]
start = time.process_time()
print("counting", flush=True)
try:
    if sys.argv[1:] == ["guard"]:
        with Guard(start + 0.3, None):
            solve(rules, list(range(63)), None)
    else:
        solve(rules, list(range(63)), None)
except (OverBudget, KeyboardInterrupt) as stop:
    print(type(stop).__name__, time.process_time() - start)
"""


def _long_count(*args: str) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        reached_by_ctrl_c([sys.executable, "-c", LONG_COUNT, *args]),
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stdout.readline() == "counting\n"
    return child


@needs_build
def test_a_guard_stops_a_long_compiled_count() -> None:
    """Compiled loops never take an asynchronous exception themselves: the count calls
    `compiled.checkpoint`, where the guard's stop lands."""
    out, _ = _long_count("guard").communicate(timeout=60)
    stopped, seconds = out.split()
    assert stopped == "_TimeOver"
    assert float(seconds) < 0.6


LONG_CORRELATIONS = """
import time
from minesweeper.resources import Guard, OverBudget
from minesweeper.solver.counting.polynomials import correlations

# Numbers past machine words, so no kernel: each correlation (about 0.05 s) is the compiled
# module's own, a loop of C calls that never passes through the interpreter; the 150 of
# them take about 7 s, and stopped only at their end before each became a checkpoint.
g = [10**60 + i for i in range(1200)]
polys = [[10**50 + j + k for j in range(600)] for k in range(150)]
start = time.process_time()
try:
    with Guard(start + 0.3, None):
        correlations(g, polys, 600)
except OverBudget as stop:
    print(type(stop).__name__, time.process_time() - start)
"""


@needs_build
def test_a_guard_stops_a_long_run_of_compiled_correlations() -> None:
    """The approximate count correlates hundreds of long polynomials in one go on a wide
    board: each correlation is a checkpoint (else the guard's thread never even runs)."""
    run = subprocess.run(
        [sys.executable, "-c", LONG_CORRELATIONS], capture_output=True, text=True, timeout=120
    )
    stopped, seconds = run.stdout.split()
    assert stopped == "_TimeOver"
    assert float(seconds) < 0.8


@needs_build
def test_ctrl_c_stops_a_long_compiled_count() -> None:
    """SIGINT's handler runs in the interpreter's loop too, at the same checkpoints."""
    child = _long_count()
    time.sleep(0.3)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=60)
    assert time.monotonic() - sent < 0.5
    assert out.split()[0] == "KeyboardInterrupt"


@needs_build
@pytest.mark.parametrize(
    ("text", "mines"),
    [("3 6\n01????\n12????\n??????\n", 6), ("4 5\n01???\n12???\n?????\n?????\n", 5)],
)
def test_past_64_layouts_the_compiled_endgame_plays_as_its_source(
    source: dict[str, ModuleType], text: str, mines: int
) -> None:
    """The endgame's sets of layouts are the bits of Python ints: past 64 layouts a
    compiled ``1 << len(found)`` would drop some (504 and 660 layouts here)."""
    from minesweeper.boards.position import read_position

    view = read_position(text, mine_count=mines)
    found = LOADED["endgame"].layouts(view)
    assert found is not None and len(found) > 64
    assert LOADED["endgame"].solve_endgame(view) == source["endgame"].solve_endgame(view)
    cells = view.unknown()
    assert LOADED["endgame"].layout_tables(view, cells, found) == source["endgame"].layout_tables(
        view, cells, found
    )


def _bench_json(tmp_path: Path, **environment: str) -> dict[str, Any]:
    """What `minesweeper bench --json` says of a few beginner games, in a process of its own."""
    out = tmp_path / "bench.json"
    command = [sys.executable, "-m", "minesweeper", "bench", "--preset", "beginner"]
    command += ["--games", "3", "--strategy", "best", "--jobs", "1", "--json", str(out)]
    run = subprocess.run(
        command, env={**os.environ, **environment}, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    return {"stdout": " ".join(run.stdout.split()), **json.loads(out.read_text())}


def test_a_benchmark_says_its_modules_ran_from_source(tmp_path: Path) -> None:
    found = _bench_json(tmp_path, MINESWEEPER_ENGINE="python")
    assert (found["engine"], found["modules"]) == ("python", "source")
    assert "python engine" in found["stdout"] and "modules" not in found["stdout"]


@needs_build
def test_a_benchmark_says_its_modules_ran_compiled(tmp_path: Path) -> None:
    found = _bench_json(tmp_path, MINESWEEPER_ENGINE="")
    assert found["modules"] == "compiled"
    assert "compiled engine" in found["stdout"] and "source" not in found["stdout"]


@needs_build
def test_a_stale_build_is_named_in_the_record() -> None:
    """One module whose build is not of its source now runs from it, and the record (and
    bench's title) names it."""
    script = """
import sys, warnings
from minesweeper.cli.bench import engine_words  # and with it every module it needs
from minesweeper.solver import compiled
assert compiled.modules_state() == "compiled", compiled.modules_state()
compiled.fingerprint = lambda source: "edited since"
del sys.modules["minesweeper.solver.unionfind"]
with warnings.catch_warnings(record=True):
    warnings.simplefilter("always")
    import minesweeper.solver.unionfind
print(compiled.modules_state(), "|", engine_words())
"""
    run = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "MINESWEEPER_ENGINE": ""},
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "source: unionfind | compiled engine, unionfind from source"
