"""`bench --cluster`: the same games on Dask, a worker's death, an unreachable scheduler.

Each LocalCluster costs seconds to start, so these tests are few and small.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
from collections.abc import Mapping
from pathlib import Path

import pytest
from click.testing import CliRunner
from doubles import register_doubles

from minesweeper.bench import Deal, GameLog, GameOutcome, run_bench
from minesweeper.cli import main
from minesweeper.solver.registry import StrategySpec
from minesweeper.solver.think import Think
from minesweeper.variant import PRESETS, Rules

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")


def results_without_seconds(path: Path) -> list[dict]:
    data = json.loads(path.read_text())["results"]
    return [{k: v for k, v in entry.items() if k != "median_seconds"} for entry in data]


@pytest.mark.slow  # 2.5 s or more end to end
def test_the_same_seed_gives_the_same_results_everywhere(tmp_path: Path) -> None:
    args = ["bench", "--preset", "beginner", "--preset", "expert", "--games", "16", "--seed", "3"]
    args += ["--strategy", "gauss-powermean", "--strategy", "worlds"]
    # One process against the cluster (test_bench holds one process against --jobs 2).
    runs = {"one": ["--jobs", "1"], "cluster": ["--cluster", "local:2"]}
    for name, how in runs.items():
        result = CliRunner().invoke(main, [*args, *how, "--json", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
    one = results_without_seconds(tmp_path / "one")
    assert [entry["games"] for entry in one] == [16] * 4
    assert results_without_seconds(tmp_path / "cluster") == one


@pytest.mark.slow
def test_a_killed_worker_loses_nothing_and_counts_nothing_twice(tmp_path: Path) -> None:
    deal = Deal.of_preset(PRESETS["expert"], Rules.ACM, 64)
    expected = run_bench([deal], [StrategySpec("gauss-powermean")], seed=8)
    killed = []
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, dashboard_address=None
    ) as cluster:

        def kill_once(
            deal: Deal, strategy: StrategySpec, outcomes: Mapping[int, GameOutcome]
        ) -> None:
            if not killed:
                # SIGKILL, as the out-of-memory killer would: the worker cannot say goodbye.
                nanny = next(iter(cluster.workers.values()))
                os.kill(nanny.process.process.pid, signal.SIGKILL)
                killed.append(len(outcomes))

        log = GameLog.create(tmp_path / "g.jsonl", 8)
        [result] = run_bench(
            [deal],
            [StrategySpec("gauss-powermean")],
            seed=8,
            progress=kill_once,
            cluster=cluster.scheduler_address,
            log=log,
        )
        log.close()
    assert killed and killed[0] < 64  # killed mid-run
    strip = [dataclasses.replace(record, seconds=0) for record in result.records]
    assert strip == [dataclasses.replace(record, seconds=0) for record in expected[0].records]
    games = [json.loads(line)["game"] for line in (tmp_path / "g.jsonl").read_text().splitlines()]
    assert sorted(games) == list(range(64))


def test_an_unreachable_scheduler_is_one_line() -> None:
    with dask.config.set({"distributed.comm.timeouts.connect": "0.5s"}):
        result = CliRunner().invoke(
            main, ["bench", "--games", "1", "--cluster", "tcp://127.0.0.1:9"]
        )
    assert result.exit_code == 2
    [line] = [line for line in result.stderr.splitlines() if line.startswith("minesweeper")]
    assert line.startswith("minesweeper: cannot reach the Dask scheduler at tcp://127.0.0.1:9: ")
    assert "Traceback" not in result.stderr


def test_a_bad_local_cluster_size_is_one_line() -> None:
    result = CliRunner().invoke(main, ["bench", "--games", "1", "--cluster", "local:zero"])
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "minesweeper: --cluster local:zero: N in local:N must lie in 1.."
    )


def test_cluster_workers_play_with_the_budget_given(monkeypatch: pytest.MonkeyPatch) -> None:
    register_doubles(monkeypatch)  # the workers are threads here: they see the doubles
    deal = Deal.of_preset(PRESETS["beginner"], Rules.CLASSIC, 20)
    given = [StrategySpec("pondering", Think(3))]
    [expected] = run_bench([deal], given, seed=2)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        [result] = run_bench([deal], given, seed=2, cluster=cluster.scheduler_address)
        [default] = run_bench(
            [deal], [StrategySpec("pondering")], seed=2, cluster=cluster.scheduler_address
        )
    strip = [dataclasses.replace(record, seconds=0) for record in result.records]
    assert strip == [dataclasses.replace(record, seconds=0) for record in expected.records]
    assert strip != [dataclasses.replace(record, seconds=0) for record in default.records]
