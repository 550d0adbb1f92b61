"""Boards to play: seeded random boards and presets, no-guess boards, MBF board files,
advanced test cases, and positions written by hand for analysis."""
