"""The package's size bars (issue 42): no module over 800 lines, no function over 80 lines
or a McCabe complexity over 25, counted as radon counts it (each if, elif, conditional
expression, loop, except, assert, match case, comprehension and its conditions, and
each extra operand of ``and``/``or``; nested functions on their own). Ruff's C901
counts fewer (not comprehensions nor boolean operands), so it passes whatever passes here."""

from __future__ import annotations

import ast
from pathlib import Path

from paths import ROOT

PACKAGE = ROOT / "minesweeper"
MOST_LINES, MOST_FUNCTION_LINES, MOST_COMPLEXITY = 800, 80, 25
BRANCHES = (ast.If, ast.IfExp, ast.For, ast.AsyncFor, ast.While, ast.ExceptHandler, ast.Assert)


def complexity(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    total = 1
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue  # counted on its own
        if isinstance(node, (*BRANCHES, ast.match_case)):
            total += 1
        elif isinstance(node, ast.comprehension):
            total += 1 + len(node.ifs)
        elif isinstance(node, ast.BoolOp):
            total += len(node.values) - 1
        stack.extend(ast.iter_child_nodes(node))
    return total


def sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_no_module_is_over_800_lines() -> None:
    long = {
        str(p.relative_to(PACKAGE)): n
        for p in sources()
        if (n := p.read_text().count("\n")) > MOST_LINES
    }
    assert not long


def test_no_function_is_over_80_lines_or_complexity_25() -> None:
    found = []
    for path in sources():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                assert node.end_lineno is not None
                lines = node.end_lineno - node.lineno + 1
                if lines > MOST_FUNCTION_LINES or complexity(node) > MOST_COMPLEXITY:
                    found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name}")
    assert not found


def test_the_count_is_radons() -> None:
    source = "def f(a, b):\n    if a and b or a:\n        return [x for x in a if x if b]\n"
    (function,) = ast.parse(source).body
    assert isinstance(function, ast.FunctionDef)
    assert complexity(function) == 1 + 1 + 2 + (1 + 2)
