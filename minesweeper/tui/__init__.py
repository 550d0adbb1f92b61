"""The terminal game (`minesweeper play`): Textual widgets over the game session.

Every rule lives in `minesweeper.play.session`; this package only draws the board,
turns clicks and keys into session calls, and shows hints, the computer's play
and the records. Import `minesweeper.tui.app.MinesweeperApp` to run it.
"""
