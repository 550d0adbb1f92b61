"""`SettingsScreen`: preset or custom size, topology, rules, no-guess boards, conventions.

Changing a choice starts a new game of that kind at once; typed sizes apply
on enter (or with Play).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select

from minesweeper.errors import MinesweeperError, SettingsError
from minesweeper.play.session import Settings
from minesweeper.topology import TOPOLOGIES
from minesweeper.tui.controller import Conventions
from minesweeper.variant import PRESETS, RULES_HELP, Rules, Variant

CUSTOM = "custom"
#: The rules as the settings name them: as --rules's help does.
RULE_NAMES = {rules: f"{rules.value}: {text}" for rules, text in RULES_HELP.items()}
#: The switches of the playing conventions, by `Conventions` field: name, what it does.
CONVENTION_LABELS = {
    "left_chords": ("Left chords", "a left click on a satisfied number chords"),
    "confirm_quit": ("Ask to quit", "q asks first during a game"),
    "question_marks": ("? marks", "right clicks cycle flag, ?, nothing"),
}
#: Topologies the settings offer (graphs are random ones, laid out like a board).
PLAYABLE = tuple(TOPOLOGIES)
PROVER_NAMES = ("subset", "exact")


class Switch(Checkbox):
    """A labelled check box whose box is empty when off (Textual draws a dim X either way,
    which reads as on)."""

    def render(self) -> Content:
        self.BUTTON_INNER = "X" if self.value else " "
        return super().render()


class SettingsScreen(ModalScreen[None]):
    """Edits `Settings`; every valid change goes to ``apply`` (which starts a game)."""

    CSS_PATH = "styles/settings.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close")]

    def __init__(
        self,
        settings: Settings,
        apply: Callable[[Settings], None],
        conventions: Conventions | None = None,
        adopt: Callable[[Conventions], None] | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings
        self.apply = apply
        self.conventions = conventions or Conventions()
        self.adopt = adopt
        self._ready = False

    def compose(self) -> ComposeResult:
        s = self.settings
        game = s.variant
        with Vertical():
            yield Label("[b]Settings[/b]", markup=True)
            yield Label("A change starts a new game; the last three apply at once.", id="note")
            with Grid():
                yield Label("Preset")
                yield Select(
                    [(name, name) for name in PRESETS] + [("custom", CUSTOM)],
                    value=s.preset_name or CUSTOM,
                    allow_blank=False,
                    compact=True,
                    id="preset",
                )
                yield Label("Rows")
                yield Input(str(game.rows), type="integer", id="rows", compact=True)
                yield Label("Columns")
                yield Input(str(game.cols), type="integer", id="cols", compact=True)
                yield Label("Mines")
                yield Input(str(game.mines), type="integer", id="mines", compact=True)
                yield Label("Topology")
                yield Select(
                    [(name, name) for name in PLAYABLE],
                    value=game.name if game.name in PLAYABLE else "square",
                    allow_blank=False,
                    compact=True,
                    id="topology",
                )
                yield Label("Rules")
                yield Select(
                    [(text, rules.value) for rules, text in RULE_NAMES.items()],
                    value=game.rules.value,
                    allow_blank=False,
                    compact=True,
                    id="rules",
                )
                yield Label("No guessing")
                yield Switch(
                    "boards solved without a guess", s.no_guess, id="no-guess", compact=True
                )
                yield Label("Prover")
                yield Select(
                    [(name, name) for name in PROVER_NAMES],
                    value=s.prover if s.prover in PROVER_NAMES else "subset",
                    allow_blank=False,
                    compact=True,
                    id="prover",
                )
                for name, (text, what) in CONVENTION_LABELS.items():
                    yield Label(text)
                    value = getattr(self.conventions, name)
                    yield Switch(what, value, id=name.replace("_", "-"), compact=True)
            yield Label("", id="error")
            with Horizontal(id="buttons"):
                yield Button("Play", variant="primary", id="play", compact=True)
                yield Button("Close", id="close", compact=True)

    def on_mount(self) -> None:
        # Widgets report their first values as changes: only later ones are the player's.
        self.call_after_refresh(self._arm)

    def _arm(self) -> None:
        self._ready = True

    def form(self) -> Settings:
        """The settings the form shows; raises `MinesweeperError` (or ValueError) when invalid."""

        def number(widget_id: str) -> int:
            text = self.query_one(f"#{widget_id}", Input).value.strip()
            if not text:
                raise SettingsError(f"give the number of {widget_id}")
            return int(text)

        game = Variant(
            TOPOLOGIES[str(self.query_one("#topology", Select).value)],
            number("rows"),
            number("cols"),
            number("mines"),
            Rules(self.query_one("#rules", Select).value),
        )
        return Settings(
            game,
            no_guess=self.query_one("#no-guess", Checkbox).value,
            prover=str(self.query_one("#prover", Select).value),
        )

    def submit(self) -> bool:
        """Start a game with the form's settings; False (and a message) when they are invalid."""
        error = self.query_one("#error", Label)
        try:
            settings = self.form()
            self.apply(settings)
        except (MinesweeperError, ValueError) as problem:
            error.update(str(problem))
            return False
        self.settings = settings
        error.update("")
        return True

    def on_select_changed(self, event: Select.Changed) -> None:
        if not self._ready:
            return
        preset_name = str(self.query_one("#preset", Select).value)
        if event.select.id in ("preset", "topology") and preset_name != CUSTOM:
            # The preset's size fitted to the topology (dominoes cannot cover 9x9).
            topology = TOPOLOGIES[str(self.query_one("#topology", Select).value)]
            fitted = Variant.preset(preset_name, topology)
            for widget_id, value in (
                ("rows", fitted.rows),
                ("cols", fitted.cols),
                ("mines", fitted.mines),
            ):
                self.query_one(f"#{widget_id}", Input).value = str(value)
        self.submit()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        if not self._ready:
            return
        name = (event.checkbox.id or "").replace("-", "_")
        if name in CONVENTION_LABELS:  # a habit, not a kind of game: the game goes on
            self.conventions = replace(self.conventions, **{name: event.value})
            if self.adopt is not None:
                self.adopt(self.conventions)
            return
        self.submit()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.submit():
            self.query_one("#preset", Select).value = self.settings.preset_name or CUSTOM

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "play":
            if self.submit():
                self.dismiss(None)
        else:
            self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
