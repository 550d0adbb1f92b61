"""Grading results as files for CI: JUnit XML (what CI systems show as test reports) and JSON."""

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from minesweeper.judge.escape import printable
from minesweeper.judge.grading import AdvancedGrade, BasicGrade


def outcome(grade: AdvancedGrade) -> str:
    """An advanced game's result in one word (or the client's problem)."""
    if grade.error:
        return grade.error
    if grade.won:
        return "won"
    return "lost" if grade.finished else "move limit"


def junit_xml(
    basic: Sequence[BasicGrade], advanced: Sequence[AdvancedGrade], sandbox: str = ""
) -> str:
    """JUnit XML: a suite per kind of case, a failure per failed case or misbehaving client.

    A failed basic case's failure says where its output differs and holds the
    expected and the actual lines there. A lost game passes; its result is in
    the test case's output. ``sandbox`` (how foreign programs ran) is each
    suite's ``sandbox`` property. Every text a program could have chosen (its
    standard error, a case's name) is escaped (`escape.printable`): the file
    is well-formed XML whatever the programs wrote.
    """
    root = ET.Element("testsuites", name="minesweeper grade")
    if basic:
        failed = sum(not grade.passed for grade in basic)
        suite = _suite(root, "basic", len(basic), failed, 0.0, sandbox)
        for grade in basic:
            case = ET.SubElement(suite, "testcase", classname="basic", name=_xml(grade.name))
            if not grade.passed:
                failure = ET.SubElement(case, "failure", message=_xml(grade.detail), type="output")
                failure.text = _xml(grade.excerpt) or None
            _stderr(case, grade.stderr)
    if advanced:
        failures = sum(bool(grade.error) for grade in advanced)
        total = sum(grade.seconds for grade in advanced)
        suite = _suite(root, "advanced", len(advanced), failures, total, sandbox)
        for game in advanced:
            case = ET.SubElement(
                suite,
                "testcase",
                classname="advanced",
                name=_xml(game.name),
                time=f"{game.seconds:.3f}",
            )
            if game.error:
                ET.SubElement(case, "failure", message=_xml(game.error), type="client")
            output = ET.SubElement(case, "system-out")
            output.text = _xml(f"{outcome(game)}: {game.visit_count} visits, {game.steps} steps")
            _stderr(case, game.stderr)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, "unicode") + "\n"


def _stderr(case: ET.Element, text: str) -> None:
    """The end of the program's standard error, where CI systems show it."""
    if text:
        ET.SubElement(case, "system-err").text = _xml(text)


def _xml(text: str) -> str:
    """``text`` with what XML 1.0 cannot hold (NUL, ESC, ...) and what a terminal would
    act on written as escapes; newlines and tabs kept."""
    return printable(text, keep="\n\t")


def _suite(
    root: ET.Element, name: str, tests: int, failures: int, seconds: float, sandbox: str
) -> ET.Element:
    suite = ET.SubElement(
        root,
        "testsuite",
        name=name,
        tests=str(tests),
        failures=str(failures),
        errors="0",
        time=f"{seconds:.3f}",
    )
    if sandbox:
        properties = ET.SubElement(suite, "properties")
        ET.SubElement(properties, "property", name="sandbox", value=sandbox)
    return suite


def json_report(
    basic: Sequence[BasicGrade], advanced: Sequence[AdvancedGrade], sandbox: str = ""
) -> str:
    """Every grade as JSON: ``{"basic": [...], "advanced": [...]}``, every field of each grade
    (a failed basic case's ``detail`` and ``excerpt``), with an outcome per game; and
    ``"sandbox"``, how foreign programs ran, when there were any. ASCII only: any bytes
    a program wrote are ``\\u`` escapes."""
    games = [{**dataclasses.asdict(grade), "outcome": outcome(grade)} for grade in advanced]
    document: dict[str, object] = {}
    if sandbox:
        document["sandbox"] = sandbox
    document |= {"basic": [dataclasses.asdict(grade) for grade in basic], "advanced": games}
    return json.dumps(document, indent=2, ensure_ascii=True) + "\n"
