"""Children that Ctrl-C reaches, however the suite was started.

A non-interactive shell starts a background job (`pytest &`, `nohup pytest &`) with SIGINT
ignored, and every child inherits that: a test that sends SIGINT to stand for a terminal's
Ctrl-C would wait for a child that never hears it.
"""

from __future__ import annotations

import sys

_DEFAULT_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execvp(sys.argv[1], sys.argv[1:])"
)


def reached_by_ctrl_c(command: list[str]) -> list[str]:
    """``command`` run with SIGINT's default action, whatever this process has."""
    return [sys.executable, "-c", _DEFAULT_SIGINT, *command]
