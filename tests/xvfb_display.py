"""A private Xvfb server, for the UI tests (``conftest.xvfb_display``) and the benchmarks
(``bench.app`` takes it from here, so the tests depend on nothing in ``bench/``)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager


class XvfbFailed(RuntimeError):
    """The X server did not start."""


@contextmanager
def xvfb(screen: str = "1920x1280") -> Iterator[str]:
    """A private Xvfb server with a ``screen`` of WIDTHxHEIGHT; yields its DISPLAY value. The
    default is large enough for every window the tour opens (1920x1200, portrait 800x1280)."""
    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", f"{screen}x24", "-nolisten", "tcp"],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    with os.fdopen(read_fd) as reader:
        number = reader.readline().strip()
    try:
        if not number:
            raise XvfbFailed("Xvfb did not start")
        yield f":{number}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
