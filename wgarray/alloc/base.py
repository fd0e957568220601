"""The allocator interface: a small base class whose ``dev`` is set once, and four operations."""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Generic, TypeVar

Block = Any  # what an allocator hands out: a numpy byte array (host) or a DeviceBlock (GPU)
D = TypeVar("D")


class Allocator(ABC, Generic[D]):
    """Hands out blocks of memory that belong to ``dev`` (``None`` for host memory)."""

    def __init__(self, dev: D) -> None:
        self._dev = dev

    @property
    def dev(self) -> D:
        """The device this allocator's memory lives on; ``None`` for the host."""
        return self._dev

    @abstractmethod
    def alloc(self, nbytes: int) -> Block:
        """A block of at least ``nbytes`` bytes; contents undefined; ``MemoryError`` when none can be had."""

    @abstractmethod
    def free(self, block: Block) -> None:
        """Give a block back.  The allocator may reuse it once no pending work uses it."""

    @abstractmethod
    def copyin(self, block: Block, data: memoryview) -> None:
        """Write host bytes into the start of ``block``."""

    @abstractmethod
    def copyout(self, block: Block, nbytes: int, out=None) -> memoryview:
        """The first ``nbytes`` bytes of ``block`` as host bytes (written into ``out`` when given)."""
