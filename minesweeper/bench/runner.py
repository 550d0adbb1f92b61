"""Running a benchmark: every deal with every strategy, in chunks, on any executor."""

from __future__ import annotations

import collections
import contextlib
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence

from minesweeper.solver.registry import StrategySpec, StrategySpecError

from .deals import Deal
from .decisions import DecisionLog
from .executors import Executor, InProcess, ProcessPool
from .gamelog import GameKey, GameLog
from .games import Chunk, GameOutcome
from .results import GameFailure, Result

#: Called after each finished chunk: the deal, the strategy, and its outcomes so far by index.
Progress = Callable[[Deal, StrategySpec, Mapping[int, GameOutcome]], None]
#: A deal (by its number in the run) and a strategy: one row of the results.
Pair = tuple[int, StrategySpec]


#: The most games in one chunk, whatever their speed: bounds a result message's size.
MAX_CHUNK = 1000


class Dealer:
    """Hands out the games still to play, in chunks sized by how long games took so far.

    Each chunk should last about ``chunk_seconds`` of CPU, going by the mean
    seconds per game of its deal and strategy so far; the first holds one game
    and each at most twice its predecessor, so a few quick games do not make a
    huge chunk; and none takes more than a quarter of a worker's share of what is
    left, so that the workers finish together. The next chunk goes to the deal and
    strategy pair with the smallest share of its games handed out (in turn, among
    equals), so every progress bar moves, and a fast strategy runs at most a chunk
    ahead of a slow one on the same boards: a run stopped early leaves them paired
    on all but a chunk's games, and they share the machine's load while both run.
    """

    def __init__(
        self,
        deals: Sequence[Deal],
        strategies: Sequence[StrategySpec],
        seed: int,
        found: Mapping[Pair, Mapping[int, GameOutcome]],
        workers: int,
        chunk_seconds: float,
        decisions: bool = False,
    ) -> None:
        self.deals = deals
        self.decisions = decisions
        self.seed = seed
        self.workers = workers
        self.chunk_seconds = chunk_seconds
        self.left = {
            key: collections.deque(i for i in range(deals[key[0]].games) if i not in found[key])
            for key in itertools.product(range(len(deals)), strategies)
        }
        self.timing = {key: [0.0, 0] for key in self.left}
        self.last = dict.fromkeys(self.left, 0)
        for key, outcomes in found.items():
            self.record(key, outcomes.values())
        self.turn = 0

    def record(self, key: Pair, outcomes: Iterable[GameOutcome]) -> None:
        """Take in the CPU seconds of finished games of deal ``key[0]`` and strategy ``key[1]``."""
        for outcome in outcomes:
            if outcome.record is not None:
                self.timing[key][0] += outcome.record.seconds
                self.timing[key][1] += 1

    def size(self, key: Pair) -> int:
        """How many games the next chunk of ``key`` should hold."""
        seconds, games = self.timing[key]
        by_time = round(self.chunk_seconds * games / seconds) if seconds > 0 else 1
        left = sum(map(len, self.left.values()))
        balanced = max(1, left // (4 * self.workers))
        return max(1, min(by_time, balanced, 2 * self.last[key], MAX_CHUNK))

    def _share_dealt(self, key: Pair) -> float:
        games = self.deals[key[0]].games
        return 1 - len(self.left[key]) / games

    def __call__(self) -> Chunk | None:
        keys = [key for key, left in self.left.items() if left]
        if not keys:
            return None
        turn = self.turn % len(keys)
        self.turn += 1
        key = min(keys[turn:] + keys[:turn], key=self._share_dealt)
        left = self.left[key]
        self.last[key] = min(self.size(key), len(left))
        indices = tuple(left.popleft() for _ in range(self.last[key]))
        return Chunk.of(key[0], self.deals[key[0]], key[1], self.seed, indices, self.decisions)


def open_executor(jobs: int, cluster: str | None = None) -> Executor:
    """The executor for ``--jobs``/``--cluster``; Dask is imported only for a cluster."""
    if cluster is not None:
        from .cluster import DaskCluster  # lazily: Dask takes a second to import

        return DaskCluster(cluster)
    return InProcess() if jobs <= 1 else ProcessPool(jobs)


def run_bench(
    deals: Sequence[Deal],
    strategies: Sequence[StrategySpec],
    seed: int = 0,
    jobs: int = 1,
    progress: Progress | None = None,
    *,
    cluster: str | None = None,
    log: GameLog | None = None,
    done: Mapping[GameKey, GameOutcome] | None = None,
    executor: Executor | None = None,
    decisions: DecisionLog | None = None,
) -> list[Result]:
    """Play every deal with every strategy; one `Result` per pair, deals first.

    ``jobs`` processes play at once, or the Dask cluster at ``cluster`` (see
    `open_executor`), or ``executor`` (already entered) when given; games in
    ``done`` (read from a log) are not played again; each finished game is
    appended to ``log``, and its guesses to ``decisions``. The outcomes depend only on the
    seed, the deals and the strategies (only their CPU seconds vary; a strategy that
    thinks within a CPU budget may also choose other moves on a busier machine).
    """
    strategies = _once(strategies)
    found = _found(deals, strategies, done or {})
    left = games_left(deals, strategies, done or {})
    try:
        if left:
            jobs = min(jobs, left)
            _play(deals, strategies, seed, jobs, progress, cluster, log, executor, decisions, found)
    except KeyboardInterrupt:
        played = {pair: outcomes for pair, outcomes in found.items() if outcomes}
        raise BenchInterrupted(_results(deals, strategies, found), played) from None
    return _results(deals, strategies, found)


class BenchInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM, see `minesweeper.cli.bench`) stopped a run: the games played so far.

    ``results`` are the usual results over the games finished; ``played`` their
    outcomes by ``(deal index, strategy)`` and game index, for a log to keep.
    """

    def __init__(self, results: list[Result], played: dict[Pair, dict[int, GameOutcome]]) -> None:
        super().__init__("interrupted")
        self.results = results
        self.played = played


def _results(
    deals: Sequence[Deal],
    strategies: Sequence[StrategySpec],
    found: Mapping[Pair, Mapping[int, GameOutcome]],
) -> list[Result]:
    return [
        _result(deal, spec, found[deal_index, spec])
        for deal_index, deal in enumerate(deals)
        for spec in strategies
    ]


def _play(
    deals: Sequence[Deal],
    strategies: Sequence[StrategySpec],
    seed: int,
    jobs: int,
    progress: Progress | None,
    cluster: str | None,
    log: GameLog | None,
    executor: Executor | None,
    decisions: DecisionLog | None,
    found: dict[Pair, dict[int, GameOutcome]],
) -> None:
    """Play the games ``found`` lacks, adding each to it (and to the logs) as it finishes."""
    # An executor given is the caller's to open and close.
    context: contextlib.AbstractContextManager[Executor] = (
        open_executor(jobs, cluster) if executor is None else contextlib.nullcontext(executor)
    )
    with context as executor:
        dealer = Dealer(
            deals,
            strategies,
            seed,
            found,
            executor.workers,
            executor.chunk_seconds,
            decisions is not None,
        )
        for chunk, outcomes in executor.run(dealer):
            dealer.workers = executor.workers  # a cluster may have grown
            dealer.record((chunk.deal_index, chunk.strategy), outcomes)
            deal = deals[chunk.deal_index]
            pair = found[chunk.deal_index, chunk.strategy]
            # A chunk that ran twice (its worker died after finishing) counts once.
            new = {i: o for i, o in zip(chunk.indices, outcomes, strict=True) if i not in pair}
            pair.update(new)
            if decisions is not None and new:
                # Before the game log: a game the log holds has its guesses logged.
                decisions.write(chunk.strategy.name, (r for o in new.values() for r in o.decisions))
            if log is not None and new:
                log.write(deal, chunk.strategy, new)
            if progress is not None:
                progress(deal, chunk.strategy, pair)


def games_left(
    deals: Sequence[Deal],
    strategies: Sequence[StrategySpec],
    done: Mapping[GameKey, GameOutcome],
) -> int:
    """How many games of the run ``done`` lacks, counting each strategy's apart."""
    strategies = _once(strategies)
    return sum(deal.games for deal in deals) * len(strategies) - sum(
        map(len, _found(deals, strategies, done).values())
    )


def _once(strategies: Sequence[StrategySpec]) -> list[StrategySpec]:
    """Each strategy once, in order; one name with two settings is refused, since the
    games of a run (and of its log) are told apart by the strategy's name."""
    unique = list(dict.fromkeys(strategies))
    names = [spec.name for spec in unique]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise StrategySpecError(f"strategy {twice[0]!r} appears with two settings in one run")
    return unique


def _found(
    deals: Sequence[Deal],
    strategies: Sequence[StrategySpec],
    done: Mapping[GameKey, GameOutcome],
) -> dict[Pair, dict[int, GameOutcome]]:
    """The outcomes ``done`` holds, by deal number and strategy, then by game index."""
    found: dict[Pair, dict[int, GameOutcome]] = {}
    for (deal_index, deal), spec in itertools.product(enumerate(deals), strategies):
        keys = {index: (deal.name, spec.name, deal.number(index)) for index in range(deal.games)}
        found[deal_index, spec] = {i: done[key] for i, key in keys.items() if key in done}
    return found


def _result(deal: Deal, strategy: StrategySpec, outcomes: Mapping[int, GameOutcome]) -> Result:
    ordered = sorted(outcomes.items())
    return Result(
        deal,
        strategy,
        tuple(outcome.record for _, outcome in ordered if outcome.record is not None),
        tuple(
            GameFailure(deal.number(index), deal.board_name(index), outcome.error or "")
            for index, outcome in ordered
            if outcome.record is None
        ),
        tuple(deal.number(index) for index, outcome in ordered if outcome.record is not None),
    )
