"""The analysis of a played game: every click judged by the exact engine.

Each click that opened something is judged on what the player could see just
before it (the opened numbers and, where the rules tell it, the mine count;
flags are the player's opinion and do not count), with the exact mine
probabilities of `minesweeper.solver.probability`:

- **certain**: the cells it opened were proved safe;
- **forced guess**: nothing was proved safe and no cell was safer: the chance
  it was safe is given exactly;
- **avoidable risk**: a cell was proved safe, or another guess was safer: the
  review names that cell and its chance.

The first open is protected by the rules (the mines are laid after it) and is
judged as such. A chord is judged by the riskiest cell it opened, so its
chance of safety is an upper bound (the cells' risks are not independent).
The summary gives, from each guess on, the exact chance that the guesses made
all came out safe, and (given by the caller, `minesweeper.bench.outlook`: this
layer plays no games) the chance the game could still be won from there.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import prod

from minesweeper.play.autoplay import view_of
from minesweeper.play.replay import Replay
from minesweeper.play.session import Action, GameSession
from minesweeper.solver.constraints import InconsistentView
from minesweeper.solver.probability import Probabilities, probabilities
from minesweeper.solver.view import View
from minesweeper.topology.base import Topology


def cell_name(topology: Topology, cell: int) -> str:
    """A cell as the player reads it, counting from 1: ``row R, column C`` or ``node N``."""
    if topology.move_arity == 1:
        return f"node {cell + 1}"
    row, col = topology.position(cell)
    return f"row {row + 1}, column {col + 1}"


class Verdict(enum.Enum):
    FIRST = "first click"
    CERTAIN = "certain"
    FORCED = "forced guess"
    AVOIDABLE = "avoidable risk"

    @property
    def guess(self) -> bool:
        return self in (Verdict.FORCED, Verdict.AVOIDABLE)


@dataclass(frozen=True)
class Judged:
    """One click judged: ``risk`` is the exact chance it opened a mine (0 when certain);
    ``better`` the cell that was safer (proved safe, or the safest), with ``better_risk``.
    ``approximate``: the engine ran out of budget on this position (the figures are
    those of a relaxed position). ``hit``: it did open a mine."""

    index: int
    action: Action
    verdict: Verdict
    risk: Fraction
    better: int | None = None
    better_risk: Fraction | None = None
    approximate: bool = False
    hit: bool = False

    @property
    def safe_chance(self) -> Fraction:
        return 1 - self.risk


def _opens(session: GameSession, action: Action) -> list[int]:
    """The closed cells ``action`` opens in ``session`` (none for flags or wasted clicks)."""
    cell = action.cell
    if action.kind == "open":
        if cell in session.flags or session.is_opened(cell):
            return []
        return [cell]
    if action.kind == "chord":
        count = session.count(cell)
        around = session.topology.neighbours(cell)
        if not count or sum(1 for c in around if c in session.flags) != count:
            return []
        return [c for c in around if c not in session.flags and not session.is_opened(c)]
    return []


def judge(session: GameSession, index: int, action: Action) -> Judged | None:
    """``action`` judged on ``session`` (the game just before it); None when it opens nothing."""
    opened = _opens(session, action)
    if not opened:
        return None
    assert session.board is not None
    hit = any(session.board.is_mine(cell) for cell in opened)
    if not session.started:
        return Judged(index, action, Verdict.FIRST, Fraction(0), hit=hit)
    try:
        odds: Probabilities = probabilities(view_of(session))
    except InconsistentView:  # cannot happen on a real board; judge nothing rather than lie
        return None
    risky = max(opened, key=lambda cell: odds[cell] if cell in odds else Fraction(0))
    risk = odds[risky] if risky in odds else Fraction(0)
    approximate = odds.approximate
    if risk == 0:
        return Judged(index, action, Verdict.CERTAIN, risk, approximate=approximate, hit=hit)
    safe = sorted(cell for cell in odds.safe if isinstance(cell, int))
    if safe:
        better = min(safe, key=lambda cell: _distance(session.topology, cell, action.cell))
        return Judged(index, action, Verdict.AVOIDABLE, risk, better, Fraction(0), approximate, hit)
    safest = [cell for cell in odds.safest() if isinstance(cell, int)]
    lowest = odds[safest[0]]
    if lowest < risk:
        better = min(safest, key=lambda cell: _distance(session.topology, cell, action.cell))
        return Judged(index, action, Verdict.AVOIDABLE, risk, better, lowest, approximate, hit)
    return Judged(index, action, Verdict.FORCED, risk, approximate=approximate, hit=hit)


def _distance(topology: Topology, a: int, b: int) -> tuple[int, int]:
    (ra, ca), (rb, cb) = topology.position(a), topology.position(b)
    return abs(ra - rb) + abs(ca - cb), a


@dataclass(frozen=True)
class Review:
    """Every judged click of a replay, and what they add up to."""

    replay: Replay
    clicks: tuple[Judged, ...]

    @classmethod
    def of(cls, replay: Replay, tick: Callable[[], object] | None = None) -> Review:
        """Every click of ``replay`` judged; ``tick`` is called after each (a progress display)."""
        return cls(replay, tuple(_judged(replay, tick)))

    @property
    def guesses(self) -> list[Judged]:
        return [click for click in self.clicks if click.verdict.guess]

    def survival(self, start: int = 0) -> Fraction:
        """The chance that the guesses from the ``start``-th (0-based) on all came out safe."""
        return Fraction(prod((g.safe_chance for g in self.guesses[start:]), start=Fraction(1)))

    def position(self, guess: Judged) -> View:
        """What the player saw just before ``guess`` (a judged click of this review)."""
        return view_of(self.replay.session(upto=guess.index))

    def of_click(self, index: int) -> Judged | None:
        """The judgement of action ``index`` (0-based); None for a flag or a wasted click."""
        return next((click for click in self.clicks if click.index == index), None)

    def lines(self, worth: Sequence[str] = ()) -> Iterator[str]:
        """The review for people: one line per judged click, then the summary."""
        topology = self.replay.board.topology
        for click in self.clicks:
            yield describe(topology, click)
        yield from self.summary(worth)

    def summary(self, worth: Sequence[str] = ()) -> Iterator[str]:
        """The counts of each verdict, then a line per guess: the exact chance that the
        guesses from it on came out safe, and ``worth[k]``, what was said of the chance
        to win from guess ``k``'s position, where given."""
        counts = {verdict: 0 for verdict in Verdict}
        for click in self.clicks:
            counts[click.verdict] += 1
        judged = len(self.clicks)
        said = ", ".join(f"{counts[v]} {v.value}" for v in Verdict if v is not Verdict.FIRST)
        yield f"{judged} clicks that opened cells: {said}"
        guesses = self.guesses
        if not guesses:
            yield "no guess: every click after the first was certain"
            return
        topology = self.replay.board.topology
        for number, guess in enumerate(guesses):
            head = f"from guess {number + 1} on (click {guess.index + 1}, "
            head += f"{cell_name(topology, guess.action.cell)}): "
            line = f"the guesses made come out safe with {_chance(self.survival(number))}"
            if number < len(worth):
                line = f"{worth[number]}; {line}"
            yield head + line
        if any(click.approximate for click in self.clicks):
            yield "(* the engine's budget ran out there: figures of a relaxed position)"


def _judged(replay: Replay, tick: Callable[[], object] | None) -> Iterator[Judged]:
    # One session, each click judged on it just before the replay makes it.
    session = replay.start()
    made = replay.play(session, replay.actions)
    for index, action in enumerate(replay.actions):
        found = judge(session, index, action)
        if found is not None:
            yield found
        next(made)
        if tick is not None:
            tick()


def _chance(value: Fraction) -> str:
    """``2/3 (66.7%)``; a fraction with a long denominator as a percentage only, a tiny
    one with two significant digits (``0.0012%``), never a bare 0.0% when it is not 0."""
    percent = f"{float(value):.1%}"
    if 0 < value < Fraction(1, 1000):
        hundredths = float(value) * 100
        percent = f"{hundredths:.2g}%" if hundredths >= 1e-4 else f"{hundredths:.1e}%"
    if value.denominator <= 10_000:
        return f"{value.numerator}/{value.denominator} ({percent})"
    return percent


def describe(topology: Topology, click: Judged) -> str:
    """One judged click for people, e.g. ``click 9 at 5.020 s, open row 1, column 1:
    forced guess, safe with 2/3 (66.7%)``."""
    action = click.action
    where = cell_name(topology, action.cell)
    head = f"click {click.index + 1} at {action.ms / 1000:.3f} s, {action.kind} {where}: "
    verdict = click.verdict
    if verdict is Verdict.FIRST:
        text = "first click (the rules keep it safe)"
    elif verdict is Verdict.CERTAIN:
        text = "certain"
    else:
        text = f"{verdict.value}, safe with {_chance(click.safe_chance)}"
        if verdict is Verdict.AVOIDABLE and click.better is not None:
            better = cell_name(topology, click.better)
            if not click.better_risk:
                text += f"; {better} was certainly safe"
            else:
                text += f"; safer: {better}, safe with {_chance(1 - click.better_risk)}"
    if click.hit:
        text += "; it hit a mine"
    if click.approximate:
        text += " *"
    return head + text
