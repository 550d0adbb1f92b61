"""A person's game: the session (flags, chords, timer), its points, statistics, replays,
the signed records table, and the computer playing a session."""
