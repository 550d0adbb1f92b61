"""Where the tests find the repository's files, whatever folder a test module is in."""

from pathlib import Path

#: This folder: the test helpers, data/, clients/ and snapshots/.
TESTS = Path(__file__).resolve().parent
#: The repository: testcases/, the package, the docs.
ROOT = TESTS.parent
