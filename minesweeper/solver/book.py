"""`Book`: the decisions of early positions, kept for every later game of the process.

Early positions recur from game to game: with the classic first click in the corner of an
expert board, 4 games in 10 show a 1 there and guess from the very same position. A
strategy whose decision depends on the position and its settings alone (no clock, no
random draw, nothing kept from earlier moves) decides such a position once, and later
games read the decision, as a player reads an opening book. The book is a memo of that
function: it never changes a move, only what the move costs.

Only positions with few open cells are kept (later ones hardly ever recur), and the book
is emptied when full, so that it stays small in a process that plays for days.
"""

from __future__ import annotations

from collections.abc import Hashable

from minesweeper.solver.strategy import Decision
from minesweeper.solver.view import View

#: Positions with more open cells than this are not kept: they seldom recur (expert
#: classic: the positions that did, in 1000 games, had at most 5).
MOST_OPEN = 8
#: The most decisions kept (a few hundred early positions come up in 1000 expert games).
MOST_KEPT = 4096


class Book:
    """Decisions by strategy and position, for positions of at most `MOST_OPEN` open cells."""

    def __init__(self, most_kept: int = MOST_KEPT, most_open: int = MOST_OPEN) -> None:
        self.most_kept = most_kept
        self.most_open = most_open
        self._kept: dict[Hashable, Decision] = {}

    def __len__(self) -> int:
        return len(self._kept)

    def key(self, player: Hashable, view: View) -> Hashable | None:
        """Where ``view`` is kept for a strategy known by ``player`` (its kind, settings,
        prior and budget), or None when it is not kept."""
        if len(view.revealed) > self.most_open:
            return None
        position = (frozenset(view.revealed.items()), view.mines, view.mine_count)
        return (player, view.topology, position)

    def get(self, key: Hashable) -> Decision | None:
        """The decision kept at ``key``, if there is one."""
        return self._kept.get(key)

    def put(self, key: Hashable, decision: Decision) -> None:
        """Keep ``decision`` at ``key`` (the book emptied first when full)."""
        if len(self._kept) >= self.most_kept:
            self._kept.clear()
        self._kept[key] = decision

    def clear(self) -> None:
        """Forget every decision."""
        self._kept.clear()


#: The process's book, which every pure `best` player shares (`Best.pure`).
BOOK = Book()
