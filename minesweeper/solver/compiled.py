"""The solver modules the package build also compiles from their own Python source.

setup.py compiles `COMPILED` with Cython exactly as they are written (no C types: the
same objects, integers and floats, operation by operation), which takes the
interpreter's overhead off the engine's bookkeeping. The source stays the one text of
each, and a compiled module is used only when it was built from the very text its
source has now (the `fingerprint` in its `stamp`): `SourceFirst`, put first on
``sys.meta_path`` when this module is imported (the solver package imports it first),
loads the source instead when the build is stale (an edit not rebuilt yet with ``pip
install -e .``: with a warning) or missing, and always under ``MINESWEEPER_ENGINE=python``,
so that the pure-Python reference (and a profiler) sees plain Python everywhere.

Two things compiled code does not do as the interpreter does, which the compiled
modules' source must respect:

- Only the interpreter's loop takes an asynchronous exception (`minesweeper.resources.Guard`
  stops a count with one) or runs a signal's handler (Ctrl-C): compiled loops never do.
  Their long loops call `checkpoint`, defined here because this module is never
  compiled: the Python count every 64 states and its walk back every 64 moves,
  `counting.system.Budget`'s clock checks, each product and each correlation of polynomials,
  each node of the endgame's Python search, each pivot and row of deduction (`gauss`).
- ``len()`` is a C integer there, and so is an expression of it and literals alone:
  ``1 << len(cells)`` shifts in 64 bits and ``2 ** len(cells)`` is a float. Such a value
  goes through a name or a Python function first (``tests/solver/test_compiled.py``
  counts past 64 cells and searches past 64 layouts).

Only the standard library is imported here: setup.py reads `COMPILED` and `fingerprint`
from this file.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any

#: The modules of ``minesweeper.solver`` compiled from their Python source (see above), by
#: their names below it (``counting.programme``: ``minesweeper.solver.counting.programme``).
COMPILED = (
    "best",
    "constraints",
    "counting.answer",
    "counting.combining",
    "counting.parts",
    "counting.polynomials",
    "counting.programme",
    "counting.system",
    "endgame",
    "gauss",
    "pairs",
    "player",
    "probability",
    "unionfind",
    "view",
)

PACKAGE = "minesweeper.solver"


def python_only() -> bool:
    """Whether the environment asks for pure Python: ``MINESWEEPER_ENGINE=python``."""
    return os.environ.get("MINESWEEPER_ENGINE", "").strip().lower() == "python"


def built(source: Path) -> Path | None:
    """The compiled build of the module whose source is ``source``, if there is one."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = source.with_suffix(suffix)
        if path.exists():
            return path
    return None


def fingerprint(source: Path) -> str:
    """The SHA-256 of ``source``'s bytes, in hex."""
    return hashlib.sha256(source.read_bytes()).hexdigest()


def stamp(source: Path) -> Path:
    """Where the build of ``source``'s module records the `fingerprint` it was made from."""
    return source.with_suffix(".sha256")


def source_to_load(source: Path, pure: bool) -> Path | None:
    """``source``, when its module must be loaded from it: ``pure`` (pure Python asked
    for), no build, or a build of another text than ``source`` has now (with a warning);
    None when the build is to be used."""
    build = built(source)
    if pure or build is None:
        return source
    made_from = stamp(source)
    if not made_from.exists() or made_from.read_text().strip() != fingerprint(source):
        warnings.warn(
            f"{build.name} was not built from this {source.name}: the source runs instead"
            " (rebuild with pip install -e .)",
            stacklevel=2,
        )
        return source
    return None


class SourceFirst:
    """A meta path finder: `COMPILED`'s modules from their source when `source_to_load`
    says so (else the normal import finds the build)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        name = fullname.removeprefix(f"{PACKAGE}.")
        if name == fullname or name not in COMPILED or not path:
            return None
        source = source_to_load(Path(path[0]) / f"{name.rpartition('.')[2]}.py", python_only())
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def load_compiled(name: str) -> Any:
    """The compiled module ``minesweeper.solver.<name>`` (the kernel, the subset prover),
    unless it is not built or the environment says ``MINESWEEPER_ENGINE=python``."""
    if python_only():
        return None
    try:
        return importlib.import_module(f"{PACKAGE}.{name}")
    except ImportError:  # built without a compiler: the pure-Python reference works alone
        return None


def checkpoint() -> None:
    """Nothing, run by the interpreter: a compiled loop that calls it takes there a pending
    asynchronous exception or signal (see above)."""


def imported() -> list[str]:
    """Those of `COMPILED` imported so far."""
    return [name for name in COMPILED if f"{PACKAGE}.{name}" in sys.modules]


def from_source() -> list[str]:
    """Those of `COMPILED` imported so far that run from their source, not a build: a
    benchmark says so, as their CPU differs (``MINESWEEPER_ENGINE=python``, no build, or a
    stale one)."""
    return [
        name
        for name in imported()
        if not isinstance(
            getattr(sys.modules[f"{PACKAGE}.{name}"].__spec__, "loader", None),
            importlib.machinery.ExtensionFileLoader,
        )
    ]


def modules_state() -> str:
    """`from_source` in a word or a list: ``"compiled"`` when none, ``"source"`` when every
    one imported, else ``"source: best, view"``."""
    source = from_source()
    if not source:
        return "compiled"
    if source == imported():
        return "source"
    return "source: " + ", ".join(source)


def install() -> None:
    """Put `SourceFirst` first on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, SourceFirst) for finder in sys.meta_path):
        sys.meta_path.insert(0, SourceFirst())


install()
