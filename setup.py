"""The compiled counting kernel (minesweeper/solver/_kernel.pyx) and subset prover
(_prover.pyx), built by Cython when a C++ compiler is at hand; without one the install still
succeeds and the pure-Python engine counts and proves alone
(`minesweeper.solver.probability.ENGINE` says which). Everything else is in pyproject.toml."""

from Cython.Build import cythonize
from setuptools import Extension, setup

kernel = Extension(
    "minesweeper.solver._kernel",
    ["minesweeper/solver/_kernel.pyx"],
    language="c++",
    # No fused multiply-adds: the endgame search's floats must be Python's, operation by operation.
    extra_compile_args=["-O2", "-ffp-contract=off"],
)
# The subset prover's rules over arrays (minesweeper/solver/subset.py is the reference).
prover = Extension(
    "minesweeper.solver._prover",
    ["minesweeper/solver/_prover.pyx"],
    language="c++",
    extra_compile_args=["-O2"],
)
extensions = cythonize([kernel, prover], language_level=3, quiet=True)
for extension in extensions:
    extension.optional = True  # a failed build is a warning, not a failed install (cythonize
    # does not carry the flag over from the Extension it is given)
setup(ext_modules=extensions)
