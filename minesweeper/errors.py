"""Error classes shared by the whole package."""

from __future__ import annotations


class MinesweeperError(Exception):
    """Base class of every error this package raises on purpose."""


class InputError(MinesweeperError):
    """Malformed text input; knows the 1-based line it was found on and, for a file, its name."""

    def __init__(self, line: int | None, message: str, source: str | None = None) -> None:
        self.line = line
        self.message = message
        self.source = source
        where = f"line {line}: " if line is not None else ""
        named = f"{source}: " if source is not None else ""
        super().__init__(f"{named}{where}{message}")


class SettingsError(MinesweeperError):
    """A game that cannot be made: bad size, too many mines, unknown preset or rules."""


class TopologyError(MinesweeperError):
    """A topology that cannot be built from the given description."""


class EncodingError(InputError):
    """Input bytes that are not the text a format expects (not UTF-8, not ASCII, control bytes)."""


class LimitError(MinesweeperError):
    """A request beyond one of the package's limits (sizes, budgets, time)."""


class TooLargeError(InputError, LimitError):
    """An input or a request beyond one of the limits of `minesweeper.limits`.

    ``line`` is the input line at fault, or None when the size came from an option.
    """


class NotAFileError(MinesweeperError):
    """A path that was expected to be a readable regular file, and is not."""
