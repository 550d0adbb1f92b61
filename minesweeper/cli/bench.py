"""`minesweeper bench`: strategies side by side on the same seeded boards."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import signal
import sys
import threading
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Column, Table
from rich.text import Text

from minesweeper.advanced import DEFAULT_STRATEGY
from minesweeper.bench import (
    BENCH_PRESETS,
    DEFAULT_PRESETS,
    PRESET_GROUPS,
    Deal,
    GameLog,
    GameOutcome,
    GroupBy,
    Result,
    WorkerError,
    games_left,
    max_jobs,
    open_executor,
    resolve_presets,
    run_bench,
)
from minesweeper.bench.decisions import DecisionLog
from minesweeper.bench.executors import JOBS_PER_CORE, cores
from minesweeper.bench.pairing import Paired, Reference, pairings
from minesweeper.bench.runner import BenchInterrupted
from minesweeper.boards.cases import load_cases
from minesweeper.cli.common import (
    fail,
    output_file_option,
    reports_errors,
    rules_option,
    seed_option,
    strategy_option,
    topology_option,
    write_text,
)
from minesweeper.cli.gameopts import size_options, sized
from minesweeper.errors import UsageError
from minesweeper.outputs import OutputError, check_writable
from minesweeper.play.records import user_data_dir
from minesweeper.solver.compiled import from_source, modules_state
from minesweeper.solver.probability import ENGINE
from minesweeper.solver.registry import StrategySpec
from minesweeper.topology import SquareTopology, Topology
from minesweeper.variant import Preset, Rules

#: Beyond this many deal and strategy pairs, one bar for all games replaces a bar per pair.
MAX_BARS = 8
#: Failed games listed on stderr; the rest are counted (all are in --json).
MAX_LISTED_ERRORS = 10


@click.command()
@click.option(
    "--preset",
    "presets",
    multiple=True,
    type=click.Choice([*BENCH_PRESETS, *PRESET_GROUPS]),
    help="Board preset (repeatable; `acm` = acm-10, acm-15, acm-20), on another --topology "
    f"fitted as `play` fits it. Default: {', '.join(DEFAULT_PRESETS)}.",
)
@rules_option(Rules.ACM, "the assignment's games, which the solvers are measured on")
@click.option(
    "--first",
    type=(int, int),
    default=None,
    metavar="R C",
    help="First click instead of the preset's start ((0, 0) under classic rules; the middle "
    "of a size given by --rows/--cols/--mines).",
)
@click.option(
    "--boards",
    type=click.Path(exists=True, path_type=Path),
    help="Play these boards instead of generated ones: an advanced .in file "
    "(one or several cases) or a directory of them.",
)
@click.option(
    "--group-by",
    type=click.Choice([group.value for group in GroupBy]),
    help="With --boards: one result row for the whole path (default), per file (named by "
    "its path below PATH, shortened to the end that no other file shares: 1.in, or "
    "basic/1.in and advanced/1.in), or per board size and mine count.",
)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=None,
    help="Games per preset [default: 1000; with --boards, all of them].",
)
@strategy_option(
    DEFAULT_STRATEGY,
    multiple=True,
    help="Strategy (repeatable; all play the same boards; --think goes to those that think).",
)
@seed_option(fresh=False)
@click.option(
    "--jobs",
    type=click.IntRange(min=1, max=max_jobs()),
    default=cores(),
    show_default="all cores",
    help=f"Worker processes (never more than games to play; at most {JOBS_PER_CORE} per core).",
)
@click.option(
    "--cluster",
    metavar="ADDRESS",
    help="Run on a Dask cluster instead: a scheduler address (tcp://host:8786), or local:N "
    "for N worker processes here (--jobs does not apply). Needs the `cluster` extra; "
    "see docs/cluster.md.",
)
@click.option(
    "--reference",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Pair each strategy with another player's results on the same games: a file of "
    "'INDEX WIN|LOSS ...' lines (INDEX: the game number, as in --per-game), such as "
    "D. Hill's results files (*.dh-results.txt).",
)
@output_file_option("--json", "json_path", help="Also write the results to this JSON file.")
@output_file_option(
    "--per-game",
    "per_game_path",
    help="Also write one JSON line per game and strategy, as games finish (a new file).",
)
@output_file_option(
    "--decisions",
    "decisions_path",
    help="Also write one JSON line per guess (the position seen, the cell, its exact "
    "safety, how it was chosen), as the *.dh-decisions.jsonl logs; with --resume, "
    "the lines of the games kept are kept.",
)
@output_file_option(
    "--resume",
    "resume_path",
    help="Like --per-game, but keep the games FILE already holds and play only the rest.",
)
@size_options
@topology_option
@reports_errors
def bench(
    presets: tuple[str, ...],
    rules: Rules | None,
    first: tuple[int, int] | None,
    boards: Path | None,
    group_by: str | None,
    games: int | None,
    strategies: list[StrategySpec],
    seed: int,
    jobs: int,
    cluster: str | None,
    reference: Path | None,
    json_path: Path | None,
    per_game_path: Path | None,
    decisions_path: Path | None,
    resume_path: Path | None,
    rows: int | None,
    cols: int | None,
    mines: int | None,
    topology: type[Topology],
) -> None:
    """Play seeded random boards with several strategies side by side.

    Prints, per preset and strategy, the win rate with its 95% Wilson interval,
    the average share of safe cells revealed and the median CPU seconds per
    game. The same --seed gives every strategy the same boards and the same
    results in every run, whatever --jobs or --cluster. A game whose strategy
    fails is listed as an error (exit status 1); the other games count.

    With two or more strategies, or --reference, a second table pairs them game
    by game: the difference in win rate with its 95% interval, the games only
    one of the two won, and McNemar's exact p on those.
    """
    chosen = rules or Rules.ACM
    check_outputs(json_path, per_game_path, resume_path, decisions_path)
    known = Reference.read(reference) if reference is not None else None
    if cluster is not None:
        from minesweeper.bench.cluster import local_workers

        local_workers(cluster)  # a bad local:N fails now
    size = (rows, cols, mines)
    deals = make_deals(chosen, presets, first, size, boards, group_by, games, topology)
    log, done = open_log(per_game_path, resume_path, seed, deals, strategies)
    guesses = open_decisions(decisions_path, resume_path, done, log)
    results, stopped = play_all(deals, strategies, seed, jobs, cluster, log, done, guesses)
    console = Console(highlight=False)
    if stopped is not None:
        kept_in = log.path if log is not None else autosave(stopped, seed, deals)
        console.print(results_table(results, seed, chosen, topology, partial=True))
        played = sum(len(outcomes) for outcomes in stopped.played.values())
        total = sum(deal.games for deal in deals) * len(dict.fromkeys(strategies))
        fail(
            f"interrupted after {played} of {total} games: they are in {kept_in}; "
            f"{resume_command(per_game_path, kept_in)} plays the rest",
            130,
        )
    console.print(results_table(results, seed, chosen, topology))
    paired = pairings(results, known)
    if paired:
        console.print(paired_table(paired, known, short_names(results)))
    if json_path is not None:
        write_text(json_path, json_report(seed, results, paired, known))
    if report_errors(results):
        raise SystemExit(1)


def open_decisions(
    decisions_path: Path | None, resume_path: Path | None, done: Mapping, log: GameLog | None
) -> DecisionLog | None:
    """The ``--decisions`` log, keeping a resumed run's games' guesses; the games' log is
    closed if it cannot be opened."""
    if decisions_path is None:
        return None
    kept = {(key[1], key[2]) for key in done} if resume_path is not None else None
    try:
        return DecisionLog.open(decisions_path, kept)
    except BaseException:
        if log is not None:
            log.close()
        raise


def play_all(
    deals: list[Deal],
    strategies: list[StrategySpec],
    seed: int,
    jobs: int,
    cluster: str | None,
    log: GameLog | None,
    done: Mapping,
    guesses: DecisionLog | None,
) -> tuple[list[Result], BenchInterrupted | None]:
    """Every game with a progress bar, and what stopped them early if anything did; the
    logs are closed after, however it ends."""
    try:
        with terminate_as_interrupt():
            results = run_with_progress(deals, strategies, seed, jobs, cluster, log, done, guesses)
        return results, None
    except BenchInterrupted as stop:
        return stop.results, stop
    except KeyboardInterrupt:  # before the first game
        fail(f"interrupted: {_what_is_kept(log)}", 130)
    except WorkerError as error:
        said = f"; {_what_is_kept(log)}" if log is not None else ""
        raise WorkerError(f"{error}{said}") from None
    finally:
        if log is not None:
            log.close()
        if guesses is not None:
            guesses.close()


def json_report(
    seed: int, results: list[Result], paired: list[Paired], known: Reference | None
) -> str:
    """The ``--json`` report of a run."""
    report: dict[str, object] = {
        "seed": seed,
        "engine": ENGINE,  # which engine counted (see docs/solver.md): CPU figures differ
        "modules": modules_state(),  # and whether the solver's modules ran compiled
        "results": [r.as_json() for r in results],
    }
    if paired:
        report["paired"] = [p.as_json() for p in paired]
    if known is not None:
        report["reference"] = str(known.path)
    return json.dumps(report, indent=2) + "\n"


def check_outputs(
    json_path: Path | None,
    per_game: Path | None,
    resume: Path | None,
    decisions: Path | None = None,
) -> None:
    """Fail before any game is played when an output file could not be written."""
    if per_game is not None and resume is not None:
        raise UsageError("--resume FILE writes the per-game lines to FILE: drop --per-game")
    for option, path in (
        ("--json", json_path),
        ("--per-game", per_game),
        ("--resume", resume),
        ("--decisions", decisions),
    ):
        if path is not None:
            check_writable(path, option, replaced=option in ("--json", "--decisions"))
    if per_game is not None and per_game.exists() and per_game.stat().st_size:
        raise UsageError(f"--per-game {per_game}: the file exists; --resume it, or delete it first")


def make_deals(
    rules: Rules,
    presets: tuple[str, ...],
    first: tuple[int, int] | None,
    size: tuple[int | None, int | None, int | None],
    boards: Path | None,
    group_by: str | None,
    games: int | None,
    topology: type[Topology],
) -> list[Deal]:
    """The deals the options describe: given boards, or generated games per preset
    (resized by ``size``, the ``--rows``/``--cols``/``--mines`` given)."""
    if boards is None and group_by is not None:
        raise UsageError("--group-by groups --boards: give --boards or drop it")
    if boards is None:
        return [
            deal_of(preset, size, topology, rules, games or 1000, first)
            for preset in resolve_presets(presets or DEFAULT_PRESETS)
        ]
    if presets or first is not None or size != (None, None, None):
        raise UsageError(
            "--boards brings its own boards: drop --preset, --rows/--cols/--mines and --first"
        )
    cases = load_cases(boards, topology)
    return Deal.given(boards.name, cases[:games], rules, GroupBy(group_by or GroupBy.PATH.value))


def deal_of(
    preset: Preset,
    size: tuple[int | None, int | None, int | None],
    topology: type[Topology],
    rules: Rules,
    games: int,
    first: tuple[int, int] | None,
) -> Deal:
    """The games of ``preset`` as it is, fitted to a topology other than squares as `play`
    fits it (as many cells, the mines of `Variant.preset`), or resized by ``size``, the
    ``--rows``/``--cols``/``--mines`` given (see `sized`)."""
    if size == (None, None, None) and topology is SquareTopology:
        return Deal.of_preset(preset, rules, games, topology, first)
    game = sized(preset.name, *size, topology, rules)
    return Deal.generated(game, games, first, preset.name)


def open_log(
    per_game: Path | None,
    resume: Path | None,
    seed: int,
    deals: list[Deal],
    strategies: list[StrategySpec],
) -> tuple[GameLog | None, dict]:
    """The per-game log to write, and the games a resumed log already holds."""
    if resume is not None:
        if not resume.exists():
            click.echo(f"minesweeper: {resume} does not exist yet: a new run", err=True)
        return GameLog.resume(resume, seed, deals, strategies)
    if per_game is not None:
        return GameLog.create(per_game, seed), {}
    return None, {}


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM stops a run as Ctrl-C does (the games played are kept), in the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def autosave(stopped: BenchInterrupted, seed: int, deals: list[Deal]) -> Path:
    """Write the games of an interrupted run that had no log to a new one; its path."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    folder = user_data_dir() / "bench"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"the games played were lost: cannot write in {folder}") from error
    path = folder / f"interrupted-seed{seed}-{stamp}-{os.getpid()}.jsonl"
    log = GameLog.create(path, seed)
    try:
        for (deal_index, strategy), outcomes in stopped.played.items():
            log.write(deals[deal_index], strategy, dict(sorted(outcomes.items())))
    finally:
        log.close()
    return path


def resume_command(per_game: Path | None, log: Path) -> str:
    """The command that goes on with the run whose games are in ``log``."""
    argv = sys.argv
    if len(argv) > 1 and Path(argv[0]).name in ("minesweeper", "__main__.py") and "bench" in argv:
        args = argv[argv.index("bench") + 1 :]
        for option in ("--per-game", "--resume"):
            while option in args:  # drop it and its value: --resume LOG takes its place
                at = args.index(option)
                del args[at : at + 2]
            args = [a for a in args if not a.startswith(option + "=")]
        return f"`{shlex.join(['minesweeper', 'bench', *args, '--resume', str(log)])}`"
    given = " in place of --per-game" if per_game is not None else ""
    return f"the same command with --resume {shlex.quote(str(log))}{given}"


def _what_is_kept(log: GameLog | None) -> str:
    if log is None:
        return "no results"
    return f"the games played so far are in {log.path} (--resume {log.path} goes on)"


class SpeedColumn(ProgressColumn):
    """Games per second, over the last half minute (over the whole run once it is done, even
    when its games came in too few updates for a rate of their own)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        if speed is None and task.finished and task.finished_time:
            speed = task.completed / task.finished_time
        return Text("- games/s" if speed is None else f"{speed:.3g} games/s")


def run_with_progress(
    deals: list[Deal],
    strategies: list[StrategySpec],
    seed: int,
    jobs: int,
    cluster: str | None,
    log: GameLog | None,
    done: Mapping,
    decisions: DecisionLog | None = None,
) -> list[Result]:
    """`run_bench` under progress bars: games done, running win rate, games/s, time left.

    A bar per deal and strategy, or one for all games when there are many pairs.
    """
    progress = Progress(
        TextColumn("{task.description}", table_column=Column(max_width=24, no_wrap=True)),
        BarColumn(bar_width=16),
        MofNCompleteColumn(),
        TextColumn("won {task.fields[rate]}"),
        SpeedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
    )
    pairs = [(deal, spec) for deal in deals for spec in strategies]
    known = {
        (id(deal), spec): sum(
            (deal.name, spec.name, deal.number(i)) in done for i in range(deal.games)
        )
        for deal, spec in pairs
    }
    if len(pairs) <= MAX_BARS:
        bars = {
            (id(deal), spec): progress.add_task(
                f"{deal.name} {spec.name}",
                total=deal.games,
                completed=known[id(deal), spec],
                rate="-",
            )
            for deal, spec in pairs
        }
    else:
        total = progress.add_task(
            "all games",
            total=sum(deal.games for deal, _ in pairs),
            completed=sum(known.values()),
            rate="-",
        )
        bars = {(id(deal), spec): total for deal, spec in pairs}
    counts = {key: (count, 0) for key, count in known.items()}

    def update(deal: Deal, spec: StrategySpec, outcomes: Mapping[int, GameOutcome]) -> None:
        key = (id(deal), spec)
        records = [o.record for o in outcomes.values() if o.record is not None]
        counts[key] = (len(outcomes), sum(record.won for record in records))
        bar = bars[key]
        mine = [k for k in counts if bars[k] == bar]
        played = sum(counts[k][0] for k in mine)
        won = sum(counts[k][1] for k in mine)
        rate = f"{won / played:.1%}" if played and len(mine) == 1 else "-"
        progress.update(bar, completed=played, rate=rate)

    # Reach the workers before drawing the bars: a cluster that cannot be reached
    # is one line, not a screen of empty bars.
    left = games_left(deals, strategies, done)
    executor = open_executor(min(jobs, left), cluster) if left else None
    with executor or contextlib.nullcontext(), progress:
        return run_bench(
            deals,
            strategies,
            seed,
            jobs,
            update,
            log=log,
            done=done,
            executor=executor,
            decisions=decisions,
        )


def engine_words() -> str:
    """Which engine counted, for a title: the kernel's name, and the solver's modules when
    they ran otherwise than it (a stale build runs from source: its CPU is not compiled)."""
    state = modules_state()
    if (ENGINE, state) in (("compiled", "compiled"), ("python", "source")):
        return f"{ENGINE} engine"
    if state in ("compiled", "source"):
        return f"{ENGINE} engine, {state} modules"
    return f"{ENGINE} engine, {', '.join(from_source())} from source"


def results_table(
    results: list[Result],
    seed: int,
    rules: Rules,
    topology: type[Topology],
    partial: bool = False,
) -> Table:
    """The results, one row per deal and strategy, in at most 80 columns (``partial``: of a
    run stopped before its end, and its title says so); the think budgets in its caption.

    Given boards (``--boards``) come with their own layouts, so ``seed`` seeds only the
    strategies; the title says so, and names the boards when one name covers every row
    (their own column then goes, since a file name would fold it)."""
    shape = "" if topology is SquareTopology else f", {topology.name} cells"
    stopped = " (partial: interrupted)" if partial else ""
    names = list(dict.fromkeys(result.deal.name for result in results))
    given = any(result.deal.boards for result in results)
    engine = engine_words()
    if given:
        what = names[0] if len(names) == 1 else "given boards"
        title = f"Benchmark{stopped}: {what}, {rules.value} rules{shape}, {engine}, "
        title += f"strategies seeded {seed}"
    else:
        title = f"Benchmark{stopped}: seed {seed}, {rules.value} rules{shape}, {engine}"
    table = Table(
        title=title,
        box=None,
        collapse_padding=True,
        pad_edge=False,
        caption=budgets_caption(results),
    )
    named = not given or len(names) > 1
    if named:
        table.add_column("boards" if given else "preset", overflow="fold")
    table.add_column("board", no_wrap=True)
    table.add_column("strategy", overflow="fold")
    show_errors = any(result.errors for result in results)
    numbers = ["games", "won", "95% interval", "safe", "median s"]
    for heading in [*numbers, "errors"] if show_errors else numbers:
        table.add_column(heading, justify="right", no_wrap=True)
    for result in results:
        low, high = result.ci95
        row = [
            *([result.deal.name] if named else []),
            result.deal.size,
            breakable(short_names(results).get(result.strategy.label, result.strategy.label)),
            str(result.games),
            f"{result.win_rate:.1%}",
            f"{low * 100:.1f}-{high:.1%}",
            f"{result.avg_safe_share:.1%}",
            f"{result.median_seconds:.4f}",
        ]
        table.add_row(*row, *([str(len(result.errors))] if show_errors else []))
    return table


def short_names(results: list[Result]) -> dict[str, str]:
    """Each strategy's label (``search (think 500 positions)``) to its bare name where that
    name is unique in ``results``: the tables name the strategy and the caption its budget,
    which keeps a row in 80 columns."""
    specs = list(dict.fromkeys(result.strategy for result in results))
    names = [spec.name for spec in specs]
    return {spec.label: spec.name for spec in specs if names.count(spec.name) == 1}


#: The width a strategy's name wraps at in the tables: what 80 columns leave it.
NAME_WIDTH = 22


def breakable(name: str, width: int = NAME_WIDTH) -> str:
    """``name`` in lines of at most ``width``, broken after the ``:`` and ``,`` of its
    settings, so that a long spec wraps between settings rather than inside one (a single
    setting longer than ``width`` is still folded by the table)."""
    pieces = re.findall(r"[^:,]*[:,]?", name)
    lines = [""]
    for piece in filter(None, pieces):
        if lines[-1] and len(lines[-1]) + len(piece) > width:
            lines.append("")
        lines[-1] += piece
    return "\n".join(lines)


def budgets_caption(results: list[Result]) -> str | None:
    """What each thinking strategy in ``results`` spends per guess, e.g. ``think per guess:
    search 500 positions``; None when none thinks."""
    specs = dict.fromkeys(result.strategy for result in results)
    spent = [f"{spec.name} {spec.budget}" for spec in specs if spec.budget is not None]
    return f"think per guess: {', '.join(spent)}" if spent else None


#: What 80 columns leave the paired table's A and B columns together.
PAIRED_NAMES_WIDTH = 36


def paired_table(
    paired: list[Paired], reference: Reference | None, names: Mapping[str, str] | None = None
) -> Table:
    """Each pair of players on the games both played, a section per preset (one preset: named
    in the title), in at most 80 columns (differences in points of win rate); ``names``
    shortens labels for show. A name too long for its column shows as a tag, ``[1]``, that
    the caption spells out whole, so that a spec is never folded mid-setting."""
    names = names or {}
    deals = list(dict.fromkeys(one.deal for one in paired))
    title = "Paired, game by game: A-B in points"
    if len(deals) == 1:  # the title wraps a long file name at no cost; column A would fold it
        title = f"Paired, game by game on {deals[0]}: A-B in points"
    if reference is not None:
        title += f"; reference {reference.path.name}"
    tags = name_tags(
        [names.get(one.a, one.a) for one in paired], [names.get(one.b, one.b) for one in paired]
    )
    caption = "\n".join(f"{tag} {name}" for name, tag in tags.items()) or None
    table = Table(
        title=title,
        caption=caption,
        caption_justify="left",
        box=None,
        collapse_padding=True,
        pad_edge=False,
    )
    table.add_column("A", overflow="fold")
    table.add_column("B", overflow="fold")
    for heading in ("games", "A-B", "95% CI", "only A", "only B", "p"):
        table.add_column(heading, justify="right", no_wrap=True)
    deal = None if len(deals) > 1 else deals[0]
    for one in paired:
        if one.deal != deal:
            deal = one.deal
            table.add_row(Text(deal, style="bold"), end_section=False)
        low, high = one.ci95
        a, b = names.get(one.a, one.a), names.get(one.b, one.b)
        table.add_row(
            tags.get(a, a),
            tags.get(b, b),
            str(one.games),
            f"{one.difference * 100:+.1f}",
            f"{low * 100:+.1f}..{high * 100:+.1f}",
            str(one.only_a),
            str(one.only_b),
            "<0.001" if one.p < 0.001 else f"{one.p:.3f}",
        )
    return table


def name_tags(a: list[str], b: list[str], width: int = PAIRED_NAMES_WIDTH) -> dict[str, str]:
    """Tags, ``[1]``, for the longest of the names in columns ``a`` and ``b`` until the
    longest of each column left fits ``width`` together."""
    tags: dict[str, str] = {}

    def widest(column: list[str]) -> int:
        return max((len(tags.get(name, name)) for name in column), default=0)

    while widest(a) + widest(b) > width:
        name = max((n for n in a + b if n not in tags), key=len)
        tags[name] = f"[{len(tags) + 1}]"
    return tags


def report_errors(results: list[Result]) -> int:
    """List the failed games on stderr (the first few); how many there were."""
    failures = [(result, failure) for result in results for failure in result.errors]
    for result, failure in failures[:MAX_LISTED_ERRORS]:
        board = f" ({failure.board})" if failure.board else ""
        click.echo(
            f"minesweeper: {result.deal.name} {result.strategy.label} game {failure.game}{board} "
            f"failed: {failure.message}",
            err=True,
        )
    if len(failures) > MAX_LISTED_ERRORS:
        click.echo(
            f"minesweeper: ... and {len(failures) - MAX_LISTED_ERRORS} more failed games "
            "(all are in --json and --per-game)",
            err=True,
        )
    return len(failures)
