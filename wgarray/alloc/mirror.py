"""The Mirror: the indirection between an array and its bytes.

A mirror owns at most one host block and one device block for an array's base.  Each side is allocated on its
first use and carries a validity flag.  Reading a side that is stale syncs it from the other side (through the
dtype's codec: widen on upload, narrow on download); writing a side invalidates the other.  Reading a valid side
moves no bytes.  Views share their base's mirror.  Only this module moves array bytes between host and device.

Threads.  Each mirror has a lock (an RLock) that makes its state transitions atomic with respect to other threads
using the same base: a sync (download into the host block, upload into the device block) happens together with
its flag change, and a write into an existing base (host write plus invalidation, or a kernel recorded plus
invalidation) happens under the lock for its whole length (``Array``'s write methods take it through
:func:`locked`).  Lock order, which keeps this free of deadlocks: a thread takes mirror locks in ascending ``id``
(all it needs at once, through :func:`locked`; a fresh mirror no other thread can see may be locked at any
time), and the stream's lock only after them; nothing takes a mirror lock while holding the stream's lock.
"""
from __future__ import annotations

from _thread import RLock  # threading.RLock's C type, without its Python factory (one per array)
from typing import TYPE_CHECKING

import numpy as np
import wgpu

from ..dtypes import DType
from .host import HOST

if TYPE_CHECKING:
    from ..device import Device
    from .gpu import DeviceBlock


class Mirror:
    __slots__ = ("dtype", "size", "device", "_host", "_block", "host_valid", "device_valid", "readers", "lock",
                 "__weakref__")

    def __init__(self, dtype: DType, size: int, device: "Device") -> None:
        self.dtype = dtype
        self.size = size  # elements of the base
        self.device = device
        self._host: np.ndarray | None = None
        self._block: DeviceBlock | None = None
        self.host_valid = False
        self.device_valid = False
        # deferred results that still have to read this base (lazy fusion, ops/fusion.py): computed before it
        # is written, so that they see the values they were defined on
        self.readers: list | None = None
        self.lock = RLock()

    def _before_write(self) -> None:
        readers, self.readers = self.readers, None
        for ref in readers or ():
            r = ref()
            if r is not None:
                r.materialise()

    # -- observation -------------------------------------------------------------------------------------------
    @property
    def residency(self) -> frozenset[str]:
        sides = []
        if self.host_valid:
            sides.append("host")
        if self.device_valid:
            sides.append("device")
        return frozenset(sides)

    @property
    def device_nbytes(self) -> int:
        return self.size * self.dtype.device_itemsize

    @property
    def transfer_nbytes(self) -> int:
        """Bytes one upload or one download of this base moves over the bus: the host size (whole 4-byte words)
        for narrow dtypes that the device codec widens, else the device size."""
        if self.dtype.widened and self.device.codec is not None:
            return (self.host_nbytes + 3) // 4 * 4
        return self.device_nbytes

    @property
    def host_nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    # -- the host side -------------------------------------------------------------------------------------------
    def _host_block(self) -> np.ndarray:
        if self._host is None:
            raw = HOST.alloc(self.host_nbytes)
            self._host = raw.view(self.dtype.numpy)
        return self._host

    def host(self) -> np.ndarray:
        """The host elements (1-D), downloaded first if only the device side is valid."""
        host = self._host
        if self.host_valid and host is not None:  # valid: nothing to sync, no lock needed
            return host
        with self.lock:
            host = self._host_block()
            if not self.host_valid and self.device_valid:
                self._download(host)
                self.host_valid = True
            return host

    def adopt_host(self, host: np.ndarray) -> None:
        """Take ``host`` (1-D, C-contiguous, aligned, writeable, of this dtype's host layout and this size) as the
        host block without copying it (``asarray(h, copy=False)``).  The host side becomes the only valid side, so
        the first device use uploads what ``host`` holds then; after that the mirror does not watch ``host``, and
        downloads land in it."""
        assert host.ndim == 1 and host.size == self.size and host.dtype == self.dtype.numpy
        assert host.flags.c_contiguous and host.flags.aligned and host.flags.writeable
        with self.lock:
            self._host = host
            self.host_valid = True
            self.device_valid = False

    def host_for_write(self, whole: bool = False) -> np.ndarray:
        """Host elements about to be written; ``whole`` means every element will be, so nothing is synced.
        A caller writing a base other threads can see holds ``self.lock`` until the write is done."""
        if self.readers:
            self._before_write()
        with self.lock:
            host = self._host_block() if whole else self.host()
            self.host_valid = True
            self.device_valid = False
            return host

    # -- the device side -------------------------------------------------------------------------------------
    def _device_block(self) -> "DeviceBlock":
        if self._block is None:
            self._block = self.device.allocator.alloc(self.size * self.dtype.device_itemsize or 4)
        return self._block

    def __del__(self) -> None:
        # the device block goes back to its device's pool when the last array (or view) of this base goes;
        # __del__ rather than weakref.finalize: one fewer object per array on the hot path
        try:
            block = self._block
        except AttributeError:  # __init__ did not get that far
            return
        if block is not None:
            self._block = None
            try:
                self.device.allocator.free(block)
            except Exception:  # interpreter shutdown: the pool is going away too
                pass

    def buffer(self) -> wgpu.GPUBuffer:
        """The device buffer for reading, uploaded first if only the host side is valid."""
        block = self._block
        if block is not None and (self.device_valid or not self.host_valid):  # nothing to sync: no lock needed
            return block.buffer
        with self.lock:
            block = self._block or self._device_block()
            if not self.device_valid and self.host_valid:
                self._upload(block)
                self.device_valid = True
            return block.buffer

    def buffer_for_write(self, whole: bool = False) -> wgpu.GPUBuffer:
        """The device buffer about to be written by a kernel; ``whole`` skips the sync of unwritten parts.
        A caller writing a base other threads can see holds ``self.lock`` until the kernel is recorded."""
        if self.readers:
            self._before_write()
        if whole:  # a fresh result's block comes straight from the pool (the commonest call of the hot path)
            block = self._block
            if block is None:
                block = self._block = self.device.allocator.alloc(self.size * self.dtype.device_itemsize or 4)
            buf = block.buffer
        else:
            buf = self.buffer()
        self.device_valid = True
        self.host_valid = False
        return buf

    def has_device_block(self) -> bool:
        return self._block is not None

    def release_device(self) -> None:
        """Give the device block back (after making sure the host side holds the data)."""
        with self.lock:
            if self._block is None:
                return
            if self.device_valid and not self.host_valid:
                self.host()
            self.device_valid = False
            block, self._block = self._block, None
            self.device.allocator.free(block)

    # -- transfers: the only two places bytes cross --------------------------------------------------------
    # Narrow dtypes (bool, 8/16-bit ints, float16) cross the bus at their host size: the packed host bytes go to a
    # pooled scratch block and the device codec widens them into the array's block (and narrows them back before a
    # download).  Without a device codec, the host codec widens/narrows instead.
    def _upload(self, block: "DeviceBlock") -> None:
        assert self._host is not None
        dev = self.device
        codec = dev.codec if self.dtype.widened else None
        if codec is not None:
            raw = self._host.view(np.uint8)
            pad = -raw.size % 4
            if pad:  # copies move whole 4-byte words
                raw = np.concatenate([raw, np.zeros(pad, np.uint8)])
            nbytes = raw.size
            if nbytes:
                scratch = dev.allocator.alloc(nbytes)
                dev.allocator.copyin(scratch, memoryview(raw))
                codec.widen(self.dtype, scratch.buffer, block.buffer, self.size)
                dev.allocator.free(scratch)  # reusable at once: later uses follow in stream order
        else:
            data = self.dtype.widen(self._host)
            nbytes = data.nbytes
            if nbytes:
                dev.allocator.copyin(block, memoryview(data).cast("B"))
        c = dev.counters
        c.uploads += 1
        c.bytes_uploaded += nbytes

    def _download(self, host: np.ndarray) -> None:
        assert self._block is not None
        dev = self.device
        codec = dev.codec if self.dtype.widened else None
        if codec is not None:
            nbytes = self.host_nbytes
            words = self.transfer_nbytes
            if nbytes:
                scratch = dev.allocator.alloc(words)
                codec.narrow(self.dtype, self._block.buffer, scratch.buffer, self.size)
                raw = host.view(np.uint8)
                if words == nbytes:
                    dev.allocator.copyout(scratch, nbytes, raw)
                else:
                    raw[...] = np.frombuffer(dev.allocator.copyout(scratch, words), np.uint8)[:nbytes]
                dev.allocator.free(scratch)
            nbytes = words
        else:
            nbytes = self.device_nbytes
            if nbytes:
                if self.dtype.widened:
                    wide = dev.allocator.copyout(self._block, nbytes)
                    self.dtype.narrow(np.frombuffer(wide, dtype=self.dtype.storage_numpy, count=self.size), host)
                else:  # same layout on both sides: straight into the host block
                    dev.allocator.copyout(self._block, nbytes, host.view(np.uint8))
        c = dev.counters
        c.downloads += 1
        c.bytes_downloaded += nbytes

    def read_range(self, lo: int, hi: int) -> np.ndarray:
        """Elements [lo, hi) of a device-only base, downloaded in device layout (device_itemsize bytes each) and
        narrowed on the host, without making the host side valid: a read of k elements moves O(k) bytes (issue 11).
        The caller reads the whole base through ``host()`` instead when the span covers it."""
        assert self.device_valid and not self.host_valid and 0 <= lo < hi <= self.size
        assert self._block is not None
        dev = self.device
        isz = self.dtype.device_itemsize
        raw = dev.allocator.read_range(self._block, lo * isz, (hi - lo) * isz)
        out = np.empty(hi - lo, self.dtype.numpy)
        self.dtype.narrow(np.frombuffer(raw, dtype=self.dtype.storage_numpy, count=hi - lo), out)
        c = dev.counters
        c.downloads += 1
        c.bytes_downloaded += (hi - lo) * isz
        return out

    # -- between devices -------------------------------------------------------------------------------------
    def copy_to(self, other: "Mirror") -> None:
        """Fill ``other`` (same dtype and size, another device) with this mirror's values.  Device-resident data
        moves device to device through pipelined staging chunks, in device layout (no narrowing and widening);
        host-resident data is copied on the host and stays lazily uploaded there."""
        assert other.dtype is self.dtype and other.size == self.size
        with locked((self, other)):
            self._copy_to(other)

    def _copy_to(self, other: "Mirror") -> None:
        if self.host_valid or not self.device_valid:
            other.host_for_write(whole=True)[...] = self.host()
            return
        nbytes = self.device_nbytes
        dst_block = other._device_block()
        if nbytes:
            assert self._block is not None  # device-valid
            self.device.allocator.copy_to(self._block, nbytes, other.device.allocator, dst_block)
        other.device_valid, other.host_valid = True, False
        src, dst = self.device.counters, other.device.counters
        src.downloads += 1
        src.bytes_downloaded += nbytes
        dst.uploads += 1
        dst.bytes_uploaded += nbytes


class locked:
    """Holds the locks of several mirrors (duplicates and non-mirrors skipped), taken in ascending ``id``: the
    order that keeps threads writing into several shared bases free of deadlocks."""

    __slots__ = ("_locks",)

    def __init__(self, mirrors) -> None:
        seen = {id(m): m for m in mirrors if isinstance(m, Mirror)}
        self._locks = [seen[k].lock for k in sorted(seen)]

    def __enter__(self) -> None:
        for lk in self._locks:
            lk.acquire()

    def __exit__(self, *exc) -> None:
        for lk in reversed(self._locks):
            lk.release()
