"""Fit the ``learned`` strategy's value model on `best`'s own games.

``collect``: play `best` on `bench`'s seeded boards; at every guess scored by
the look-ahead, keep the features (`minesweeper.solver.learned.features`) of
the outcome that happened (the number the guessed cell showed), if the cell
was safe, with whether the game was won in the end. One JSON line per sample.

``fit``: a logistic regression of the outcome (won) on the features, by
Newton's method with a small ridge penalty (numpy); prints the weights as a
Python tuple for `Learned.weights`, the log-loss in and out of sample (every
fifth game held out), and each weight's name.

Usage::

    python scripts/learned_value.py collect --preset expert --rules classic \
        --offset 100000 --games 5000 --out samples.jsonl
    python scripts/learned_value.py fit samples.jsonl
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from minesweeper.bench import Deal, Rules, resolve_presets, strategy_seed
from minesweeper.client import play
from minesweeper.solver.best import Best
from minesweeper.solver.learned import FEATURES, features
from minesweeper.solver.probability import Probabilities
from minesweeper.solver.strategy import Decision
from minesweeper.solver.view import View


class Recorder(Best):
    """`best`, keeping the features of every outcome of each look-ahead guess it makes."""

    name = "recorder"

    def __init__(self, seed: int = 0, base: type[Best] = Best) -> None:
        super().__init__(seed)
        self.guesses: list[tuple[int, dict[int, tuple[float, ...]]]] = []
        self._scored: dict[tuple[int, int], tuple[float, ...]] = {}

    def worth(self, view: View, cell: int, shown: int, result: Probabilities, risk: float) -> float:
        self._scored[cell, shown] = features(view, cell, shown, result)
        return super().worth(view, cell, shown, result, risk)

    def decide(self, view: View) -> Decision:
        self._scored = {}
        decision = super().decide(view)
        if decision.guess and self._scored:
            (cell,) = decision.opens[:1]
            found = {shown: x for (c, shown), x in self._scored.items() if c == cell}
            if found:
                self.guesses.append((cell, found))
        return decision


@click.group()
def main() -> None:
    """Collect samples from `best`'s games, or fit the value model to them."""


@main.command()
@click.option("--preset", default="expert", show_default=True)
@click.option("--rules", type=click.Choice([r.value for r in Rules]), default="classic")
@click.option("--games", default=1000, show_default=True)
@click.option("--offset", default=100_000, show_default=True, help="First game index.")
@click.option("--seed", default=0, show_default=True)
@click.option("--out", type=click.Path(dir_okay=False), required=True)
def collect(preset, rules, games, offset, seed, out) -> None:
    """Play `best` and append one sample per safe look-ahead guess to OUT."""
    (spec,) = resolve_presets([preset])
    deal = Deal.generated(spec, Rules(rules), offset + games)
    with open(out, "a") as sink:
        for index in range(offset, offset + games):
            board, first = deal.game(seed, index)
            recorder = Recorder(strategy_seed(seed, deal.name, index))
            record = play(board, first, recorder, deal.rules.tells_mine_count)
            for cell, found in recorder.guesses:
                if board.is_mine(cell):
                    continue
                x = found.get(board.count(cell))
                if x is not None:
                    row = {"index": index, "won": record.won, "x": x}
                    sink.write(json.dumps(row) + "\n")
            sink.flush()


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--ridge", default=1e-3, show_default=True)
def fit(paths, ridge) -> None:
    """Fit the logistic model to the samples in PATHS and print its weights."""
    import numpy as np

    rows = [json.loads(line) for p in paths for line in Path(p).read_text().splitlines()]
    x = np.array([r["x"] for r in rows], dtype=float)
    y = np.array([r["won"] for r in rows], dtype=float)
    held = np.array([r["index"] % 5 == 0 for r in rows])
    mean, scale = x.mean(axis=0), x.std(axis=0)
    mean[0], scale[0] = 0.0, 1.0
    scale[scale == 0] = 1.0

    def newton(z, t):
        w = np.zeros(z.shape[1])
        for _ in range(50):
            p = 1 / (1 + np.exp(-z @ w))
            grad = z.T @ (p - t) + ridge * len(t) * w
            hess = (z * (p * (1 - p))[:, None]).T @ z + ridge * len(t) * np.eye(len(w))
            step = np.linalg.solve(hess, grad)
            w -= step
            if np.abs(step).max() < 1e-9:
                break
        return w

    def loss(z, t, w):
        p = np.clip(1 / (1 + np.exp(-z @ w)), 1e-12, 1 - 1e-12)
        return float(-(t * np.log(p) + (1 - t) * np.log(1 - p)).mean())

    z = (x - mean) / scale
    w = newton(z[~held], y[~held])
    base = y[~held].mean()
    flat = -(y[held] * np.log(base) + (1 - y[held]) * np.log(1 - base)).mean()
    click.echo(f"{len(y)} samples, won {y.mean():.3f}; held out {held.sum()}")
    click.echo(
        f"log-loss: fit {loss(z[~held], y[~held], w):.4f}, held out "
        f"{loss(z[held], y[held], w):.4f} (constant {flat:.4f})"
    )
    w = newton(z, y)
    raw = w / scale
    raw[0] = w[0] - float((w[1:] * mean[1:] / scale[1:]).sum())
    for name, value in zip(FEATURES, raw, strict=True):
        click.echo(f"  {name:28} {value:+.4f}")
    click.echo("weights = (" + ", ".join(f"{v:.6g}" for v in raw) + ")")


if __name__ == "__main__":
    main()
