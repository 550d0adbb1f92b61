"""The kernel's keyrings, which outlive processes, kept from carrying data between programs.

Linux keeps keys per process, per session and per user id: a key stored in the
user's keyring stays there after the process ends, for every later process of the
uid to read, and a session keyring is inherited across ``fork``, ``exec`` and even a
change of uid. So each sandboxed program starts in a session keyring of its own
(`new_session`, joined before ``exec``), and a uid's own keyrings are emptied before
another program gets the uid (`forget`, `judge.uids`). The standard library has no
wrapper for ``keyctl``: it is called by its number, on the machines listed.
"""

from __future__ import annotations

import ctypes
import platform
from collections.abc import Callable

#: ``keyctl``'s system call number, by machine.
_KEYCTL = {"x86_64": 250, "aarch64": 219}.get(platform.machine())
_GET_KEYRING_ID, _JOIN_SESSION, _CLEAR, _INVALIDATE, _GET_PERSISTENT = 0, 1, 7, 21, 22
#: The special keyrings of the calling process: its uid's user and user-session
#: keyrings, its process keyring.
_USER, _USER_SESSION, _PROCESS = -4, -5, -2


def _keyctl() -> Callable[..., int] | None:
    if _KEYCTL is None:
        return None
    try:
        call = ctypes.CDLL(None, use_errno=True).syscall
    except (OSError, AttributeError):
        return None
    call.restype = ctypes.c_long
    number = _KEYCTL

    def keyctl(operation: int, *arguments: int) -> int:
        return int(call(number, operation, *(ctypes.c_long(value) for value in arguments)))

    return keyctl


#: Found once, at import: a child between ``fork`` and ``exec`` makes only the call.
_call = _keyctl()


def new_session() -> None:
    """Put the calling process in a new, empty session keyring of its own."""
    if _call is not None:
        _call(_JOIN_SESSION, 0)


def forget() -> None:
    """The calling process's uid's user, user-session and persistent keyrings emptied and
    invalidated: the kernel makes fresh, empty ones when they are next asked for."""
    keyctl = _call
    if keyctl is None:
        return
    keyrings = [keyctl(_GET_KEYRING_ID, spec, 0) for spec in (_USER, _USER_SESSION)]
    keyrings.append(keyctl(_GET_PERSISTENT, -1, _PROCESS))
    for keyring in keyrings:
        if keyring > 0:
            keyctl(_CLEAR, keyring)
            keyctl(_INVALIDATE, keyring)
