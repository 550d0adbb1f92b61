"""Where two players' games on the same boards part, and who wins the games that part there.

    python scripts/research/hill/time_hill.py --hill /tmp/hill-src decisions --boards ic19.txt \\
        --count 3000 --out his-ic19.jsonl
    minesweeper bench --boards ic19.txt --rules classic --strategy best --jobs 1 \\
        --per-game ours-ic19.jsonl --decisions ours-ic19-dec.jsonl
    python scripts/research/first_divergence.py his-ic19.jsonl ours-ic19-dec.jsonl --games 3000

Both players are deterministic and play the same board, so their games are the same until
the first guess where they differ; every game only one of them won parts somewhere. Reading
the two decision logs (the fields of dh-2026's ``*.dh-decisions.jsonl``; hidden cells and
``F`` alike), each board's first difference is one of:

- ``deduction``: at the k-th guess the positions differ (one of them found a safe move the
  other did not), or one won without the guess the other made;
- ``mirror``: the same position, another cell that a symmetry of the position (a turn or a
  mirror of the board that leaves it as it is) maps to theirs: a tie broken another way,
  worth the same in expectation (the rest of the game still differs: it is two players
  playing on, so a lead in these games is the later play's or luck's);
- ``choice``: the same position, another cell.

A game with no line in a log was won without a guess; a game is lost when its last guess
hit a mine. The report splits the games that part by what kind of position they part in
(the guess's number, the hidden cells left, exact halves, endgame methods) and gives, per
kind, the games won only by the first log's player and only by the second's, with the
sign test's p. It says where a gap arises, not which decision was better: for that, play
on from both cells with ``scripts/research/compare_decisions.py``: ``--positions OUT``
writes the first log's line at each choice parting, only those of the kinds ``--where``
names when given (the report's row names, e.g. ``--where "ours safer" --where "guess 2"``),
as a decision log that `compare_decisions.py` reads.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from minesweeper.intervals import mcnemar_exact

#: A line of a decision log, as read: the fields used here.
Line = dict


@dataclass(frozen=True)
class Parting:
    """One board's games: where they part (None: they never do) and who won."""

    board: int
    theirs_won: bool
    ours_won: bool
    kind: str | None
    theirs: Line | None  # their line at the parting guess (None: they won without it)
    ours: Line | None


class LogError(Exception):
    """A decision log that cannot be read: its message names the file and line."""


FIELDS = ("board", "guess", "row", "col", "safety", "method", "hit_mine", "position")


def read(path: Path) -> dict[int, list[Line]]:
    """Each board's guesses, in order; `LogError` for a file or line that is not a log's."""
    games: dict[int, list[Line]] = defaultdict(list)
    try:
        texts = path.read_text().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise LogError(f"{path}: cannot read it ({error})") from None
    for number, text in enumerate(texts, 1):
        if text.strip():
            try:
                line = json.loads(text)
            except json.JSONDecodeError as error:
                raise LogError(f"{path} line {number}: not JSON ({error.msg})") from None
            missing = [f for f in FIELDS if not isinstance(line, dict) or f not in line]
            if missing:
                raise LogError(f"{path} line {number}: no {', '.join(missing)}") from None
            games[line["board"]].append(line)
    for lines in games.values():
        lines.sort(key=lambda line: line["guess"])
    return games


def seen(line: Line) -> list[str]:
    """The position without the player's own knowledge of mines (``F`` shown as ``?``)."""
    return [row.replace("F", "?") for row in line["position"]]


def symmetric(rows: list[str], a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether a turn or mirror of the board leaves ``rows`` as it is and moves cell a to b."""
    n, m = len(rows), len(rows[0])
    moves = [
        lambda r, c: (r, c),
        lambda r, c: (n - 1 - r, c),
        lambda r, c: (r, m - 1 - c),
        lambda r, c: (n - 1 - r, m - 1 - c),
    ]
    if n == m:  # a square board also turns by a quarter and mirrors on its diagonals
        moves += [
            lambda r, c: (c, r),
            lambda r, c: (m - 1 - c, n - 1 - r),
            lambda r, c: (c, n - 1 - r),
            lambda r, c: (m - 1 - c, r),
        ]
    for move in moves:
        if move(*a) != b:
            continue
        if all(
            rows[r][c] == rows[move(r, c)[0]][move(r, c)[1]] for r in range(n) for c in range(m)
        ):
            return True
    return False


def part(board: int, theirs: list[Line], ours: list[Line]) -> Parting:
    theirs_won = not (theirs and theirs[-1]["hit_mine"])
    ours_won = not (ours and ours[-1]["hit_mine"])
    for k in range(max(len(theirs), len(ours))):
        a = theirs[k] if k < len(theirs) else None
        b = ours[k] if k < len(ours) else None
        if a is None or b is None or seen(a) != seen(b):
            return Parting(board, theirs_won, ours_won, "deduction", a, b)
        cells = (a["row"], a["col"]), (b["row"], b["col"])
        if cells[0] != cells[1]:
            kind = "mirror" if symmetric(seen(a), *cells) else "choice"
            return Parting(board, theirs_won, ours_won, kind, a, b)
    return Parting(board, theirs_won, ours_won, None, None, None)


def hidden(line: Line) -> int:
    return sum(row.count("?") + row.count("F") for row in line["position"])


def half(line: Line | None) -> bool:
    return line is not None and abs(line["safety"] - 0.5) < 1e-6


def guess_band(p: Parting) -> str:
    line = p.theirs or p.ours
    assert line is not None
    k = line["guess"]
    return f"guess {k}" if k <= 3 else "guess 4-6" if k <= 6 else "guess 7+"


def hidden_band(p: Parting) -> str:
    line = p.theirs or p.ours
    assert line is not None
    n = hidden(line)
    return next((f"hidden <= {b}" for b in (10, 20, 40, 80, 160, 320) if n <= b), "hidden > 320")


def halves(p: Parting) -> str:
    return {
        (True, True): "both at 1/2",
        (True, False): "theirs 1/2 only",
        (False, True): "ours 1/2 only",
        (False, False): "neither 1/2",
    }[half(p.theirs), half(p.ours)]


def safer(p: Parting) -> str:
    if p.theirs is None or p.ours is None:
        return "one did not guess"
    a, b = p.theirs["safety"], p.ours["safety"]
    return "same safety" if abs(a - b) < 1e-6 else "theirs safer" if a > b else "ours safer"


def deduced(p: Parting) -> str:
    """In a deduction parting: who saw more (revealed more cells before guessing)."""
    if p.theirs is None:
        return "they won, ours guessed"
    if p.ours is None:
        return "we won, theirs guessed"
    a, b = hidden(p.theirs), hidden(p.ours)
    return "they see more" if a < b else "we see more" if b < a else "other cells"


def methods(p: Parting) -> str:
    a = p.theirs["method"] if p.theirs else "-"
    b = p.ours["method"] if p.ours else "-"
    return f"{a} / {b}"


SPLITS: dict[str, Callable[[Parting], str]] = {
    "guess number": guess_band,
    "hidden cells": hidden_band,
    "exact halves": halves,
    "own safety estimates": safer,
    "methods (theirs / ours)": methods,
}


def table(title: str, rows: dict[str, list[Parting]]) -> list[str]:
    out = [f"{title}:", f"  {'':32} {'parted':>6} {'only 1st':>8} {'only 2nd':>8} {'p':>6}"]
    for name, games in sorted(rows.items(), key=lambda kv: -len(kv[1])):
        a = sum(g.theirs_won and not g.ours_won for g in games)
        b = sum(g.ours_won and not g.theirs_won for g in games)
        p = mcnemar_exact(a, b)
        out.append(f"  {name[:32]:32} {len(games):6} {a:8} {b:8} {p:6.3f}")
    return out


def coin(p: Parting) -> bool:
    """Whether the parting guess was a coin: both cells exactly 1/2, one of them a mine.

    Either way round has the same chance (each cell is safe with chance 1/2), so the
    games a coin decides are luck, whatever the players know."""
    if p.kind != "choice" or not (half(p.theirs) and half(p.ours)):
        return False
    assert p.theirs is not None and p.ours is not None
    return bool(p.theirs["hit_mine"]) != bool(p.ours["hit_mine"])


def report(partings: list[Parting]) -> str:
    parted = [p for p in partings if p.kind is not None]
    by_kind: dict[str, list[Parting]] = defaultdict(list)
    for p in parted:
        by_kind[p.kind or ""].append(p)
    lines = [f"{len(partings)} games, {len(parted)} part"]
    lines += table("first difference", by_kind)
    luck = {
        "a coin at the parting guess": [p for p in parted if coin(p)],
        "a tie by symmetry (mirror)": by_kind["mirror"],
        "the rest": [p for p in parted if not coin(p) and p.kind != "mirror"],
    }
    lines += table("parted at", luck)
    lines += table("deduction, by who saw more", group(by_kind["deduction"], deduced))
    lines += table("mirror, by guess number", group(by_kind["mirror"], guess_band))
    for title, key in SPLITS.items():
        lines += table(f"choice, by {title}", group(by_kind["choice"], key))
    return "\n".join(lines)


def group(partings: list[Parting], key: Callable[[Parting], str]) -> dict[str, list[Parting]]:
    rows: dict[str, list[Parting]] = defaultdict(list)
    for p in partings:
        rows[key(p)].append(p)
    return rows


def kinds(p: Parting) -> set[str]:
    """The report's rows a choice parting falls in (one per split)."""
    return {key(p) for key in SPLITS.values()}


def positions(partings: list[Parting], where: tuple[str, ...]) -> list[Line]:
    """The first log's line at each choice parting in every one of the rows ``where``."""
    chosen = [p for p in partings if p.kind == "choice" and set(where) <= kinds(p)]
    return [p.theirs for p in chosen if p.theirs is not None]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("first", type=Path, help="a decision log (e.g. his)")
    parser.add_argument("second", type=Path, help="another on the same boards (e.g. ours)")
    parser.add_argument("--games", type=int, required=True, help="boards 0..games-1 played")
    parser.add_argument("--list", type=Path, help="write each parting board as a JSON line")
    parser.add_argument(
        "--positions", type=Path, help="write the first log's line at each choice parting"
    )
    parser.add_argument(
        "--where", action="append", default=[], help="with --positions: only a row's partings"
    )
    args = parser.parse_args()
    if args.where and not args.positions:
        parser.error("--where chooses the partings of --positions")
    try:
        theirs, ours = read(args.first), read(args.second)
    except LogError as error:
        sys.exit(f"first_divergence: {error}")
    partings = [part(b, theirs.get(b, []), ours.get(b, [])) for b in range(args.games)]
    print(report(partings))
    if args.list:
        with args.list.open("w") as out:
            for p in partings:
                if p.kind is not None:
                    out.write(json.dumps(p.__dict__) + "\n")
    if args.positions:
        rows = set().union(*(kinds(p) for p in partings if p.kind == "choice"))
        unknown = [w for w in args.where if w not in rows]
        if unknown:
            no_row = f"--where {unknown[0]!r}: no choice parting is in such a row"
            sys.exit(f"first_divergence: {no_row}")
        with args.positions.open("w") as out:
            for line in positions(partings, tuple(args.where)):
                out.write(json.dumps(line) + "\n")
    counts = Counter((p.theirs_won, p.ours_won) for p in partings)
    print(
        f"won by both {counts[True, True]}, only 1st {counts[True, False]}, "
        f"only 2nd {counts[False, True]}, neither {counts[False, False]}"
    )


if __name__ == "__main__":
    main()
