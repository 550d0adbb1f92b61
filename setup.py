"""The compiled counting kernel (minesweeper/solver/_kernel.pyx) and subset prover
(_prover.pyx), and the solver modules compiled from their own Python source
(`minesweeper.solver.compiled.COMPILED`), built by Cython when a C++ compiler is at hand;
without one the install still succeeds and the pure-Python engine counts and proves alone
(`minesweeper.solver.probability.ENGINE` says which). Everything else is in pyproject.toml."""

import importlib.util
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOLVER = Path("minesweeper/solver")

kernel = Extension(
    "minesweeper.solver._kernel",
    [str(SOLVER / "_kernel.pyx")],
    language="c++",
    # No fused multiply-adds: the endgame search's floats must be Python's, operation by operation.
    extra_compile_args=["-O2", "-ffp-contract=off"],
)
# The subset prover's rules over arrays (minesweeper/solver/subset.py is the reference).
prover = Extension(
    "minesweeper.solver._prover",
    [str(SOLVER / "_prover.pyx")],
    language="c++",
    extra_compile_args=["-O2"],
)
spec = importlib.util.spec_from_file_location("compiled", SOLVER / "compiled.py")
assert spec is not None and spec.loader is not None
compiled = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compiled)
# Plain Python compiled as it is: annotations do not type anything (an int stays a Python
# int), and no fused multiply-adds, so every number is the interpreter's.
sources = {
    f"minesweeper.solver.{name}": SOLVER.joinpath(*name.split(".")).with_suffix(".py")
    for name in compiled.COMPILED
}
from_source = [
    Extension(name, [str(source)], extra_compile_args=["-O2", "-ffp-contract=off"])
    for name, source in sources.items()
]
extensions = cythonize([kernel, prover], language_level=3, quiet=True) + cythonize(
    from_source,
    language_level=3,
    quiet=True,
    compiler_directives={"annotation_typing": False},
)
for extension in extensions:
    extension.optional = True  # a failed build is a warning, not a failed install (cythonize
    # does not carry the flag over from the Extension it is given)


class BuildExt(build_ext):
    """`build_ext`, recording beside each module compiled from its source the text it was
    built from (`compiled.stamp`), in the build and, built in place, in the source tree:
    the package uses a build only for that text."""

    def build_extension(self, ext: Extension) -> None:
        super().build_extension(ext)
        source = sources.get(ext.name)
        if source is not None:
            self._stamp(ext.name).write_text(compiled.fingerprint(source))

    def copy_extensions_to_source(self) -> None:
        super().copy_extensions_to_source()
        for name, source in sources.items():
            if self._stamp(name).exists():
                self.copy_file(str(self._stamp(name)), str(compiled.stamp(source)))

    def _stamp(self, name: str) -> Path:
        """The stamp of the module ``name`` in the build."""
        return compiled.stamp(Path(self.build_lib, *name.split(".")))


setup(ext_modules=extensions, cmdclass={"build_ext": BuildExt})
