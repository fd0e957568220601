"""Per-device counters.  ``Device.stats()`` returns a frozen snapshot; snapshots subtract."""
from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Stats:
    uploads: int = 0
    downloads: int = 0
    bytes_uploaded: int = 0
    bytes_downloaded: int = 0
    dispatches: int = 0
    submits: int = 0
    pipelines_compiled: int = 0
    buffers_allocated: int = 0
    bytes_allocated: int = 0
    pool_hits: int = 0

    def __sub__(self, other: "Stats") -> "Stats":
        return Stats(**{f.name: getattr(self, f.name) - getattr(other, f.name) for f in fields(self)})


class Counters:
    """The live, mutable counters behind ``Stats`` (plain attribute increments on hot paths)."""

    __slots__ = tuple(f.name for f in fields(Stats))
    # the same names, declared for type checkers (the slots above are what exists at run time)
    uploads: int
    downloads: int
    bytes_uploaded: int
    bytes_downloaded: int
    dispatches: int
    submits: int
    pipelines_compiled: int
    buffers_allocated: int
    bytes_allocated: int
    pool_hits: int

    def __init__(self) -> None:
        for name in self.__slots__:
            setattr(self, name, 0)

    def snapshot(self) -> Stats:
        return Stats(**{name: getattr(self, name) for name in self.__slots__})
