"""Host memory: numpy byte arrays.  Its ``dev`` is ``None``."""
from __future__ import annotations

import numpy as np

from .base import Allocator


class HostAllocator(Allocator[None]):
    def __init__(self) -> None:
        super().__init__(None)

    def alloc(self, nbytes: int) -> np.ndarray:
        return np.empty(max(nbytes, 0), dtype=np.uint8)

    def free(self, block: np.ndarray) -> None:  # the garbage collector owns host blocks
        pass

    def copyin(self, block: np.ndarray, data: memoryview) -> None:
        src = np.frombuffer(data, dtype=np.uint8)
        block[:src.size] = src

    def copyout(self, block: np.ndarray, nbytes: int, out=None) -> memoryview:
        if out is None:
            return memoryview(block[:nbytes])
        np.frombuffer(out, dtype=np.uint8)[:nbytes] = block[:nbytes]
        return memoryview(out)


HOST = HostAllocator()
