"""Which engine counts: the compiled kernel (`minesweeper.solver._kernel`, built by
setup.py) or the pure-Python reference, its twin.

The counting modules read `kernel` when they count, not when they are imported, so that
``MINESWEEPER_ENGINE=python`` and the tests choose (a test sets it to None to count in
Python alone).
"""

from __future__ import annotations

from typing import Any

from minesweeper.solver.compiled import load_compiled

#: The compiled kernel, or None: not built, or ``MINESWEEPER_ENGINE=python``.
kernel: Any = load_compiled("_kernel")
#: Which engine counts components: ``"compiled"`` (the kernel) or ``"python"``.
ENGINE = "python" if kernel is None else "compiled"
