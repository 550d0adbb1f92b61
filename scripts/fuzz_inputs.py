"""The long fuzz run: every parser's fuzz test with many more inputs than CI tries.

    python scripts/fuzz_inputs.py [--examples N] [--only TEXT]

Runs the hypothesis tests of tests/test_fuzz_inputs.py (judge input on every
topology, analyze positions, board files, records files, and the JSON readers
(records, replays, per-game logs) given lone surrogates, huge numbers and deep
nesting in place of their values) with N examples each
(default 2000), inputs drawn at random, and prints how many inputs each parser
was given and how many tests found a failing input (with the first such input).
Exit status 1 when any did.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import traceback
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=2000, help="inputs per fuzz test")
    parser.add_argument("--only", default="", help="run only the tests whose name has this text")
    args = parser.parse_args()
    os.environ["FUZZ_EXAMPLES"] = str(args.examples)  # read when the tests are imported
    sys.path.insert(0, str(TESTS))
    import test_fuzz_inputs as fuzz

    names = [name for name in dir(fuzz) if name.startswith("test_") and args.only in name]
    tests = [getattr(fuzz, name) for name in names]
    failures = 0
    for test in tests:
        start = time.process_time()
        try:
            test()
            verdict = "ok"
        except Exception:  # report and go on to the next parser
            failures += 1
            verdict = "FAILED\n" + traceback.format_exc(limit=3)
        seconds = time.process_time() - start
        print(f"{test.__name__}: {verdict} ({seconds:.0f} s CPU)", flush=True)
    total = sum(fuzz.CHECKED.values())
    counts = ", ".join(
        f"{parser} {count} ({fuzz.ACCEPTED[parser]} accepted)"
        for parser, count in sorted(fuzz.CHECKED.items())
    )
    print(f"inputs: {total} ({counts}); failing tests: {failures} of {len(tests)}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
