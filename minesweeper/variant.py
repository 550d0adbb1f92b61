"""`Variant`: which game of minesweeper, named once, in the manner of python-chess's values.

A variant is a topology (the class, resolved where the name came in), a size, a
mine count and the `Rules` (where the first click is safe, whether the mine count
is told). It parses and formats itself the way the command line and the records
show it:

>>> Variant.parse("expert")
Variant.parse('expert')
>>> str(Variant.parse("expert/classic"))
'expert/classic'
>>> str(Variant.parse("hex 20x20/60 modern"))
'hex 20x20/60 modern'
>>> Variant.parse("expert").cells
480

Every face (CLI, terminal game, benchmark, records, replays) takes one, so a
game's size, density and rules are worked out here and nowhere else.
"""

from __future__ import annotations

import enum
import functools
import random
import re
from dataclasses import dataclass, replace

from minesweeper.errors import MinesweeperError, SettingsError, TopologyError
from minesweeper.limits import check_cells
from minesweeper.topology.base import Topology
from minesweeper.topology.registry import TOPOLOGIES
from minesweeper.topology.square import SquareTopology

__all__ = [
    "LEVELS",
    "PRESETS",
    "RULES_HELP",
    "FirstClick",
    "Preset",
    "Rules",
    "Variant",
    "fitting_size",
]


class FirstClick(enum.Enum):
    """What the first click is guaranteed.

    ``ANY``: nothing; ``SAFE``: it is not a mine; ``OPENING``: neither it nor
    any neighbour is a mine; ``ZERO``: placed as ``OPENING``, named for what
    the player sees (the first cell shows 0 and opens an area).
    """

    ANY = "none"
    SAFE = "safe"
    OPENING = "opening"
    ZERO = "zero"


class Rules(enum.Enum):
    """How a game starts and what the player is told (`RULES_HELP` says it to people).

    ``modern``: the first click is an opening; the mine count is told.
    ``classic``: the first click is only safe (a benchmark's is (0, 0)); the count
    is told. ``acm``: as modern, but the count is not told (the ACM protocol).
    """

    MODERN = "modern"
    CLASSIC = "classic"
    ACM = "acm"

    @property
    def placement(self) -> FirstClick:
        """Where the mines may not be: around the first click, or only on it (classic)."""
        return FirstClick.SAFE if self is Rules.CLASSIC else FirstClick.OPENING

    @property
    def tells_mine_count(self) -> bool:
        return self is not Rules.ACM

    @classmethod
    def of(cls, first_click: FirstClick, count_told: bool) -> Rules:
        """The rules with this first click and told count; `SettingsError` when none has."""
        for rules in cls:
            if (rules.placement, rules.tells_mine_count) == (first_click, count_told):
                return rules
        if not count_told:
            raise SettingsError("a hidden mine count goes with the acm rules' opening first click")
        raise SettingsError(f"no rules have a {first_click.value!r} first click")


#: The one description of `Rules`, for every face that offers them (CLI help, the TUI).
RULES_HELP = {
    Rules.MODERN: "the first click opens an area",
    Rules.CLASSIC: "the first click is only safe",
    Rules.ACM: "as modern, mine count not told",
}


@dataclass(frozen=True)
class Preset:
    """A named board size and mine count, with the conventional first click ``start``."""

    name: str
    rows: int
    cols: int
    mines: int
    start: tuple[int, int]

    @property
    def density(self) -> float:
        return self.mines / (self.rows * self.cols)

    def mines_for(self, cells: int, share: float = 1.0) -> int:
        """The mine count of this density (times ``share``) on ``cells`` cells: at least 1,
        leaving one safe."""
        return max(1, min(cells - 1, round(self.density * share * cells)))


def _acm_preset(density: float) -> Preset:
    return Preset(f"acm-{round(density * 100)}", 30, 30, round(900 * density), (15, 15))


#: The classic difficulty levels (starts are those of the reference solver, David Hill's),
#: then the ACM assignment's 30x30 boards at densities 0.10, 0.15 and 0.20.
PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset("beginner", 9, 9, 10, (2, 2)),
        Preset("intermediate", 16, 16, 40, (2, 2)),
        Preset("expert", 16, 30, 99, (3, 3)),
        *map(_acm_preset, (0.10, 0.15, 0.20)),
    )
}
DEFAULT_PRESET = "beginner"
#: The classic difficulty levels alone (what the ladder ranks).
LEVELS = ("beginner", "intermediate", "expert")


def find_preset(name: str) -> Preset:
    """The preset called ``name`` (any case); `SettingsError` listing the known ones."""
    try:
        return PRESETS[name.lower()]
    except KeyError:
        known = ", ".join(PRESETS)
        raise SettingsError(f"unknown preset {name!r} (known: {known})") from None


def fitting_size(kind: type[Topology], rows: int, cols: int) -> tuple[int, int]:
    """``rows x cols``, or the nearest size that ``kind`` can cover (tilings need an area
    their pieces divide): fewest rows and columns changed, then the smaller board.
    """
    around = sorted(
        (
            (r, c)
            for r in range(max(1, rows - 2), rows + 3)
            for c in range(max(1, cols - 2), cols + 3)
        ),
        key=lambda size: (abs(size[0] - rows) + abs(size[1] - cols), size[0] * size[1], size),
    )
    for size in around:
        try:
            kind.cell_count(*size)
        except MinesweeperError:
            continue
        return size
    return rows, cols  # nothing near fits: let the caller report the original size


_SIZE = re.compile(r"(\d{1,9})x(\d{1,9})(?:/(\d{1,12}))?")


@dataclass(frozen=True)
class Variant:
    """Which game: ``topology`` (a class), ``rows x cols`` (the span its board is drawn
    in), ``mines`` and ``rules``; an immutable value, compared by value.

    Made from a preset (`preset`, fitted to the topology), from a size (`sized`, the
    preset's density), or from its text (`parse`); `str` gives that text back.
    """

    topology: type[Topology] = SquareTopology
    rows: int = 9
    cols: int = 9
    mines: int = 10
    rules: Rules = Rules.MODERN

    def __post_init__(self) -> None:
        if not (isinstance(self.topology, type) and issubclass(self.topology, Topology)):
            raise TypeError(f"a variant's topology is a Topology class, not {self.topology!r}")
        object.__setattr__(self, "rules", Rules(self.rules))
        if self.rows < 1 or self.cols < 1:
            raise SettingsError(f"a board needs at least 1x1 cells, got {self.rows}x{self.cols}")
        if self.mines < 0:
            raise SettingsError(f"the mine count must not be negative, got {self.mines}")
        check_cells(self.rows * self.cols, self.topology.text_format)
        if self.mines >= self.cells:
            raise SettingsError(
                f"{self.mines} mine(s) leave no safe cell on a board of {self.cells} cells"
            )

    # -- making one ----------------------------------------------------------------------

    @classmethod
    def preset(
        cls,
        name: str = DEFAULT_PRESET,
        topology: type[Topology] = SquareTopology,
        rules: Rules = Rules.MODERN,
    ) -> Variant:
        """Preset ``name`` on ``topology``.

        On a topology that cannot cover the preset's size (9x9 in dominoes), the
        nearest size it covers is taken; where cells are not unit squares
        (tilings' pieces) the mines keep the preset's density per cell, times the
        topology's `preset_density` share (boards as hard as the square preset's).
        """
        return _fitted(find_preset(name), topology, rules)

    @classmethod
    def sized(
        cls,
        preset: str,
        rows: int | None,
        cols: int | None,
        topology: type[Topology] = SquareTopology,
        rules: Rules = Rules.MODERN,
    ) -> Variant:
        """A ``rows x cols`` board (either defaults to the fitted preset's) with the preset's
        density of the board's cells (a tiling's pieces, a graph's nodes), at least 1 mine."""
        base = cls.preset(preset, topology, rules)
        rows = base.rows if rows is None else rows
        cols = base.cols if cols is None else cols
        try:
            cells = topology.cell_count(rows, cols)
        except MinesweeperError as error:
            raise SettingsError(str(error)) from None
        found = find_preset(preset)
        share = topology.preset_density.get(found.name, 1.0)
        return replace(base, rows=rows, cols=cols, mines=found.mines_for(cells, share))

    @classmethod
    def parse(cls, text: str) -> Variant:
        """The variant ``text`` names: words for the topology (default square), the size
        (a preset, ``RxC`` or ``RxC/MINES``) and the rules (default modern), in any order;
        a preset may carry its rules as ``expert/classic``. ``RxC`` alone has the
        beginner density; with a preset, that preset's."""
        topology: type[Topology] | None = None
        rules: Rules | None = None
        preset: str | None = None
        size: tuple[int, int, int | None] | None = None
        words = text.lower().split()
        if not words:
            raise SettingsError("no game named: give a preset or a size (e.g. expert, 9x9/10)")
        for word in words:
            name, _, suffix = word.partition("/")
            if word in TOPOLOGIES and topology is None:
                topology = TOPOLOGIES[word]
            elif word in {r.value for r in Rules} and rules is None:
                rules = Rules(word)
            elif name in PRESETS and preset is None and (not suffix or rules is None):
                preset = name
                if suffix:
                    rules = _parse_rules(suffix, text)
            elif (match := _SIZE.fullmatch(word)) and size is None:
                mines = None if match[3] is None else int(match[3])
                size = (int(match[1]), int(match[2]), mines)
            else:
                raise SettingsError(f"{word!r} in {text!r} is not a topology, size or rules")
        kind = topology or SquareTopology
        chosen = rules or Rules.MODERN
        if size is None:
            return cls.preset(preset or DEFAULT_PRESET, kind, chosen)
        rows, cols, mines = size
        if mines is not None:
            return cls(kind, rows, cols, mines, chosen)
        return cls.sized(preset or DEFAULT_PRESET, rows, cols, kind, chosen)

    def replace(self, **changes: object) -> Variant:
        """A copy with ``changes`` applied (field names as in the constructor)."""
        return replace(self, **changes)  # type: ignore[arg-type]

    # -- what it is ----------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The topology's registry name (``square``, ``hex``...)."""
        return self.topology.name

    @property
    def cells(self) -> int:
        """How many cells its boards have; `SettingsError` when the topology cannot span
        ``rows x cols``."""
        try:
            return self.topology.cell_count(self.rows, self.cols)
        except TopologyError as error:
            raise SettingsError(str(error)) from None

    @property
    def preset_name(self) -> str | None:
        """The preset this is (on its topology, under any rules), if any."""
        plain = self.replace(rules=Rules.MODERN)
        for preset in PRESETS.values():
            try:
                if plain == _fitted(preset, self.topology, Rules.MODERN):
                    return preset.name
            except SettingsError:
                continue  # the preset has no board of this shape
        return None

    @property
    def first_click(self) -> FirstClick:
        """What a person's first click is promised (`Rules.placement`)."""
        return self.rules.placement

    @property
    def count_told(self) -> bool:
        """Whether the player is told the mine count (not under the acm rules)."""
        return self.rules.tells_mine_count

    @property
    def start(self) -> tuple[int, int]:
        """A benchmark's first click, as a printed position: (0, 0) under the classic rules;
        else a preset's conventional start, or the middle of any other size."""
        if self.rules is Rules.CLASSIC:
            return (0, 0)
        preset = self.preset_name
        if preset is not None:
            return PRESETS[preset].start
        return (self.rows // 2, self.cols // 2)

    def make_topology(self, rng: random.Random | None = None) -> Topology:
        """A board shape of this variant, drawn with ``rng`` where it varies.

        Grids are always the same; tilings and graphs are drawn at random
        (`Topology.random`). Raises `SettingsError` when the mines cannot fit.
        """
        topology = self.topology.random(
            self.rows, self.cols, rng if rng is not None else random.Random()
        )
        if self.mines >= topology.size:
            raise SettingsError(
                f"{self.mines} mine(s) leave no safe cell on a board of {topology.size} cells"
            )
        return topology

    # -- text ----------------------------------------------------------------------------

    def __str__(self) -> str:
        """``expert``, ``expert/classic``, ``hex 20x20/60 modern``: what `parse` reads."""
        shape = "" if self.topology is SquareTopology else f"{self.name} "
        preset = self.preset_name
        if preset is not None:
            rules = "" if self.rules is Rules.MODERN else f"/{self.rules.value}"
            return f"{shape}{preset}{rules}"
        return f"{shape}{self.rows}x{self.cols}/{self.mines} {self.rules.value}"

    def __repr__(self) -> str:
        return f"Variant.parse({str(self)!r})"


def _parse_rules(text: str, whole: str) -> Rules:
    try:
        return Rules(text)
    except ValueError:
        known = ", ".join(r.value for r in Rules)
        raise SettingsError(f"unknown rules {text!r} in {whole!r} (known: {known})") from None


@functools.lru_cache(maxsize=64)
def _fitted(preset: Preset, topology: type[Topology], rules: Rules) -> Variant:
    rows, cols = fitting_size(topology, *topology.span_like(preset.rows, preset.cols))
    mines = preset.mines
    try:
        cells = topology.cell_count(rows, cols)
    except MinesweeperError as error:
        raise SettingsError(str(error)) from None
    share = topology.preset_density.get(preset.name, 1.0)
    if cells != preset.rows * preset.cols or share != 1.0:
        mines = preset.mines_for(cells, share)
    return Variant(topology, rows, cols, mines, rules)
