"""Reading JSON documents safely: the one parser every JSON reader goes through.

Records, replays, per-game logs and reports read back all come from files a
user (or an attacker) can edit. `load_json` takes their bytes and gives the
document, or one `NotJSONError` saying what is wrong: bytes that are not
UTF-8, text that is not JSON, strings that are not Unicode (a lone surrogate
such as ``"\\ud800"``, which would crash the first ``encode`` later), numbers
no file of ours holds (integers of more than `MAX_JSON_DIGITS` digits, floats
that overflow, ``NaN``) and nesting deeper than Python's recursion limit.
"""

from __future__ import annotations

import json
import math
from typing import Any

from minesweeper.errors import InputError
from minesweeper.limits import MAX_JSON_DIGITS, quote


class NotJSONError(InputError):
    """Bytes that are not a JSON document we can read; ``reason`` says why, in a few words."""

    def __init__(self, line: int | None, reason: str, source: str | None = None) -> None:
        self.reason = f"line {line}: {reason}" if line is not None else reason
        super().__init__(line, reason, source)


def load_json(data: bytes, source: str | None = None) -> Any:
    """The JSON document in ``data`` (from the file ``source``, named in errors).

    Raises `NotJSONError` for anything that is not a JSON document of valid
    Unicode text and reasonable numbers.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise NotJSONError(
            line, f"byte 0x{data[error.start]:02x} is not UTF-8 text", source
        ) from None
    try:
        document = json.loads(
            text, parse_int=_integer, parse_float=_float, parse_constant=_no_constant
        )
    except json.JSONDecodeError as error:
        raise NotJSONError(error.lineno, f"not valid JSON ({error.msg})", source) from None
    except RecursionError:
        raise NotJSONError(None, "not valid JSON (nested too deeply)", source) from None
    except ValueError as error:  # from the number hooks below
        raise NotJSONError(None, f"not valid JSON ({error})", source) from None
    bad = _lone_surrogate(document)
    if bad is not None:
        raise NotJSONError(
            None, f"the string {quote(bad)} is not valid Unicode (a lone surrogate)", source
        )
    return document


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_JSON_DIGITS:
        raise ValueError(f"a number of {len(digits):,} digits")
    return int(digits)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {quote(text)} overflows")
    return value


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number")


def _lone_surrogate(document: Any) -> str | None:
    """The first string (key or value) in ``document`` that holds a lone surrogate, if any."""
    stack = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None
