"""Grading results as files for CI: JUnit XML (what CI systems show as test reports) and JSON."""

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from minesweeper.grading import AdvancedGrade, BasicGrade


def outcome(grade: AdvancedGrade) -> str:
    """An advanced game's result in one word (or the client's problem)."""
    if grade.error:
        return grade.error
    if grade.won:
        return "won"
    return "lost" if grade.finished else "move limit"


def junit_xml(basic: Sequence[BasicGrade], advanced: Sequence[AdvancedGrade]) -> str:
    """JUnit XML: a suite per kind of case, a failure per failed case or misbehaving client.

    A failed basic case's failure says where its output differs and holds the
    expected and the actual lines there. A lost game passes; its result is in
    the test case's output.
    """
    root = ET.Element("testsuites", name="minesweeper grade")
    if basic:
        suite = _suite(root, "basic", len(basic), sum(not grade.passed for grade in basic), 0.0)
        for grade in basic:
            case = ET.SubElement(suite, "testcase", classname="basic", name=grade.name)
            if not grade.passed:
                failure = ET.SubElement(case, "failure", message=grade.detail, type="output")
                failure.text = grade.excerpt or None
            _stderr(case, grade.stderr)
    if advanced:
        failures = sum(bool(grade.error) for grade in advanced)
        total = sum(grade.seconds for grade in advanced)
        suite = _suite(root, "advanced", len(advanced), failures, total)
        for game in advanced:
            case = ET.SubElement(
                suite,
                "testcase",
                classname="advanced",
                name=game.name,
                time=f"{game.seconds:.3f}",
            )
            if game.error:
                ET.SubElement(case, "failure", message=game.error, type="client")
            output = ET.SubElement(case, "system-out")
            output.text = f"{outcome(game)}: {game.visit_count} visits, {game.steps} steps"
            _stderr(case, game.stderr)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, "unicode") + "\n"


def _stderr(case: ET.Element, text: str) -> None:
    """The end of the program's standard error, where CI systems show it."""
    if text:
        ET.SubElement(case, "system-err").text = text


def _suite(root: ET.Element, name: str, tests: int, failures: int, seconds: float) -> ET.Element:
    return ET.SubElement(
        root,
        "testsuite",
        name=name,
        tests=str(tests),
        failures=str(failures),
        errors="0",
        time=f"{seconds:.3f}",
    )


def json_report(basic: Sequence[BasicGrade], advanced: Sequence[AdvancedGrade]) -> str:
    """Every grade as JSON: ``{"basic": [...], "advanced": [...]}``, every field of each grade
    (a failed basic case's ``detail`` and ``excerpt``), with an outcome per game."""
    games = [{**dataclasses.asdict(grade), "outcome": outcome(grade)} for grade in advanced]
    document = {"basic": [dataclasses.asdict(grade) for grade in basic], "advanced": games}
    return json.dumps(document, indent=2) + "\n"
