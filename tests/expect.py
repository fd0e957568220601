"""What counts as an acceptable answer to bad input (shared by the bad-input sweep and the fuzz target): one of
the exception classes users can expect (``EXPECTED``), raised by wgarray, numpy or Python itself and not from
inside wgpu, with a message."""
from __future__ import annotations

import logging
import os

import numpy as np

EXPECTED = (TypeError, ValueError, IndexError, OverflowError, MemoryError, RuntimeError, NotImplementedError,
            np.exceptions.AxisError, ZeroDivisionError, BufferError)


def unexpected(exc: BaseException) -> str | None:
    """Why ``exc`` is not an acceptable answer to bad input, or None if it is."""
    t = type(exc)
    if t.__module__.split(".")[0] == "wgpu":
        return f"a wgpu exception ({t.__module__}.{t.__name__}) reached the user"
    if not isinstance(exc, EXPECTED):
        return f"unexpected exception class {t.__module__}.{t.__name__}"
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is not None and f"{os.sep}wgpu{os.sep}" in tb.tb_frame.f_code.co_filename:
        return f"{t.__name__} raised inside wgpu ({tb.tb_frame.f_code.co_filename}:{tb.tb_lineno})"
    if not str(exc).strip():
        return f"{t.__name__} without a message"
    return None


class WgpuLog(logging.Handler):
    """Collects the errors wgpu logs instead of raising (uncaptured device errors): bad input must not cause any."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
