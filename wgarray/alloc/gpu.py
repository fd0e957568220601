"""Device memory: storage buffers pooled by size class, one allocator per device.

A freed block goes back to the pool at once, even while recorded work still uses it: every later use of the
buffer goes through the same ordered stream (kernels and copies run in recording order, and the stream flushes
before a host write into a buffer that pending work uses), so reuse can never overtake earlier work.  Reusing at
once keeps a loop of ``c = a + b`` on the same few buffers and their cached bind groups.  The pool keeps at most
``limit`` idle bytes (``cache_limit``, 1 GiB, or ``LARGEST_KEPT`` times the largest block handed out, whichever is
more: 8192²'s FFT, three 512 MiB temporaries, recreated two buffers a call under a fixed 1 GiB, 19.5 ms against
2.0 with two temporaries on the H100): a freed block past it evicts the blocks idle the longest (not itself: a loop's working
set stays pooled while stale blocks of earlier sizes go; 8192x4096's FFT, 256 MiB blocks after 128 MiB ones had
filled the pool, recreated a buffer every call, ~7 ms each on the H100).  The pool is trimmed whole before an
allocation is declared impossible.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import wgpu

from ..runtime.stream import DeviceLostError
from .base import Allocator

if TYPE_CHECKING:  # the device sits above this layer; only its type is named here
    from ..device import Device

LARGEST_KEPT = 4  # the pool keeps up to this many of the largest block's bytes idle when that exceeds cache_limit
_USAGE = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST
_MIN_CLASS = 256


@dataclass(eq=False, slots=True)
class DeviceBlock:
    buffer: wgpu.GPUBuffer
    size: int  # the buffer's size (the size class), >= what was asked for


def size_class(nbytes: int) -> int:
    """Powers of two up to 1 MiB, then multiples of 1/8 of the next power of two (<= 12.5% waste)."""
    if nbytes <= _MIN_CLASS:
        return _MIN_CLASS
    p = 1 << (nbytes - 1).bit_length()
    if p <= (1 << 20):
        return p
    step = p >> 3
    return (nbytes + step - 1) // step * step


class GPUAllocator(Allocator["Device"]):
    def __init__(self, dev: "Device", cache_limit: int = 1 << 30) -> None:
        super().__init__(dev)
        self._free: dict[int, list[DeviceBlock]] = {}
        self._idle: dict[DeviceBlock, None] = {}  # the pooled blocks in the order they were freed (oldest first)
        self._idle_bytes = 0
        self.cache_limit = cache_limit
        self.largest = 0  # the largest block handed out so far (bytes)
        self.live_bytes = 0  # bytes in blocks handed out and not yet freed
        self._lock = dev.stream.lock
        self._counters = dev.counters
        self._deferred: list[DeviceBlock] = []  # freed while another thread held the lock: pooled at the next alloc
        # blocks handed out, held here so that their buffers are never garbage while a mirror uses them: when the
        # garbage collector frees a reference cycle holding an array, it finalizes every object only the cycle
        # reaches; a buffer finalized with its mirror would go back to the pool released (a NULL handle, which
        # wgpu-native answers with an abort when it is next bound)
        self._live: set[DeviceBlock] = set()
        self._classes: dict[int, int] = {}  # requested bytes -> size class, for the sizes seen most

    @property
    def live_blocks(self) -> int:
        """Blocks handed out and not yet freed."""
        return len(self._live)

    @property
    def limit(self) -> int:
        """The idle bytes the pool may hold: ``cache_limit``, or ``LARGEST_KEPT`` largest blocks if that is more
        (``cache_limit = 0`` turns pooling off)."""
        return max(self.cache_limit, LARGEST_KEPT * self.largest) if self.cache_limit > 0 else 0

    @property
    def idle_bytes(self) -> int:
        """Bytes held in the pool for reuse."""
        return self._idle_bytes

    def alloc(self, nbytes: int) -> DeviceBlock:
        cls = self._classes.get(nbytes) or self._class_of(nbytes)
        with self._lock:
            if self._deferred:
                while self._deferred:
                    self._give_back(self._deferred.pop())
            free = self._free.get(cls)
            if free:
                block = free.pop()
                del self._idle[block]
                self._idle_bytes -= cls
                self._counters.pool_hits += 1
            else:
                block = DeviceBlock(self._create(cls), cls)
                self.largest = max(self.largest, cls)
                self._counters.buffers_allocated += 1
                self._counters.bytes_allocated += cls
            self.live_bytes += cls
            self._live.add(block)
            return block

    def _class_of(self, nbytes: int) -> int:
        limits = self._dev.properties.limits
        binding, most = limits.max_storage_buffer_binding_size, limits.max_buffer_size
        if nbytes <= binding:  # pooled by size class, never past one binding (kernels bind these whole)
            cls = min(size_class(nbytes), max(binding // 16 * 16, nbytes))
        else:  # larger than one binding: bound through windows; whole vec4s at least
            cls = min(size_class(nbytes), most // 16 * 16)
            if cls < -(-nbytes // 16) * 16:
                raise MemoryError(f"cannot allocate {nbytes} bytes on {self._dev}: larger than the device's buffer "
                                  f"limit of {most} bytes")
        if len(self._classes) < 4096:
            self._classes[nbytes] = cls
        return cls

    def _create(self, size: int) -> wgpu.GPUBuffer:
        device = self._dev.wgpu_device
        try:
            with self._dev.stream.guard():  # a lost device is not out of memory
                return device.create_buffer(size=size, usage=_USAGE)
        except DeviceLostError:
            raise
        except Exception:
            self.trim()
            try:
                return device.create_buffer(size=size, usage=_USAGE)
            except Exception as e:
                raise MemoryError(f"cannot allocate {size} bytes on {self._dev}: {e}") from None

    def free(self, block: DeviceBlock) -> None:
        if self._dev.stream.closed:
            self._live.discard(block)
            return
        # never wait for the lock: free runs from __del__, in whichever thread the garbage collector runs (wgpu's
        # poller thread, too), and the thread holding the lock may be waiting for that very thread (map_sync)
        lock = self._lock
        if not lock.acquire(False):
            self._deferred.append(block)  # list.append is atomic
            return
        try:
            self._give_back(block)
        finally:
            lock.release()

    def _give_back(self, block: DeviceBlock) -> None:
        self._live.discard(block)
        size = block.size
        self.live_bytes -= size
        limit = self.limit
        if size > limit:
            self._destroy(block)
            return
        while self._idle_bytes + size > limit:  # the longest idle go first
            old = next(iter(self._idle))
            del self._idle[old]
            self._free[old.size].remove(old)
            self._idle_bytes -= old.size
            self._destroy(old)
        free = self._free.get(size)
        if free is None:
            free = self._free[size] = []
        free.append(block)
        self._idle[block] = None
        self._idle_bytes += size

    def _destroy(self, block: DeviceBlock) -> None:
        stream = self._dev.stream
        if stream.is_pending(block.buffer):  # recorded work still uses it: submit that work first
            stream.flush()
        stream.forget(block.buffer)
        block.buffer.destroy()

    def trim(self) -> None:
        """Destroy every idle buffer in the pool; the limit's largest block is then the largest one handed out."""
        with self._dev.stream.lock:
            while self._deferred:
                self._give_back(self._deferred.pop())
            for free in self._free.values():
                for block in free:
                    self._destroy(block)
            self._free.clear()
            self._idle.clear()
            self._idle_bytes = 0
            self.largest = max((b.size for b in self._live), default=0)

    def copyin(self, block: DeviceBlock, data: memoryview) -> None:
        self._dev.stream.write(block.buffer, 0, data)

    def copyout(self, block: DeviceBlock, nbytes: int, out=None) -> memoryview:
        return self._dev.stream.read(block.buffer, 0, nbytes, out)

    def read_range(self, block: DeviceBlock, offset: int, nbytes: int) -> memoryview:
        """``nbytes`` bytes of ``block`` from byte ``offset`` (both multiples of 4: device elements are 4 or 8)."""
        return self._dev.stream.read(block.buffer, offset, nbytes)

    def copy_to(self, block: DeviceBlock, nbytes: int, dst: "GPUAllocator", dst_block: DeviceBlock) -> None:
        """Device-to-device copy through the host, pipelined in chunks: while this device copies chunk k+1 into
        its staging buffer, the host pushes chunk k to ``dst``, so the time is near max(download, upload)."""
        for start, chunk in self._dev.stream.read_chunks(block.buffer, 0, nbytes):
            dst._dev.stream.write(dst_block.buffer, start, chunk)
