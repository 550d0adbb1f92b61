"""Where the tests find the repository's files, whatever folder a test module is in."""

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

#: This folder: the test helpers, data/, clients/ and snapshots/.
TESTS = Path(__file__).resolve().parent
#: The repository: testcases/, the package, the docs.
ROOT = TESTS.parent
#: The scripts (not part of the package): tools, and under research/ the measurements.
SCRIPTS = ROOT / "scripts"
RESEARCH = SCRIPTS / "research"


def script(relative: str) -> ModuleType:
    """``scripts/<relative>`` loaded as a module, to call its functions from a test; its
    folder goes on the import path, as running it puts it there (research/'s ``common``)."""
    path = SCRIPTS / relative
    if str(path.parent) not in sys.path:
        sys.path.append(str(path.parent))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module
