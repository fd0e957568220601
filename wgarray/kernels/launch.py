"""The one launch path of every kernel: a kernel declared once, compiled once, dispatched through one helper.

* ``Kernel`` names a shader template, its storage bindings (``Binding``: name, WGSL type, access) and its
  specialisation values.  The bindings' WGSL declarations and the bind group layout's read-only flags both come
  from that one list, so a binding cannot be declared ``read`` in WGSL and bound writable (or the reverse).
* ``entry()`` renders the entry point every kernel shares (``${ENTRY}`` in a template): the builtins, the flat
  workgroup index ``group_index`` and the flat invocation index ``thread_index``.  It is the device half of
  ``grid()``, which folds a 1-D workgroup count into x/y beyond the per-dimension limit; the two stay side by side
  here so that the folding rule lives in one place.
* ``compile()`` goes through the device's pipeline cache; ``dispatch()`` computes the grid (from ``threads`` or
  ``workgroups``, or takes a precomputed one from a cached plan) and records the dispatch on the device's stream.
  No other module calls ``stream.dispatch``.
"""
from __future__ import annotations

import contextlib
import math
import threading
from dataclasses import dataclass, field
from typing import Callable, Iterator, Literal, Mapping, Sequence

import wgpu

from . import source
from .layout import WORKGROUP

Access = Literal["read", "read_write"]


@dataclass(frozen=True)
class Binding:
    """One storage buffer of a kernel (group 0, numbered in declaration order)."""

    name: str
    wgsl_type: str  # e.g. "array<f32>", "array<vec4<u32>>", "array<atomic<u32>>"
    access: Access = "read"

    def __post_init__(self) -> None:
        if self.access not in ("read", "read_write"):
            raise ValueError(f"binding {self.name!r}: access must be 'read' or 'read_write', not {self.access!r}")


def read(name: str, wgsl_type: str) -> Binding:
    return Binding(name, wgsl_type, "read")


def write(name: str, wgsl_type: str) -> Binding:
    return Binding(name, wgsl_type, "read_write")


# The parameter block: every kernel reads its shapes, strides, offsets and scalars from the stream's uniform ring
# (bound at group 1 with a dynamic offset), as a struct named Params that the template declares.
PARAMS_DECLARATION = "@group(1) @binding(0) var<uniform> p: Params;"


@dataclass(frozen=True, eq=False)
class Kernel:
    """A shader template specialised: the bindings it declares, its workgroup size and its placeholder values.
    ``${BINDINGS}`` in the template receives the declarations, ``${ENTRY}`` the entry point, ``${WG}`` the
    workgroup's invocation count."""

    shader: str
    bindings: tuple[Binding, ...]
    subs: Mapping[str, object] = field(default_factory=dict)
    workgroup: int | tuple[int, ...] = WORKGROUP

    @property
    def readonly(self) -> tuple[bool, ...]:
        """The bind group layout's read-only-storage flag per binding."""
        return tuple(b.access == "read" for b in self.bindings)

    @property
    def invocations(self) -> int:
        return math.prod(self.workgroup) if isinstance(self.workgroup, tuple) else self.workgroup

    def declarations(self) -> str:
        lines = [f"@group(0) @binding({i}) var<storage, {b.access}> {b.name}: {b.wgsl_type};"
                 for i, b in enumerate(self.bindings)]
        lines.append(PARAMS_DECLARATION)
        return "\n".join(lines)

    def source(self) -> str:
        return source.render(self.shader, **self.subs, BINDINGS=self.declarations(), ENTRY=entry(self.workgroup),
                             WG=self.invocations)


def entry(workgroup: int | tuple[int, ...] = WORKGROUP) -> str:
    """The WGSL entry point of every kernel, up to its body.  ``wid``, ``nwg``, ``lid3`` and ``lid`` are the
    workgroup id, the grid, the local id and the local index; ``group_index`` undoes ``grid()``'s folding (row-major
    over x then y) and ``thread_index`` is the flat invocation index over workgroups of ``workgroup``."""
    size = ", ".join(map(str, workgroup)) if isinstance(workgroup, tuple) else str(workgroup)
    n = math.prod(workgroup) if isinstance(workgroup, tuple) else workgroup
    return "\n".join([
        f"@compute @workgroup_size({size})",
        "fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,",
        "        @builtin(local_invocation_id) lid3: vec3<u32>, @builtin(local_invocation_index) lid: u32) {",
        "    let group_index = wid.y * nwg.x + wid.x;",
        f"    let thread_index = group_index * {n}u + lid;"])


def grid(workgroups: int, max_dim: int) -> tuple[int, int, int]:
    """Fold a 1-D workgroup count into x/y so that no dimension exceeds the device limit (``entry()``'s
    ``group_index`` unfolds it; groups past ``workgroups`` exist and must return early)."""
    if workgroups <= max_dim:
        return (max(workgroups, 1), 1, 1)
    y = math.ceil(workgroups / max_dim)
    return (math.ceil(workgroups / y), y, 1)


def grid_for(device, *, threads: int | None = None, workgroups: int | None = None,
             group_threads: int = WORKGROUP) -> tuple[int, int, int]:
    """The folded grid for ``threads`` invocations (of ``group_threads``-wide workgroups) or for ``workgroups``."""
    if (threads is None) == (workgroups is None):
        raise TypeError("give threads or workgroups")
    if workgroups is None:
        workgroups = math.ceil(threads / group_threads)
    return grid(workgroups, device.properties.limits.max_compute_workgroups_per_dimension)


class CompileError(ValueError):
    """WGSL that does not validate (from a user kernel: ``wg.ElementwiseKernel``, ``wg.RawKernel``, ...).  The
    message is naga's, with the line and a caret under the offending code; nothing is cached, the device stays
    usable."""


def _pipeline(device, key: tuple, build: Callable[[], tuple], entry_point: str = "main", checks: bool = True):
    try:
        return device.pipeline(key, build, entry_point, checks)
    except wgpu.GPUValidationError as e:
        raise CompileError(f"WGSL does not compile:\n{str(e).strip()}") from e


def compile(device, key: tuple, build: Callable[[], Kernel], checks: bool = True):
    """The compiled kernel for ``key`` from the device's pipeline cache, built from ``build()`` on a miss: the
    (pipeline, bind group layout, invocations a workgroup) triple that ``dispatch`` takes.  ``checks=False``: no
    runtime bounds checks or loop bounding in the module (``Device.pipeline``), for kernels in range by
    construction."""
    def compiled() -> tuple[str, tuple[bool, ...], int]:
        kernel = build()
        return kernel.source(), kernel.readonly, kernel.invocations
    return _pipeline(device, key, compiled, checks=checks)


def compile_source(device, key: tuple, code: str, readonly: tuple[bool, ...], invocations: int,
                   entry_point: str = "main"):
    """The compiled kernel of WGSL written whole by a user (``wg.RawKernel``): storage buffers at group 0 (read-only
    where ``readonly`` says) and the parameter block at group 1, as every kernel here; the same cache and triple as
    ``compile``.  A shader that does not validate raises CompileError (naga's message and line) and
    is not cached (``CompileError``)."""
    return _pipeline(device, key, lambda: (code, tuple(readonly), invocations), entry_point)


def dispatch(device, kernel, buffers: Sequence, params: bytes, *, threads: int | None = None,
             workgroups: int | None = None, grid: tuple[int, int, int] | None = None,
             ranges: Sequence[tuple[int, int] | None] | None = None, work: int | None = None) -> None:
    """Record one dispatch of ``kernel`` (from ``compile``) over ``buffers`` (in binding order; ``ranges`` gives a
    (byte offset, byte size) window per buffer, None for whole) with the parameter block ``params``.  The grid:
    enough of the kernel's workgroups for ``threads``, ``workgroups`` folded, or ``grid`` as given (a cached plan's,
    or a kernel's own 3-D grid).  ``work`` as in ``Stream.dispatch``."""
    pipeline, layout, group_threads = kernel
    if grid is None:
        grid = grid_for(device, threads=threads, workgroups=workgroups, group_threads=group_threads)
    rec = getattr(_recording, "list", None)
    if rec is not None:
        rec.append((device, kernel, tuple(buffers), params, grid, work, ranges))
    device.stream.dispatch(pipeline, layout, buffers, params, grid, work, ranges)


_recording = threading.local()  # ``recording``'s list while one is open, per thread (``.list``)


@contextlib.contextmanager
def recording() -> Iterator[list]:
    """Every ``dispatch`` this thread makes inside the block (any device) appended to the list it yields as (device,
    kernel, buffers, params, grid, work, ranges): a driver that repeats the same launches on fresh buffers records
    them once and replays them (``api/linalg/factor.py``'s REPLAY), as the fft's recipes do.  Per thread: another
    thread's launches meanwhile are not this recording's (they would make a replayed recipe wrong)."""
    saved = getattr(_recording, "list", None)
    _recording.list = []
    try:
        yield _recording.list
    finally:
        _recording.list = saved
