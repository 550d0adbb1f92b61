"""The book of early positions: `best` decides each once per process, and plays as before."""

from __future__ import annotations

from collections.abc import Hashable, Iterator

import pytest

from minesweeper.bench.deals import Deal, resolve_presets
from minesweeper.client import play
from minesweeper.solver import Decision, View
from minesweeper.solver.best import Best
from minesweeper.solver.book import BOOK, MOST_OPEN, Book
from minesweeper.solver.probability import Budget
from minesweeper.solver.registry import find_strategy
from minesweeper.topology import SquareTopology
from minesweeper.variant import Rules


@pytest.fixture(autouse=True)
def empty_book() -> Iterator[None]:
    BOOK.clear()
    yield
    BOOK.clear()


def corner_one() -> View:
    """Expert classic after the first click in the corner shows a 1 (4 games in 10)."""
    return View(SquareTopology(16, 30), {0: 1}, mine_count=99)


def decisions(preset: str, rules: Rules, games: int, seed: int) -> list[list[Decision]]:
    """Every decision of ``best`` in ``games`` games of ``preset``, game by game."""
    deal = Deal.of_preset(resolve_presets([preset])[0], rules, games)
    played = []
    for index in range(games):
        board, first = deal.game(seed, index)
        player = Recording()
        play(board, first, player, deal.rules.tells_mine_count)
        played.append(player.made)
    return played


class Recording(Best):
    """`best`, keeping every decision it makes (pure as `best` is)."""

    name = "recording"
    pure = True

    def __init__(self) -> None:
        super().__init__()
        self.made: list[Decision] = []

    def decide(self, view: View) -> Decision:
        self.made.append(super().decide(view))
        return self.made[-1]


@pytest.mark.parametrize(("preset", "games"), [("intermediate", 60), ("expert", 12)])
def test_games_are_played_move_for_move_alike_with_the_book_and_without(
    preset: str, games: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    read: list[Decision | None] = []
    get = BOOK.get

    def reading(key: Hashable) -> Decision | None:
        read.append(get(key))
        return read[-1]

    monkeypatch.setattr(BOOK, "get", reading)
    with_book = decisions(preset, Rules.CLASSIC, games, seed=41)
    assert len(BOOK) > 0 and any(read)  # the corner's first guesses were kept, and read again
    monkeypatch.setattr(Recording, "pure", False)
    BOOK.clear()
    without = decisions(preset, Rules.CLASSIC, games, seed=41)
    assert len(BOOK) == 0
    assert with_book == without
    assert [d.method for game in with_book for d in game] == [
        d.method for game in without for d in game
    ]


def test_a_later_game_reads_the_kept_decision_without_deciding_again() -> None:
    first = Best().decide(corner_one())
    assert first.guess

    class Deciding(Exception):
        pass

    later = Best()

    def deciding(view: View) -> Decision:
        raise Deciding

    later._decide = deciding  # type: ignore[method-assign]
    assert later.decide(corner_one()) == first
    other = Best(cutoff=0.8)  # another setting: another entry
    other._decide = deciding  # type: ignore[method-assign]
    with pytest.raises(Deciding):
        other.decide(corner_one())


def test_only_pure_players_with_a_timeless_budget_use_the_book() -> None:
    view = corner_one()
    assert Best().book_key(view) is not None
    assert Best(budget=Budget.within(5.0)).book_key(view) is None
    for name in ("search", "rollout"):
        player = find_strategy(name)()
        assert isinstance(player, Best)
        assert not player.pure
        assert player.book_key(view) is None

    class Tweaked(Best):
        name = "tweaked"

    class Vouched(Best):
        name = "vouched"
        pure = True

    assert Tweaked().book_key(view) is None  # not pure unless it says so
    assert Vouched().book_key(view) is not None
    assert Vouched().book_key(view) != Best().book_key(view)


def test_later_positions_are_not_kept_and_a_full_book_starts_again() -> None:
    topology = SquareTopology(16, 30)
    early = View(topology, dict.fromkeys(range(MOST_OPEN), 1), mine_count=99)
    late = View(topology, dict.fromkeys(range(MOST_OPEN + 1), 1), mine_count=99)
    assert Best().book_key(early) is not None
    assert Best().book_key(late) is None
    book = Book(most_kept=2)
    decision = Decision((5,), guess=True)
    for cell in range(3):
        key = book.key("player", View(topology, {cell: 1}, mine_count=99))
        book.put(key, decision)
        assert book.get(key) == decision
    assert len(book) == 1  # emptied when the third came
    assert book.get(book.key("player", View(topology, {0: 1}, mine_count=99))) is None
