"""The command stream: the only path from wgarray to a device's queue.

Dispatches are recorded into one compute pass of one pending command encoder and submitted together at a host
read, an explicit ``synchronize()``, when the batch is full, or early to a device that has run dry (``FEED_AFTER``),
so requests to a device execute in the order they were made.  Kernel parameters (shapes, strides, offsets, scalars)
go into a host-side uniform ring that is written once per submit and bound with a dynamic offset, so a dispatch
needs no new buffer and no new bind group.  Bind groups over data buffers are cached, keyed by the layout and the
buffer objects they bind; a repeated dispatch sets only what changed (two wgpu-native calls for ``c = a + b``).
"""
from __future__ import annotations

import threading
import time
from typing import Any, Sequence

import wgpu

from . import native
from .stats import Counters

_CHUNK = 16 << 20  # staging buffer size: transfers move in chunks of this many bytes
_SMALL = 1 << 20  # uploads up to this size go through queue.write_buffer
_RING_BYTES = 1 << 19  # parameter bytes per submit
PARAMS_WINDOW = 1024  # largest parameter block one dispatch may bind
MAX_BATCH = 2048  # dispatches per submit at most
# Once a batch holds FEED_AFTER dispatches, submit it early if the device has run dry (a non-blocking poll says its
# queue is empty; asked again every FEED_AFTER dispatches): a host-bound loop of tiny ops then keeps the device fed
# and leaves a last batch of at most this many dispatches for the final synchronisation to wait for, instead of up
# to MAX_BATCH; a device slower than the host is seldom idle, so its batches still grow to MAX_BATCH.  None: off.
FEED_AFTER: int | None = 256
WORK_FLUSH = 1 << 30  # submit once the recorded dispatches bind this many bytes, so the device starts on large
# work while Python records more (small ops stay batched until a host read)
# Also ask whether the device has run dry each time the batch's bound bytes grow by a step (WORK_FEED after a wait,
# doubled at each check that finds the device dry, up to WORK_FLUSH; back to WORK_FEED at a check that finds it
# busy), and submit early if it has: after a wait (a host read, ``synchronize()``, a convergence flag) the first
# large dispatches start at once instead of waiting for the batch to reach FEED_AFTER dispatches or WORK_FLUSH bytes
# while Python records the rest.  A host-bound loop (the device dry at every check) backs off to one submit per
# WORK_FLUSH bytes, as without it; loops of small ops (a few KiB a dispatch) never reach a step between their
# FEED_AFTER checks.  H100 (2026-12-06, gpu_results s24/3_feed.txt, 64 MiB without the back-off): eigh 1024 149.5 ->
# 124.7 ms, svd 1024 190 -> 162 ms, but a loop of 2^20-element adds 6.6 -> 11.1 us an op; with the back-off
# (4_feed2.txt, another run, noisier): eigh 188.6 -> 137.0 ms, svd 221.8 -> 214.2, the adds 7.1 -> 7.5 us.  None: off.
WORK_FEED: int | None = 64 << 20
_BIND_GROUP_CACHE = 4096
_BU = wgpu.BufferUsage

try:  # wgpu-native's C entry points for the three calls a dispatch records, called directly: wgpu-py's wrappers
    # convert a list to a C array and capture errors on every call, which costs more than the call itself.  These
    # calls only fail on a wgarray bug (pipelines and bind groups are validated when created), and such a failure
    # still surfaces: the encoder becomes invalid and the checked submit raises.
    from wgpu.backends.wgpu_native._api import ffi as _ffi, lib as _lib
    _SET_PIPELINE = _lib.wgpuComputePassEncoderSetPipeline
    _DEVICE_POLL = _lib.wgpuDevicePoll  # returns whether the device's queue is empty (in its lowest bit)
    _SET_GROUP = _lib.wgpuComputePassEncoderSetBindGroup
    _DISPATCH = _lib.wgpuComputePassEncoderDispatchWorkgroups
    _NULL = _ffi.NULL
except (ImportError, AttributeError):  # another wgpu-py layout: use the public API
    _SET_PIPELINE = None
# A blocking poll of the device from the calling thread (wgpu-native); without it maps wait for wgpu-py's poller.
_POLL_WAIT = getattr(getattr(wgpu.backends, "wgpu_native", None), "GPUDevice", None)
_POLL = getattr(_POLL_WAIT, "_poll", None)  # the same poll without waiting
_POLL_WAIT = getattr(_POLL_WAIT, "_poll_wait", None)
if _POLL_WAIT is not None and _SET_PIPELINE is not None:  # the same polls through wgpu-native directly (wgpu-native
    # treats a failed poll as fatal, so wgpu-py's error capture around them never has anything to raise)
    def _POLL(device: wgpu.GPUDevice) -> None:
        handle = device._internal
        if handle:
            _DEVICE_POLL(handle, 0, _NULL)

    def _POLL_WAIT(device: wgpu.GPUDevice) -> None:
        handle = device._internal
        if handle:
            _DEVICE_POLL(handle, 1, _NULL)
_MAP_SPINS = 100_000  # non-blocking polls a map may take before the stream gives up on its callback
try:  # a map through wgpu-native's own entry point, so no poller thread races this one (see Stream._map)
    from wgpu.backends.wgpu_native._api import ffi as _mffi, lib as _mlib
    _MAP_ASYNC = _mlib.wgpuBufferMapAsync
    _MAP_OK = _mlib.WGPUMapAsyncStatus_Success
    _MAP_EVENTS = _mlib.WGPUCallbackMode_AllowProcessEvents
    _MAPPED = wgpu.enums.BufferMapState.mapped
    if not hasattr(wgpu.backends.wgpu_native.GPUBuffer, "_release_memoryviews"):
        raise AttributeError("another wgpu-py buffer layout")
except (ImportError, AttributeError):
    _MAP_ASYNC = None
_NATIVE_MAP = _MAP_ASYNC is not None and _POLL is not None and _POLL_WAIT is not None  # Stream._map's own path
_UNFIRED: list = []  # callbacks of maps given up on: kept alive, as wgpu-native may still call them
# Record and submit through wgpu-native's C entry points (``native``): the encoder, the compute pass, copies, the
# parameter ring's write, finish and submit, with bare handles the stream releases itself.  False: wgpu-py's objects.
# Read when an encoder is opened, so switching it between batches is safe.
NATIVE_SUBMIT: bool = native.available and _SET_PIPELINE is not None
# Reads of up to one staging chunk map, copy and unmap through wgpu-native in one call (``Stream.read``), without
# the chunked generator path or wgpu-py's mapped-range bookkeeping.  False: every read takes ``read_chunks``.
NATIVE_READ: bool = True
# Skip the parameter ring's queue write at a submit whose parameter bytes equal those the previous write left in the
# ring buffer (a loop of the same small op and its read: ``float(a.sum())`` submits the same block every time).  A
# queue write costs wgpu-core a staging buffer (created, copied from, destroyed at the next poll) and a second
# command buffer in the submit.  Only blocks of up to RING_KEEP bytes are remembered.  False: write every time.
RING_REUSE: bool = True
RING_KEEP = 4096
# A small read records its copy inside the submit (``flush(copy_)``: one error capture, no pass ended on its own).
# False: ``copy`` then ``flush``.
READ_FUSED: bool = True
# Request a map before the blocking poll that waits for its copy, so that one poll waits, maps and fires the callback
# (a non-blocking poll follows only if it did not).  False: wait for the device first, then map with a non-blocking
# poll (two polls a read, each with wgpu-core's maintenance; see ``Stream._map`` for why that was chosen).
MAP_FIRST: bool = False
# How a read or ``synchronize()`` waits for the device on a GPU: spin non-blocking polls (each returns whether the
# queue is empty) for up to SPIN_S seconds, then a blocking poll.  The blocking poll sleeps in the driver and wakes
# late: on the H100 (2026-12-06, ``python -m benchmarks.readpath_sweep``) spinning took ``float(a.sum())`` from 168
# to 130 us, a sum and ``synchronize()`` from 145 to 93 us, a checked cholesky of 10,000 8 x 8 from 347 to 255 us.
# CPU adapters (lavapipe) never spin: the driver's own threads need those cores (spinning there made a 50 ms
# cholesky take 115 ms).  0: always the blocking poll.  Read per wait, so it can be switched at any time.
SPIN_S: float = 0.002


def _map_callback() -> tuple[list, Any, Any]:
    """A map callback and the callback info that names it, reused by every map of one stream (maps are made under
    the stream's lock, one at a time): ``(statuses fired, callback, info)``."""
    fired: list[int] = []

    @_mffi.callback("void(WGPUMapAsyncStatus, WGPUStringView, void *, void *)")
    def on_mapped(status, _message, _user1, _user2):
        fired.append(status)

    info = _mffi.new("WGPUBufferMapCallbackInfo *")
    info.mode = _MAP_EVENTS
    info.callback = on_mapped
    return fired, on_mapped, info


def _round_up(n: int, to: int) -> int:
    return (n + to - 1) // to * to


class DeviceLostError(RuntimeError):
    """The device is gone (a driver reset or removal, or ``destroy()``): raised by every later use of it."""


def _is_lost(exc: BaseException) -> bool:
    """Whether a wgpu error says the device is gone."""
    text = str(exc).lower()
    return "device is lost" in text or "device lost" in text


class Stream:
    def __init__(self, device: wgpu.GPUDevice, counters: Counters, uniform_align: int,
                 binding_limit: int = 1 << 62, spin: bool = False) -> None:
        self._device = device
        self.spin = spin  # whether waits spin non-blocking polls first (SPIN_S; the device sets it for GPUs)
        self.binding_limit = binding_limit  # bytes one storage binding may hold
        self._queue = device.queue
        self._counters = counters
        self._align = max(16, uniform_align)
        self._lock = threading.RLock()
        self._encoder: Any = None  # wgpu-py's encoder and pass, or bare native handles where ``_native``
        self._pass: Any = None
        self._last_pipeline: Any = None  # what the open pass has bound
        self._last_group: Any = None
        self._last_params: bytes | None = None
        self._offset: Any = _ffi.new("uint32_t[1]") if _SET_PIPELINE is not None else None
        self._batch = 0
        self._feed_at = FEED_AFTER or MAX_BATCH  # the batch size at which the next idle check happens
        self._feed_step = WORK_FEED or WORK_FLUSH  # bound bytes between idle checks (WORK_FEED, backing off)
        self._feed_work = self._feed_step  # the bound bytes at which the next idle check happens
        self._work = 0  # bytes bound by the dispatches recorded since the last submit
        # what recorded, unsubmitted commands reference: each bind group set since the last submit with its cache
        # key (layout, buffers, ranges), and the buffers of copies.  ``is_pending`` folds the groups' keys into
        # ``_pending`` when asked, so a dispatch only notes a group it has not set before in the batch.
        self._bound: dict[Any, tuple] = {}  # group -> its cache entry (group, key, the buffers' bytes)
        self._pending: set = set()
        self._folded = 0  # entries of ``_bound`` already folded into ``_pending``
        self._handle: Any = None  # the open pass's wgpu-native handle
        self._on_mapped: tuple | None = None  # the map callback every map reuses (``_map_callback``)
        self._native = False  # whether the pending encoder and pass are bare wgpu-native handles (NATIVE_SUBMIT)
        self._ring_host = bytearray(_RING_BYTES + PARAMS_WINDOW)
        self._ring_used = 0
        self._ring_sent = b""  # what the last ring write left in the ring buffer (RING_REUSE; b"": unknown)
        self.ring_skips = 0  # submits that found their parameters in the ring buffer already (RING_REUSE)
        self._ring = device.create_buffer(size=_RING_BYTES + PARAMS_WINDOW, usage=_BU.UNIFORM | _BU.COPY_DST)
        self.params_layout = device.create_bind_group_layout(entries=[{
            "binding": 0, "visibility": wgpu.ShaderStage.COMPUTE,
            "buffer": {"type": wgpu.BufferBindingType.uniform, "has_dynamic_offset": True,
                       "min_binding_size": PARAMS_WINDOW}}])
        self._ring_group = device.create_bind_group(layout=self.params_layout, entries=[
            {"binding": 0, "resource": {"buffer": self._ring, "offset": 0, "size": PARAMS_WINDOW}}])
        self._ring_handle = self._ring_group._internal if _SET_PIPELINE is not None else None
        self._ring_native = (self._ring, native.ffi.from_buffer(self._ring_host)) if native.available else None
        self._groups: dict[tuple, tuple] = {}  # key -> (group, key, bytes); insertion-ordered: the first is the oldest
        self._stagers: dict[tuple[str, int], wgpu.GPUBuffer] = {}
        self._sync_src = device.create_buffer(size=16, usage=_BU.COPY_SRC)
        self._sync_dst = device.create_buffer(size=16, usage=_BU.COPY_DST | _BU.MAP_READ)
        self.closed = False
        self.ended = "closed"  # why the stream takes no more work once ``closed``: "closed" or "lost"

    @property
    def lock(self) -> threading.RLock:
        return self._lock

    # -- recording ------------------------------------------------------------------------------------------
    def bind_group(self, layout: wgpu.GPUBindGroupLayout, buffers: Sequence[wgpu.GPUBuffer],
                   ranges: Sequence[tuple[int, int] | None] | None = None) -> wgpu.GPUBindGroup:
        """A bind group binding ``buffers`` in order: whole, or the (byte offset, byte size) window that ``ranges``
        gives for a buffer; cached while the buffers live.  A buffer larger than one storage binding can only be
        bound through a window: binding it whole raises MemoryError (before anything is recorded)."""
        key = (layout, *buffers) if ranges is None else (layout, *buffers, *ranges)
        hit = self._groups.get(key)
        return (hit or self._new_group(key, layout, buffers, ranges))[0]

    def _new_group(self, key: tuple, layout: wgpu.GPUBindGroupLayout, buffers: Sequence[wgpu.GPUBuffer],
                   ranges: Sequence[tuple[int, int] | None] | None) -> tuple:
        """Create, cache and return the (group, key, the buffers' bytes) entry of ``key``'s bind group (the bytes:
        ``dispatch``'s default work, summed once here rather than a launch)."""
        with self._lock:
            entries = []
            for i, b in enumerate(buffers):
                r = None if ranges is None else ranges[i]
                if r is None:
                    if b.size > self.binding_limit:
                        raise MemoryError(
                            f"this operation needs a {b.size}-byte buffer in one storage binding, more than the "
                            f"device's limit of {self.binding_limit} bytes (arrays that large work in elementwise "
                            "operations, reductions, copies and transfers)")
                    r = (0, b.size)
                entries.append({"binding": i, "resource": {"buffer": b, "offset": r[0], "size": r[1]}})
            with self.guard():
                group = self._device.create_bind_group(layout=layout, entries=entries)
            # the key holds the layout and buffers, so they outlive the cached group; the entry holds the key, so
            # noting a pending group (``_bound``) allocates nothing
            entry = self._groups[key] = (group, key, sum(b.size for b in buffers))
            if len(self._groups) > _BIND_GROUP_CACHE:
                del self._groups[next(iter(self._groups))]  # the oldest
            return entry

    def forget(self, buffer: wgpu.GPUBuffer) -> None:
        """Drop cached bind groups that bind ``buffer`` (called before the allocator destroys it)."""
        with self._lock:
            for key in [k for k in self._groups if any(b is buffer for b in k[1:])]:
                del self._groups[key]

    def _open_pass(self) -> wgpu.GPUComputePassEncoder:
        """The open compute pass: a new one (and a new encoder) after a submit or a copy; a full batch is submitted
        first.  Raises if the stream is closed (a closed stream never has a pass open)."""
        if self._pass is not None and self._batch < MAX_BATCH:
            return self._pass
        self._check_open()
        if self._batch >= MAX_BATCH:
            self.flush()
        self._last_pipeline = self._last_group = self._last_params = None
        with self.guard():
            self._open_encoder()
            if self._native:
                self._pass = self._handle = native.begin_pass(self._encoder)
            else:
                self._pass = self._encoder.begin_compute_pass()
                self._handle = self._pass._internal if _SET_PIPELINE is not None else None
        return self._pass

    def _open_encoder(self) -> None:
        """Open the pending encoder if there is none: lazily, at the first command after a submit, so a host read
        leaves no encoder behind (``recording`` is False until something is recorded)."""
        if self._encoder is None:
            self._native = NATIVE_SUBMIT
            self._encoder = native.new_encoder(self._device) if self._native else self._device.create_command_encoder()

    def dispatch(self, pipeline: wgpu.GPUComputePipeline, layout: wgpu.GPUBindGroupLayout,
                 buffers: Sequence[wgpu.GPUBuffer], params: bytes, grid: tuple[int, int, int],
                 work: int | None = None, ranges: Sequence[tuple[int, int] | None] | None = None) -> None:
        """Record one dispatch of ``pipeline`` over ``buffers`` (bound at group 0 through the cached bind group of
        ``layout``; ``ranges`` as in ``bind_group``) with ``params`` (at most PARAMS_WINDOW bytes) at group 1.
        ``work`` (bytes the dispatch touches, default: the bound buffers' sizes) decides when a large batch is
        submitted early.

        This is the per-op host path of every kernel: state persists within a pass, so only what changed since the
        last dispatch is set (a repeated op on alternating result buffers: one ``set_bind_group`` and the dispatch),
        and a group's buffers are noted pending by the group's cache entry, once per change of group."""
        key = (layout, *buffers) if ranges is None else (layout, *buffers, *ranges)
        entry = self._groups.get(key)  # a dict lookup needs no lock; inserting and evicting take it
        if entry is None:
            entry = self._new_group(key, layout, buffers, ranges)
        group = entry[0]
        with self._lock:
            if self._pass is None or self._batch >= MAX_BATCH:
                self._open_pass()
            if params is not self._last_params:  # the same parameter block (a repeated op) is still bound
                size = len(params)
                if size > PARAMS_WINDOW:
                    raise ValueError(f"kernel parameter block of {size} bytes exceeds {PARAMS_WINDOW}")
                if self._ring_used + size > _RING_BYTES:
                    self.flush()
                    self._open_pass()
                offset = self._ring_put(params, size)
            else:
                offset = -1
            if _SET_PIPELINE is not None:
                handle = self._handle
                if pipeline is not self._last_pipeline:
                    _SET_PIPELINE(handle, pipeline._internal)
                    self._last_pipeline = pipeline
                if group is not self._last_group:
                    _SET_GROUP(handle, 0, group._internal, 0, _NULL)
                    self._last_group = group
                    self._bound[group] = entry
                if offset >= 0:
                    self._offset[0] = offset
                    _SET_GROUP(handle, 1, self._ring_handle, 1, self._offset)
                    self._last_params = params
                _DISPATCH(handle, *grid)
            else:
                cpass = self._pass
                assert cpass is not None
                if pipeline is not self._last_pipeline:
                    cpass.set_pipeline(pipeline)
                    self._last_pipeline = pipeline
                if group is not self._last_group:
                    cpass.set_bind_group(0, group)
                    self._last_group = group
                    self._bound[group] = entry
                if offset >= 0:
                    cpass.set_bind_group(1, self._ring_group, [offset])
                    self._last_params = params
                cpass.dispatch_workgroups(*grid)
            self._batch += 1
            self._counters.dispatches += 1
            self._work += entry[2] if work is None else work
            if self._work >= WORK_FLUSH or (self._batch >= self._feed_at or self._work >= self._feed_work) and \
                    self._device_idle():
                self.flush()

    def _device_idle(self) -> bool:
        """Whether the device has finished everything submitted (a non-blocking poll); schedules the next check."""
        self._feed_at = self._batch + (FEED_AFTER or MAX_BATCH)
        if FEED_AFTER is None or _SET_PIPELINE is None:
            self._feed_work = WORK_FLUSH
            return False
        idle = self._dry()
        if WORK_FEED:  # WORK_FEED's back-off: a dry device doubles the step, a busy one resets it
            self._feed_step = min(2 * self._feed_step, WORK_FLUSH) if idle else WORK_FEED
        self._feed_work = self._work + self._feed_step
        return idle

    def _dry(self) -> bool:
        """Whether the device has finished everything submitted: one non-blocking poll."""
        return bool(_DEVICE_POLL(self._device._internal, 0, _NULL) & 1)

    def _ring_put(self, params: bytes, size: int) -> int:
        """Copy a parameter block into the ring; its (aligned) offset."""
        offset = self._ring_used
        self._ring_host[offset:offset + size] = params
        self._ring_used = _round_up(offset + size, self._align)
        return offset

    def copy(self, src: wgpu.GPUBuffer, src_offset: int, dst: wgpu.GPUBuffer, dst_offset: int, size: int) -> None:
        """Record a buffer-to-buffer copy, in order with the dispatches."""
        with self._lock:
            self._check_open()
            cpass, self._pass = self._pass, None
            if cpass is not None:
                if self._native:
                    native.end_pass(cpass)
                else:
                    cpass.end()
            self._open_encoder()
            if self._native:
                native.copy(self._encoder, src, src_offset, dst, dst_offset, size)
            else:
                self._encoder.copy_buffer_to_buffer(src, src_offset, dst, dst_offset, size)
            self._pending.update((src, dst))
            self._batch += 1

    # -- submitting -------------------------------------------------------------------------------------------
    def flush(self, copy_: tuple | None = None) -> None:
        """Submit everything recorded so far (one submit).  If the driver rejects the batch, the error is raised
        and the stream starts afresh, so the device stays usable.  ``copy_``: ``copy``'s arguments, a copy recorded
        last (a read's: on the native path it is recorded inside the submit's own error capture)."""
        with self._lock:
            if copy_ is not None:
                self._check_open()
                self._open_encoder()
                if not self._native:
                    self.copy(*copy_)
                    copy_ = None
            cpass, encoder, ring = self._pass, self._encoder, self._ring_used
            self._pass = self._encoder = None
            self._ring_used = self._batch = self._work = self._folded = 0
            self._feed_at = FEED_AFTER or MAX_BATCH
            self._feed_work = self._feed_step
            self._bound.clear()
            self._pending.clear()
            if ring and encoder is not None:
                ring = self._ring_write(ring)
            try:
                with self.guard():
                    if encoder is not None and self._native:
                        native.submit(self._queue, encoder, cpass, self._ring_native, ring, copy_)
                        self._counters.submits += 1
                        return
                    if cpass is not None:
                        cpass.end()
                    if encoder is not None:
                        if ring:
                            self._queue.write_buffer(self._ring, 0, memoryview(self._ring_host)[:ring])
                        self._queue.submit([encoder.finish()])
                        self._counters.submits += 1
            except BaseException:
                self._ring_sent = b""  # the ring's write may or may not have been made
                raise

    def _ring_write(self, ring: int) -> int:
        """The bytes of the ring a submit must write: ``ring``, or 0 when the ring buffer already holds them (RING_REUSE).
        Notes what the write will leave there before it is made; ``flush`` forgets it if the submit fails."""
        sent = self._ring_sent
        if RING_REUSE and ring <= len(sent) and sent.startswith(self._ring_host[:ring]):
            self.ring_skips += 1
            return 0
        self._ring_sent = bytes(self._ring_host[:ring]) if RING_REUSE and ring <= RING_KEEP else b""
        return ring

    def submit(self, encoder: wgpu.GPUCommandEncoder) -> None:
        """Submit a finished foreign encoder after everything recorded so far (for one-off probes)."""
        with self._lock:
            self._check_open()
            self.flush()
            self._queue.submit([encoder.finish()])
            self._counters.submits += 1

    @property
    def recording(self) -> bool:
        """Whether anything is recorded and not yet submitted (a flush submits then, and only then)."""
        return self._encoder is not None

    def is_pending(self, buffer: wgpu.GPUBuffer) -> bool:
        """Whether a recorded, unsubmitted command references ``buffer``."""
        with self._lock:
            bound = self._bound
            if self._folded < len(bound):  # groups set since the last fold (a dict keeps insertion order)
                pending = self._pending
                for entry in list(bound.values())[self._folded:]:
                    pending.update(entry[1])
                self._folded = len(bound)
            return buffer in self._pending

    # -- transfers: chunked through two reused, mapped staging buffers per direction, so that the host copy of
    # chunk k+1 overlaps the device copy of chunk k (queue.write_buffer/read_buffer allocate per call) -------------
    def _stage(self, direction: str, slot: int) -> wgpu.GPUBuffer:
        key = (direction, slot)
        buf = self._stagers.get(key)
        if buf is None:
            usage = (_BU.MAP_WRITE | _BU.COPY_SRC) if direction == "up" else (_BU.MAP_READ | _BU.COPY_DST)
            buf = self._stagers[key] = self._device.create_buffer(size=_CHUNK, usage=usage)
        return buf

    def write(self, buffer: wgpu.GPUBuffer, offset: int, data) -> None:
        """Write host bytes into ``buffer`` after every command recorded so far that uses it."""
        data = memoryview(data).cast("B")
        with self._lock, self.guard():
            self._check_open()
            if self.is_pending(buffer):
                self.flush()
            if len(data) <= _SMALL:
                if NATIVE_SUBMIT:
                    native.write(self._queue, buffer, offset, data)
                else:
                    self._queue.write_buffer(buffer, offset, data)
                return
            for k, start in enumerate(range(0, len(data), _CHUNK)):
                part = data[start:start + _CHUNK]
                staging = self._stage("up", k % 2)
                self._map(staging, wgpu.MapMode.WRITE, _CHUNK)  # waits for its copy two chunks ago
                try:
                    staging.write_mapped(part, 0)
                finally:
                    staging.unmap()
                self.copy(staging, 0, buffer, offset + start, len(part))
                self.flush()

    def read(self, buffer: wgpu.GPUBuffer, offset: int, size: int, out=None) -> memoryview:
        """Copy ``size`` bytes of ``buffer`` to the host after everything recorded so far (flushes).
        Writes into the writable buffer ``out`` when given (and returns it), else into new memory."""
        dest = memoryview(bytearray(size) if out is None else out).cast("B")
        if len(dest) < size:  # the native copy below does not check its destination's length
            raise ValueError(f"a {size}-byte read into a {len(dest)}-byte buffer")
        if NATIVE_READ and size <= _CHUNK and _NATIVE_MAP and native.available:
            # one piece, mapped and copied through wgpu-native: no generators, no wgpu-py mapping state
            with self._lock, self.guard():
                self._check_open()
                staging = self._stage("down", 0)
                if READ_FUSED:
                    self.flush((buffer, offset, staging, 0, size))
                else:
                    self.copy(buffer, offset, staging, 0, size)
                    self.flush()
                try:
                    self._map(staging, wgpu.MapMode.READ, _round_up(size, 4), track=False)
                except RuntimeError:  # a map that never came may still be pending on it: no later read uses it
                    self._stagers.pop(("down", 0), None)
                    raise
                native.read_mapped(staging, size, dest)
            return dest
        for start, chunk in self.read_chunks(buffer, offset, size):
            dest[start:start + len(chunk)] = chunk
        return dest

    def read_chunks(self, buffer: wgpu.GPUBuffer, offset: int, size: int):
        """Yield ``(start, bytes)`` pieces of ``buffer`` in order; each piece is valid until the next is asked for.
        The device copies piece k+1 while the caller consumes piece k."""
        with self._lock, self.guard():
            self._check_open()
            starts = list(range(0, size, _CHUNK))
            for k, start in enumerate(starts):
                self.copy(buffer, offset + start, self._stage("down", k % 2), 0, min(_CHUNK, size - start))
                self.flush()
                if k:
                    yield from self._drain(k - 1, starts[k - 1], size)
            if starts:
                yield from self._drain(len(starts) - 1, starts[-1], size)

    def _drain(self, k: int, start: int, size: int):
        n = min(_CHUNK, size - start)
        staging = self._stage("down", k % 2)
        self._map(staging, wgpu.MapMode.READ, _round_up(n, 4))
        try:
            yield start, staging.read_mapped(0, _round_up(n, 4), copy=False)[:n]
        finally:
            staging.unmap()

    def _map(self, buffer: wgpu.GPUBuffer, mode: int, size: int, track: bool = True) -> None:
        """Map ``buffer[:size]`` (its copy already submitted) and wait for it in this thread.

        Measured on the H200 (benchmarks/read_floor.py): a blocking device poll issued while a map is pending took
        ~10 ms whenever the device was still busy (cholesky of one 64 x 64 matrix: 0.5 ms of work, 10.5 ms with its
        read), and wgpu-py's ``map_async`` wakes a poller thread that spins blocking polls and fires the callback
        under the GIL.  So: first wait for the device with no map pending (what ``synchronize()`` does: 5 us when
        idle), then request the map from wgpu-native directly, with no poll token, and fire its callback from
        this thread with non-blocking polls (the buffer is idle, so the first one does).  Where wgpu-py's
        internals differ, its ``map_sync``.  ``track=False``: leave wgpu-py's record of the buffer "unmapped" (the
        caller reads and unmaps it through ``native.read_mapped``)."""
        if _POLL_WAIT is None or _POLL is None or _MAP_ASYNC is None:
            buffer.map_sync(mode, 0, size)
            return
        first = MAP_FIRST
        if not first:
            self._wait()
        if self._on_mapped is None:
            self._on_mapped = _map_callback()
        fired, on_mapped, info = self._on_mapped
        fired.clear()
        _MAP_ASYNC(buffer._internal, int(mode), 0, size, info[0])
        if first:
            self._wait()
        for spin in range(_MAP_SPINS):
            if fired:
                break
            (_POLL if spin < _MAP_SPINS // 2 else _POLL_WAIT)(self._device)
        if not fired:
            _UNFIRED.append(self._on_mapped)  # it may still fire: keep it alive, and use a new one from now on
            self._on_mapped = None
            raise RuntimeError(f"the device did not map a {size}-byte staging buffer after {_MAP_SPINS} polls")
        if fired[0] != _MAP_OK:
            raise RuntimeError(f"could not map a {size}-byte staging buffer (wgpu-native status {fired[0]})")
        if not track:
            return
        buffer._map_state = _MAPPED  # what wgpu-py's own map callback records, so read_mapped/unmap work
        buffer._mapped_status = (0, size, int(mode))
        buffer._mapped_memoryviews = []

    def _wait(self) -> None:
        """Wait until the device has finished every submission (wgpu-native only): non-blocking polls for up to
        SPIN_S seconds where ``spin`` is set (GPUs), then (or at once) a blocking poll."""
        if _SET_PIPELINE is None:  # another wgpu-py layout: its own blocking poll (callers check there is one)
            assert _POLL_WAIT is not None
            _POLL_WAIT(self._device)
            return
        handle = self._device._internal
        if not handle:
            return
        self._feed_step = WORK_FEED or WORK_FLUSH  # drained after this wait: the next large work starts at once
        self._feed_work = self._work + self._feed_step
        if self.spin and SPIN_S > 0:
            end = time.perf_counter() + SPIN_S
            while True:
                for _ in range(64):
                    if _DEVICE_POLL(handle, 0, _NULL) & 1:
                        return
                if time.perf_counter() > end:
                    break
        _DEVICE_POLL(handle, 1, _NULL)

    def synchronize(self) -> None:
        """Submit and wait until the device has finished everything recorded so far.  With wgpu-native, a blocking
        device poll (it waits for the last submission; 3-4 us when idle on lavapipe, was ~370 us through a map);
        elsewhere a 16-byte copy and a map of its destination."""
        with self._lock, self.guard():
            self._check_open()
            if _POLL_WAIT is not None:
                self.flush()
                self._wait()
                return
            self.copy(self._sync_src, 0, self._sync_dst, 0, 16)
            self.flush()
            self._map(self._sync_dst, wgpu.MapMode.READ, 16)
            self._sync_dst.unmap()

    def trim_staging(self) -> None:
        with self._lock:
            for b in self._stagers.values():
                b.destroy()
            self._stagers.clear()

    def close(self) -> None:
        with self._lock:
            if not self.closed:
                try:
                    self.flush()
                except DeviceLostError:  # lost while closing: nothing left to finish
                    pass
                self.trim_staging()
                self._groups.clear()
                self.closed = True

    def _drop_recording(self) -> None:
        """Forget the pending encoder and pass unsubmitted (releasing native handles)."""
        cpass, encoder = self._pass, self._encoder
        self._pass = self._encoder = None
        if self._native and native.available:
            if cpass is not None:
                native.release_pass(cpass)
            if encoder is not None:
                native.release_encoder(encoder)

    def __del__(self) -> None:
        try:
            self._drop_recording()
        except Exception:  # interpreter shutdown: wgpu-native may be gone
            pass

    def _check_open(self) -> None:
        if self.closed:
            raise RuntimeError(f"this device has been {self.ended}")

    # -- a lost device ----------------------------------------------------------------------------------------------
    def guard(self) -> _LostGuard:
        """A context that turns wgpu's errors about a lost device into a RuntimeError that says so and ends the
        stream: the device's arrays can no longer be used (their host copies stay readable), other devices are
        unaffected.  (A small class, not a generator context: every flush and read enters one.)"""
        return _LostGuard(self)

    def _end_lost(self, e: Exception) -> None:
        """End the stream after ``e`` said the device is lost, and raise DeviceLostError."""
        with self._lock:
            self.closed, self.ended = True, "lost"
            self._drop_recording()
            self._bound.clear()
            self._pending.clear()
            self._folded = 0
            self._groups.clear()
            self._stagers.clear()
        detail = str(e).strip().splitlines()[-1].strip() if str(e).strip() else type(e).__name__
        raise DeviceLostError(f"the device has been lost ({detail}); its arrays can no longer be used on it, "
                              "open a new device") from None


class _LostGuard:
    """``Stream.guard()``'s context."""

    __slots__ = ("_stream",)

    def __init__(self, stream: Stream) -> None:
        self._stream = stream

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, exc, tb) -> None:  # None: never swallows the exception
        if isinstance(exc, Exception) and not isinstance(exc, DeviceLostError) and _is_lost(exc):
            self._stream._end_lost(exc)  # raises DeviceLostError
