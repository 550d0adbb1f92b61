"""When a program's output passes: byte for byte, or as the course's online judge compared.

The ACM Class 2023 judge ran GNU ``diff -qZB`` between a submission's output
and the expected one: ``-Z`` ignores white space at the end of each line
(the newline missing after the last line too), ``-B`` changes that only insert
or delete blank lines, a line of white space alone being blank under ``-Z``.
`judge_equal` gives diff's answer; `not_exact` says, for an output that passes
so without being byte-exact, where it first departs ("line 37 lacks its
newline"), so a student learns it without losing the case.
"""

from __future__ import annotations

import enum

#: What C's ``isspace`` calls white space, which ``diff -Z`` strips from a line's end.
WHITE = b" \t\n\v\f\r"
#: diff reads a file's first block before anything else; a NUL byte in it makes the file
#: binary, compared byte for byte whatever the options (4096 bytes: a 4 KiB block size).
BINARY_PROBE = 4096


class Compare(enum.StrEnum):
    """How an output is compared with the expected one."""

    EXACT = "exact"  # byte for byte: the project's own protocol
    JUDGE = "judge"  # as the course's judge: ``diff -qZB``

    @property
    def described(self) -> str:
        """The rule in a few words, as a report states it."""
        if self is Compare.EXACT:
            return "byte for byte"
        return "as the course's judge (diff -ZB: trailing white space, blank lines ignored)"


def passes(actual: bytes, expected: bytes, compare: Compare) -> bool:
    """Whether ``actual`` passes for ``expected`` under ``compare``."""
    if compare is Compare.EXACT:
        return actual == expected
    return judge_equal(actual, expected)


def judge_equal(actual: bytes, expected: bytes) -> bool:
    """Whether ``diff -qZB`` finds no difference between the two outputs.

    Lines are compared without their trailing white space and blank lines are
    left out. That is diff's answer whenever the expected output holds no blank
    line, as every judge's output (each map row and result line has a character);
    diff pairs lines by a shortest edit script, so with blank lines on both sides
    it can report a change this rule does not (``"\\na\\n"`` against ``"a\\n\\n"``).
    """
    if actual == expected:
        return True
    if b"\0" in actual[:BINARY_PROBE] or b"\0" in expected[:BINARY_PROBE]:
        return False  # diff's binary comparison: the bytes differ
    return _content(actual) == _content(expected)


def normalised(output: bytes) -> bytes:
    """``output`` as diff -ZB sees it: each line without its trailing white space, blank
    lines left out, every line ended by a newline (to show where a failing output departs)."""
    return b"".join(line + b"\n" for line in _content(output))


def _content(output: bytes) -> list[bytes]:
    """The lines diff -ZB compares: trailing white space stripped, blank lines left out."""
    stripped = (line.rstrip(WHITE) for line in _split(output))
    return [line for line in stripped if line]


def _split(output: bytes) -> list[bytes]:
    """The lines of ``output``, each with its newline (the last one may lack it). Split at
    ``\\n`` alone, as diff does (`bytes.splitlines` would also split at ``\\r``)."""
    parts = output.split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]]
    return lines + ([parts[-1]] if parts[-1] else [])


def not_exact(actual: bytes, expected: bytes) -> str:
    """Where an output that `judge_equal` passes first departs from the expected bytes
    ("line 37 lacks its newline"), and how many more of its lines do; "" when
    byte-exact."""
    if actual == expected:
        return ""
    got, want = _split(actual), _split(expected)
    findings = []
    i = j = 0
    while i < len(got):
        line = got[i]
        if j < len(want) and line == want[j]:
            i, j = i + 1, j + 1
            continue
        if not line.rstrip(WHITE) and (j >= len(want) or want[j].rstrip(WHITE)):
            findings.append(f"line {i + 1} is blank, the expected output has no such line")
            i += 1
            continue
        findings.append(_line_difference(i + 1, line, want[j] if j < len(want) else b""))
        i, j = i + 1, j + 1
    if j < len(want):
        findings.append(f"the expected output's last {len(want) - j} blank line(s) are missing")
    if not findings:
        return ""
    more = f" (and {len(findings) - 1} more line(s))" if len(findings) > 1 else ""
    return findings[0] + more


def _line_difference(number: int, got: bytes, want: bytes) -> str:
    """How line ``number`` differs from the expected line when only white space differs."""
    got_end = got[len(got.rstrip(WHITE)) :]
    want_end = want[len(want.rstrip(WHITE)) :]
    if got_end == want_end.removesuffix(b"\n") and not got.endswith(b"\n"):
        return f"line {number} lacks its newline"
    if got_end.removesuffix(b"\n") == want_end.removesuffix(b"\n"):
        return f"line {number} has a newline the expected output lacks"
    shown = got_end.removesuffix(b"\n").decode("ascii", "backslashreplace")
    if not shown:
        expected = want_end.removesuffix(b"\n").decode("ascii", "backslashreplace")
        return f"line {number} lacks the trailing {expected!r} of the expected output"
    return f"line {number} ends with {shown!r}"
