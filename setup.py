"""The compiled counting kernel (minesweeper/solver/_kernel.pyx) and subset prover
(_prover.pyx), and the solver modules compiled from their own Python source
(`minesweeper.solver.compiled.COMPILED`), built by Cython when a C++ compiler is at hand;
without one the install still succeeds and the pure-Python engine counts and proves alone
(`minesweeper.solver.probability.ENGINE` says which). Everything else is in pyproject.toml."""

import hashlib
import importlib.util
import os
import platform
import shutil
import sysconfig
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOLVER = Path("minesweeper/solver")
#: After Python's own flags (-g -O3), so these win: -O2 for the hand-written kernels, as the
#: solver has always been built and measured, and no debug information (-g0: a quarter less
#: compile time, the same code).
OPTIMISE = ["-O2", "-g0"]
#: The modules compiled from plain Python spend their time in the interpreter's own calls
#: (together under 5% of `best`'s CPU in their own code, perf), so -O1: 38% less compile time.
OPTIMISE_PLAIN = ["-O1", "-g0"]


def popcount_flags() -> list[str]:
    """``-mpopcnt`` where this x86-64 machine has the instruction (every x86-64 CPU since
    2008; the package is built where it runs): the kernel counts layouts by bit counts,
    and without it each is a call into libgcc (7% of `best`'s CPU)."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return []
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return []
    return ["-mpopcnt"] if " popcnt" in flags else []


kernel = Extension(
    "minesweeper.solver._kernel",
    [str(SOLVER / "_kernel.pyx")],
    language="c++",
    # No fused multiply-adds: the kernel's floats (pair risks, plan widths) must be Python's,
    # operation by operation.
    extra_compile_args=[*OPTIMISE, *popcount_flags(), "-ffp-contract=off"],
)
# The subset prover's rules over arrays (minesweeper/solver/subset.py is the reference).
prover = Extension(
    "minesweeper.solver._prover",
    [str(SOLVER / "_prover.pyx")],
    language="c++",
    extra_compile_args=OPTIMISE,
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
    Extension(name, [str(source)], extra_compile_args=[*OPTIMISE_PLAIN, "-ffp-contract=off"])
    for name, source in sources.items()
]
#: Modules cythonized and compiled at once: the build is CPU-bound, module by module.
JOBS = os.cpu_count() or 1
extensions = cythonize([kernel, prover], language_level=3, quiet=True, nthreads=JOBS) + cythonize(
    from_source,
    language_level=3,
    quiet=True,
    nthreads=JOBS,
    compiler_directives={"annotation_typing": False},
)
for extension in extensions:
    extension.optional = True  # a failed build is a warning, not a failed install (cythonize
    # does not carry the flag over from the Extension it is given)


#: Modules already compiled, by what they were compiled from: the editable install after a
#: plain one (as .ci/run and the README's two commands do), or a rebuild after editing one
#: module, compiles only what changed. `build/` is the build's own folder; delete it to clear.
CACHE = Path("build/compiled")


def cache_key(ext: Extension) -> str:
    """What ``ext``'s compiled module depends on: its C or C++ source (which names the
    Cython that wrote it), the flags, the compiler and the Python it is built for."""
    digest = hashlib.sha256()
    settings = (sysconfig.get_config_var("EXT_SUFFIX"), sysconfig.get_config_var("CC"))
    for part in (*settings, ext.language, *ext.extra_compile_args):
        digest.update(f"{part}\0".encode())
    for source in ext.sources:
        digest.update(Path(source).read_bytes())
    return digest.hexdigest()[:32]


class BuildExt(build_ext):
    """`build_ext`, recording beside each module compiled from its source the text it was
    built from (`compiled.stamp`), in the build and, built in place, in the source tree:
    the package uses a build only for that text."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = JOBS

    def build_extension(self, ext: Extension) -> None:
        built = Path(self.get_ext_fullpath(ext.name))
        cached = CACHE / f"{ext.name}-{cache_key(ext)}.so"
        if cached.exists():
            built.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(cached, built)
        else:
            super().build_extension(ext)
            CACHE.mkdir(parents=True, exist_ok=True)
            partial = cached.with_name(f"{cached.name}.{os.getpid()}.partial")
            shutil.copyfile(built, partial)
            partial.replace(cached)  # whole or absent, whoever builds beside this one
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
