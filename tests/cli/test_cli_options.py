"""One command line: shared options have one name, one meaning and one help everywhere."""

from __future__ import annotations

import json

import click
import pytest
from click.shell_completion import ShellComplete
from click.testing import CliRunner

from minesweeper.cli import COMMANDS, main
from minesweeper.cli.common import strategy_names
from minesweeper.variant import LEVELS, PRESETS


def command(name: str) -> click.Command:
    found = main.get_command(click.Context(main), name)
    assert found is not None
    return found


def option(cmd: click.Command, name: str) -> click.Option | None:
    return next((p for p in cmd.params if isinstance(p, click.Option) and name in p.opts), None)


def with_option(name: str) -> list[str]:
    return sorted(c for c in COMMANDS if option(command(c), name) is not None)


def test_strategy_is_a_choice_listed_in_every_help() -> None:
    names = strategy_names()
    assert with_option("--strategy") == ["advanced", "autoplay", "bench", "client", "grade", "play"]
    for name in with_option("--strategy"):
        shown = CliRunner().invoke(main, [name, "--help"], terminal_width=200).output
        assert "|".join(names) in shown, name


def test_think_goes_wherever_a_strategy_is_chosen_with_one_help() -> None:
    assert with_option("--think") == with_option("--strategy")
    thinks = [option(command(name), "--think") for name in with_option("--think")]
    assert len({(t.help, t.metavar, t.default) for t in thinks}) == 1  # type: ignore[union-attr]
    shown = CliRunner().invoke(main, ["bench", "--help"], terminal_width=200).output
    assert "--think N[UNIT]" in shown
    shown = " ".join(shown.split())
    assert "search: 500 positions by default" in shown
    assert "positions the look-ahead solves per guess" in shown
    assert "rollout: 16 layouts by default" in shown
    assert "milliseconds of CPU time" not in shown  # no registered strategy thinks by the clock


@pytest.mark.parametrize("name", ["play", "bench", "advanced"])
def test_the_shell_completes_strategy_names(name: str) -> None:
    completion = ShellComplete(main, {}, "minesweeper", "_MINESWEEPER_COMPLETE")
    found = [item.value for item in completion.get_completions([name, "--strategy"], "g")]
    assert found == [s for s in strategy_names() if s.startswith("g")]


def test_every_preset_option_knows_the_acm_presets_and_goes_with_a_size() -> None:
    """Except the client's: it plays ranked games on a ladder, only at the classic levels."""
    for name in with_option("--preset"):
        choices = option(command(name), "--preset").type.choices  # type: ignore[union-attr]
        assert set(LEVELS if name == "client" else PRESETS) <= set(choices), name
        assert name != "client" or set(choices) == set(LEVELS)
    assert set(with_option("--preset")) <= set(with_option("--rows"))


def test_bench_resizes_its_presets_like_play(tmp_path) -> None:
    out = tmp_path / "r.json"
    args = ["bench", "--games", "3", "--jobs", "1", "--preset", "expert", "--rows", "10"]
    result = CliRunner().invoke(main, [*args, "--json", str(out)])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(out.read_text())["results"]
    assert (row["rows"], row["cols"], row["mines"]) == (10, 30, 62)  # expert's density


def test_one_seed_rule() -> None:
    for name in with_option("--seed"):
        seed = option(command(name), "--seed")
        assert "the same seed, the same games" in (seed.help or ""), name  # type: ignore[union-attr]
        fresh = name in ("play", "autoplay", "generate")
        assert (seed.default is None) == fresh, name  # type: ignore[union-attr]


def test_one_delay() -> None:
    delays = [option(command(name), "--delay") for name in with_option("--delay")]
    assert with_option("--delay") == ["autoplay", "play"]
    assert len({(d.default, d.help) for d in delays}) == 1  # type: ignore[union-attr]


def test_rules_and_first_click_are_one_family() -> None:
    for name in ("play", "autoplay", "generate", "bench"):
        rules = option(command(name), "--rules")
        assert rules is not None and set(rules.type.choices) == {"modern", "classic", "acm"}


def every_command(group: click.Command = main, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The path of every command and subcommand (``("ladder", "serve")``)."""
    paths = [path]
    if isinstance(group, click.Group):
        context = click.Context(group)
        for name in group.list_commands(context):
            found = group.get_command(context, name)
            assert found is not None
            paths += every_command(found, (*path, name))
    return paths


@pytest.mark.parametrize("path", every_command(), ids=" ".join)
def test_help_fits_80_columns_and_never_cuts_a_name(path: tuple[str, ...]) -> None:
    """A word is not cut at its hyphen (it was `[default: gauss-` / `powermean]`)."""
    result = CliRunner().invoke(main, [*path, "--help"], terminal_width=80)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(map(len, lines)) <= 80
    cut = [line for line in lines if line[-2:-1].isalpha() and line.endswith("-")]
    assert cut == []


def test_the_command_alone_shows_its_help_and_succeeds() -> None:
    result = CliRunner().invoke(main, [], terminal_width=80)
    assert result.exit_code == 0
    assert result.output.startswith("Usage: ")
    assert "judge" in result.output and "ladder" in result.output


def test_seed_says_what_it_draws() -> None:
    shown = CliRunner().invoke(main, ["topology", "show", "--help"]).output
    assert "the same seed, the same shape" in shown
    assert "the same games" not in shown
