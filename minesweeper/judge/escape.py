"""Text a foreign program wrote, made safe to print and to store in a report.

A program's output and standard error may hold any bytes: escape sequences
that clear a terminal or forge a line, NUL and other characters XML 1.0 cannot
hold. Every report line built from them goes through `printable`.
"""

from __future__ import annotations


def printable(text: str, keep: str = "") -> str:
    """``text`` with every character a terminal would act on (and every character that
    is not printable, lone surrogates included) written as a Python escape, ``\\x1b``;
    the characters in ``keep`` (such as a newline) are kept as they are."""
    return "".join(
        char if char.isprintable() or char in keep else repr(char)[1:-1] for char in text
    )
