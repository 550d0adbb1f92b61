"""The package's errors, by kind: every error it raises on purpose is a `MinesweeperError`,
and always one of the kinds below (or a subclass of one, defined where it is raised).

======================  ============================================================
kind                    what went wrong
======================  ============================================================
`InputError`            text input that is malformed (knows its line and file)
`UsageError`            options or arguments of a command that do not go together
`RulesError`            what the rules forbid: a move after the end, a cell off the
                        board, mines that do not fit (`SettingsError`: no such game)
`TopologyError`         a board shape that cannot be built
`LimitError`            beyond one of the limits (`TooLargeError`, think budgets)
`PathError`             a path that is not the file or folder it should be
`RecordsError`          records, replays or the game history cannot be read or kept
`SolverError`           a strategy or prover cannot go on (an impossible view...)
`JudgeError`            a judged program or its sandbox failed the judge
`MachineError`          the machine failed the judge: a program could not be started
                        (fork refused, no sandbox made); no one's result
======================  ============================================================

The ladder service's errors (`minesweeper.ladder.errors.LadderError`) are a kind of
their own, each with its HTTP status.
"""

from __future__ import annotations


class MinesweeperError(Exception):
    """Base class of every error this package raises on purpose (raise a kind, not it)."""


class InputError(MinesweeperError):
    """Malformed text input; knows the 1-based line it was found on and, for a file, its name."""

    def __init__(self, line: int | None, message: str, source: str | None = None) -> None:
        self.line = line
        self.message = message
        self.source = source
        where = f"line {line}: " if line is not None else ""
        named = f"{source}: " if source is not None else ""
        super().__init__(f"{named}{where}{message}")

    def found_in(self, source: str, hint: str = "") -> InputError:
        """This error naming ``source``, the input it was found in (unless it names one
        already), with ``hint`` after the message."""
        return type(self)(self.line, self.message + hint, self.source or source)


class EncodingError(InputError):
    """Input bytes that are not the text a format expects (not UTF-8, not ASCII, control bytes)."""


class UsageError(MinesweeperError):
    """Options or arguments of a command that do not go together, or name nothing known."""


class RulesError(MinesweeperError):
    """Something the rules of the game forbid."""


class SettingsError(RulesError):
    """A game that cannot be made: bad size, too many mines, unknown preset or rules."""


class TopologyError(MinesweeperError):
    """A topology that cannot be built from the given description."""


class LimitError(MinesweeperError):
    """A request beyond one of the package's limits (sizes, budgets, time)."""


class TooLargeError(InputError, LimitError):
    """An input or a request beyond one of the limits of `minesweeper.limits`.

    ``line`` is the input line at fault, or None when the size came from an option.
    """


class PathError(MinesweeperError):
    """A path that is not what it should be, or that cannot be read or written."""


class NotAFileError(PathError):
    """A path that was expected to be a readable regular file, and is not."""


class RecordsError(MinesweeperError):
    """The records, a replay or the game history could not be read or written."""


class SolverError(MinesweeperError):
    """A strategy or a prover that cannot go on."""


class JudgeError(MinesweeperError):
    """A judged program, or the means of running one, that failed the judge."""


class MachineError(MinesweeperError):
    """The machine failed the judge, not the judged program: a program could not be started
    (fork or clone refused, the sandbox not made, the judge's own limits). Retried, then
    reported as a judge error, never as the student's result."""
