"""The analysis of a game (`replay --analyze`): seeded games where each kind of click occurs."""

from __future__ import annotations

import functools
import json
from fractions import Fraction
from pathlib import Path

from click.testing import CliRunner
from tui_helpers import wait_until

from minesweeper.cli import main
from minesweeper.play.autoplay import view_of
from minesweeper.play.replay import Replay
from minesweeper.play.review import Review, Verdict
from minesweeper.play.session import GameSession, Settings
from minesweeper.solver.probability import probabilities

EXPERT = Settings.preset("expert")


def deduce(session: GameSession, expected: list) -> None:
    """Open every proved safe cell until none is left, noting each as certain."""
    while not session.over:
        safe = sorted(probabilities(view_of(session)).safe)
        if not safe:
            return
        expected.append((len(session.actions), Verdict.CERTAIN, Fraction(0)))
        session.open(safe[0])


def stuck_game(seed: int) -> tuple[GameSession, list]:
    session = GameSession(EXPERT, seed=seed)
    session.open(session.topology.cell_at(8, 15))
    expected: list = [(0, Verdict.FIRST, Fraction(0))]
    deduce(session, expected)
    return session, expected


@functools.cache  # found once: the tests only read it
def seeded_game() -> tuple[GameSession, list]:
    """A seeded expert game with a certain click, an avoidable risk taken while a cell was
    proved safe, a guess when a safer one existed, and a forced guess, each on a safe cell
    so that the game goes on; ``expected`` holds each click's verdict and exact risk."""
    for seed in range(100):
        session, expected = stuck_game(seed)
        if session.over:
            continue
        odds = probabilities(view_of(session))
        board = session.board
        safest = odds.safest()
        riskier = [c for c in odds if odds[c] > odds[safest[0]] and not board.is_mine(c)]
        forced = [c for c in safest if not board.is_mine(c)]
        if not riskier or not forced:
            continue
        # A guess while a safer one exists: an avoidable risk with the safest cell named.
        cell = riskier[0]
        expected.append((len(session.actions), Verdict.AVOIDABLE, odds[cell], odds[safest[0]]))
        session.open(cell)
        odds = probabilities(view_of(session))
        if session.over or odds.safe or not all(c in odds for c in forced):
            continue
        safest = odds.safest()
        forced = [c for c in safest if not board.is_mine(c)]
        if not forced:
            continue
        expected.append((len(session.actions), Verdict.FORCED, odds[forced[0]]))
        session.open(forced[0])
        odds = probabilities(view_of(session))
        risky = [c for c in odds if c not in odds.safe and not board.is_mine(c)]
        if session.over or not odds.safe or not risky:
            continue
        # A risk taken while a cell was proved safe.
        expected.append((len(session.actions), Verdict.AVOIDABLE, odds[risky[0]], Fraction(0)))
        session.open(risky[0])
        deduce(session, expected)
        return session, expected
    raise AssertionError("no seed below 100 gives every kind of click")


def test_every_kind_of_click_on_a_seeded_game() -> None:
    session, expected = seeded_game()
    review = Review.of(Replay.of(session))
    found = [(c.index, c.verdict, c.risk) for c in review.clicks]
    assert found == [item[:3] for item in expected]
    kinds = {c.verdict for c in review.clicks}
    assert kinds == set(Verdict)
    for click, item in zip(review.clicks, expected, strict=True):
        if click.verdict is Verdict.AVOIDABLE:
            assert click.better_risk == item[3]
            assert click.better is not None and click.better != click.action.cell
        assert not click.hit
    guesses = review.guesses
    assert [g.verdict for g in guesses] == [Verdict.AVOIDABLE, Verdict.FORCED, Verdict.AVOIDABLE]
    whole = (1 - guesses[0].risk) * (1 - guesses[1].risk) * (1 - guesses[2].risk)
    assert review.survival() == whole
    assert review.survival(2) == 1 - guesses[2].risk
    # The position of a guess is what the player saw just before it.
    assert review.position(guesses[1]) == view_of(Replay.of(session).session(guesses[1].index))
    said = list(review.summary(["worth A", "worth B"]))
    assert said[1].startswith("from guess 1 on (click ") and "worth A; the guesses made" in said[1]
    assert "worth B" in said[2] and "worth" not in said[3]


def test_a_chord_and_wasted_clicks_are_judged_rightly() -> None:
    session, _ = stuck_game(0)
    opened = next(iter(session.opened()))
    session.open(opened)  # a wasted click on an opened cell: nothing to judge
    review = Review.of(Replay.of(session))
    assert all(
        c.action.cell != opened or c.index != len(session.actions) - 1 for c in review.clicks
    )
    assert all(c.verdict in (Verdict.FIRST, Verdict.CERTAIN) for c in review.clicks)
    assert list(review.summary())[-1] == "no guess: every click after the first was certain"


def test_the_command_prints_every_click_and_the_summary(tmp_path: Path) -> None:
    session, expected = seeded_game()
    path = tmp_path / "game.json"
    path.write_bytes(Replay.of(session, player="Ada").to_bytes())
    result = CliRunner().invoke(main, ["replay", "--analyze", "--layouts", "12", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    again = CliRunner().invoke(main, ["replay", "--analyze", "--layouts", "12", str(path)])
    assert again.stdout == result.stdout  # seeded: the same figures every time
    assert sum(": certain" in line for line in lines) == sum(
        1 for item in expected if item[1] is Verdict.CERTAIN
    )
    forced = next(line for line in lines if "forced guess" in line and line.startswith("click"))
    risk = next(item[2] for item in expected if item[1] is Verdict.FORCED)
    shown = f"{1 - risk.numerator / risk.denominator:.1%}"
    assert f"safe with {shown}" in forced or f"safe with {1 - risk} ({shown})" in forced
    assert any("was certainly safe" in line for line in lines)
    assert any("; safer: row" in line for line in lines)
    summed = [line for line in lines if line.startswith("from guess")]
    assert len(summed) == 3
    for line in summed:  # each the exact survival and the chance to win, labelled
        assert "the guesses made come out safe with" in line
        assert "of 12 layouts that fit (95%: " in line or "(exact: every layout searched)" in line
    assert json.loads(path.read_text())["player"] == "Ada"


def test_the_viewer_judges_each_click_once_analysed() -> None:
    import asyncio

    from minesweeper.tui.replay import ReplayApp

    session, expected = seeded_game()
    replay = Replay.of(session, player="Ada")
    forced = next(item[0] for item in expected if item[1] is Verdict.FORCED)

    async def scenario() -> None:
        app = ReplayApp(replay, speed=0.01)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.press("space")  # paused: only the jumps below move the replay
            assert app.paused
            await pilot.press("a")
            await wait_until(pilot, lambda: app.viewer.review is not None, 300)  # a hang's bound
            assert app.viewer.review is not None
            screen = app.replay_screen
            screen.action_jump(forced + 1)
            await pilot.pause()
            status = str(screen.query_one("#status").render())
            assert "forced guess, safe with" in status
            screen.action_jump(-1)
            await pilot.pause()
            assert "clicks that opened cells" in str(screen.query_one("#status").render())

    asyncio.run(scenario())


def test_a_tiny_chance_is_never_shown_as_nothing() -> None:
    from minesweeper.play.review import _chance

    assert _chance(Fraction(2, 3)) == "2/3 (66.7%)"
    assert _chance(Fraction(12, 10**6)) == "0.0012%"  # not "0.0%"
    assert _chance(Fraction(1, 10**9)) == "1.0e-07%"
    assert _chance(Fraction(0)) == "0/1 (0.0%)"
