"""What `minesweeper grade` prints: the tables of cases, the failures' excerpts, the summary.

Every line fits the terminal (80 columns when piped): case names and details
wrap in their cells rather than being cut, and a map's excerpt is at most 30
columns a side (`judge.difference`).
"""

from __future__ import annotations

import statistics
import textwrap
from collections.abc import Mapping, Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from minesweeper.judge.assignment import Kind, Standing
from minesweeper.judge.escape import printable
from minesweeper.judge.grading import AdvancedGrade, BasicGrade
from minesweeper.judge.repeats import by_board, run_wins, won
from minesweeper.judge.report import outcome

#: How many lines of a failing program's standard error the report shows.
STDERR_LINES = 5
#: The cases' standings with the assignment, by name (empty: not asked, all counted).
Standings = Mapping[str, Standing]


def report_console() -> Console:
    """The console the report is printed on: the terminal's width, 80 columns when piped."""
    return Console(highlight=False)


def counted(name: str, standings: Standings) -> bool:
    """Whether a case counts against the program graded (an extra case does not)."""
    standing = standings.get(name)
    return standing is None or standing.kind is not Kind.EXTRA


def basic_table(grades: Sequence[BasicGrade], judge: str, standings: Standings) -> Table:
    table = Table(title=f"Basic cases (judge: {printable(judge)})")
    table.add_column("case", overflow="fold")
    table.add_column("result", overflow="fold")
    table.add_column("detail", overflow="fold")
    for grade in grades:
        verdict = Text("pass", "green") if grade.passed else Text("FAIL", "red")
        if not counted(grade.name, standings):
            verdict = Text(f"{verdict.plain} (extra)", "yellow" if grade.passed else "dim red")
        detail = grade.detail or (f"passes; not byte-exact: {grade.note}" if grade.note else "")
        # Names and details are shown as they are: a bracket in them is not markup.
        table.add_row(Text(printable(grade.name)), verdict, Text(printable(detail)))
    return table


def excerpts(grades: Sequence[BasicGrade]) -> list[Text]:
    """Each failed case's name and summary, the expected and actual lines around it, and the
    end of the server's standard error."""
    return [
        Text(
            f"\n{printable(grade.name)}: {printable(grade.detail)}\n"
            + textwrap.indent(printable(grade.excerpt, keep="\n"), "  ").rstrip("\n")
            + ("\n" if grade.excerpt and grade.stderr.strip() else "")
            + stderr_lines(grade.stderr).rstrip("\n")
        )
        for grade in grades
        if not grade.passed and (grade.excerpt or grade.stderr)
    ]


def client_errors(grades: Sequence[AdvancedGrade]) -> list[Text]:
    """Each game a client could not finish: its name, what happened, the end of its
    standard error."""
    return [
        Text(
            f"\n{printable(grade.name)}: {printable(grade.error)}"
            + ("\n" + stderr_lines(grade.stderr).rstrip("\n") if grade.stderr.strip() else "")
        )
        for grade in grades
        if grade.error
    ]


def stderr_lines(stderr: str) -> str:
    """The last `STDERR_LINES` lines of a program's standard error, escaped and indented."""
    lines = stderr.rstrip("\n").split("\n")[-STDERR_LINES:] if stderr.strip() else []
    if not lines:
        return ""
    return f"  its standard error, last {len(lines)} line(s):\n" + "".join(
        f"    {printable(line)}\n" for line in lines
    )


def advanced_table(
    cases: Sequence[Sequence[AdvancedGrade]], client: str, repeat: int, standings: Standings
) -> Table:
    """A row per board; played several times, the games won of the runs and mean counts."""
    table = Table(title=f"Advanced cases (client: {printable(client)})")
    table.add_column("case", overflow="fold")
    table.add_column("result", overflow="fold")
    for heading in ("visits", "steps", "seconds"):
        table.add_column(heading, justify="right")
    colours = {"won": "green", "lost": "yellow"}
    for grades in cases:
        for runs in by_board(grades, repeat):
            first = runs[0]
            result = outcome(first)
            text = f"{'ERROR ' if first.error else ''}{printable(result)}"
            if repeat > 1:
                result = "won" if all(map(won, runs)) else "lost"
                text = f"won {sum(map(won, runs))} of {repeat}"
            if not counted(first.name, standings):
                text += " (extra)"
            table.add_row(
                Text(printable(first.name)),
                Text(text, colours.get(result, "red")),
                _mean([game.visit_count for game in runs]),
                _mean([game.steps for game in runs]),
                f"{statistics.median(game.seconds for game in runs):.3f}",
            )
    return table


def _mean(values: Sequence[int]) -> str:
    mean = statistics.fmean(values)
    return f"{mean:g}" if mean == int(mean) else f"{mean:.1f}"


def summary(
    basic: Sequence[BasicGrade],
    advanced: Sequence[Sequence[AdvancedGrade]],
    repeat: int,
    standings: Standings,
    skipped: int = 0,
) -> str:
    """One line: cases passed and games won, by kind of case when standings are given."""
    parts = []
    if basic:
        parts.append(_basic_summary(basic, standings))
    if advanced:
        parts.append(_advanced_summary(advanced, repeat, standings))
    if skipped:
        parts.append(f"{skipped} path(s) not graded (see above)")
    return "; ".join(parts)


def _basic_summary(basic: Sequence[BasicGrade], standings: Standings) -> str:
    kept = [grade for grade in basic if counted(grade.name, standings)]
    text = f"basic: {sum(grade.passed for grade in kept)}/{len(kept)} passed"
    if standings:
        text += _by_kind(
            {kind: [int(g.passed) for g in kept if standings[g.name].kind is kind] for kind in Kind}
        )
        extra = [grade for grade in basic if grade not in kept]
        if extra:
            text += f"; extra cases: {sum(g.passed for g in extra)}/{len(extra)}, not counted"
    return text


def _by_kind(results: Mapping[Kind, list[int]]) -> str:
    parts = [
        f"{kind.heading} {sum(done)}/{len(done)}"
        for kind, done in results.items()
        if done and kind is not Kind.EXTRA
    ]
    return f" ({', '.join(parts)})" if len(parts) > 1 else ""


def _advanced_summary(
    advanced: Sequence[Sequence[AdvancedGrade]], repeat: int, standings: Standings
) -> str:
    kept = [grades for grades in advanced if grades and counted(grades[0].name, standings)]
    text = f"advanced: {run_wins(kept, repeat).shown()} won"
    if standings:
        kinds = {kind: [g for g in kept if standings[g[0].name].kind is kind] for kind in Kind}
        parts = [
            f"{kind.heading} {run_wins(cases, repeat).shown()}"
            for kind, cases in kinds.items()
            if cases
        ]
        text += f" ({', '.join(parts)})" if len(parts) > 1 else ""
    played = [game for grades in kept for game in grades if not game.error]
    if played:
        median = statistics.median(game.seconds for game in played)
        text += f", median {median:.3f} s per game"
    errors = sum(bool(game.error) for grades in kept for game in grades)
    if errors:
        text += f", {errors} could not be played"
    extra = [grades for grades in advanced if grades and grades not in kept]
    if extra:
        text += f"; extra cases: {run_wins(extra, repeat).shown()} won, not counted"
    return text
