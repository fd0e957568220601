"""Raw wgpu peers: the least code that does the same work as wgarray, written straight against wgpu.

They run on wgarray's own ``wgpu`` device (same adapter, limits and queue) so the comparison isolates what
wgarray adds: Python dispatch overhead, generic (strided, parameterised) kernels, allocation, the stream.
A synchronisation is the same as ``wgarray.Device.synchronize()``: a small buffer copy appended to the work,
one submit, then mapping that small buffer (which waits for the queue).  Timed back to back (``add``, ``sum``),
each call is its own submit without the copy and the sample ends with ``RawWgpu.synchronize()``.  Pipelines,
buffers and bind groups are made once, outside the timed region.

The kernels are inline WGSL: benchmarks are not the package, whose kernels live in ``wgarray/shaders``.
"""
from __future__ import annotations

import math

import numpy as np
import wgpu

_BU = wgpu.BufferUsage
WG = 256  # invocations per workgroup for every kernel here

# c = a + b, four float32 per invocation; the grid is folded into x/y past the per-dimension limit.
ADD_VEC4 = """
@group(0) @binding(0) var<storage, read> a: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> c: array<vec4<f32>>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let i = (wid.y * nwg.x + wid.x) * 256u + lid;
    if (i < arrayLength(&c)) {
        c[i] = a[i] + b[i];
    }
}
"""

# Sum, pass 1: each workgroup strides over the input (vec4 loads), reduces its 256 partial sums as a tree in
# workgroup memory and writes one partial per workgroup.
SUM_PASS1 = """
@group(0) @binding(0) var<storage, read> x: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> partial: array<f32>;

var<workgroup> s: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let n4 = arrayLength(&x);
    var acc: f32 = 0.0;
    for (var i = wid.x * 256u + lid; i < n4; i = i + nwg.x * 256u) {
        let v = x[i];
        acc = acc + ((v.x + v.y) + (v.z + v.w));
    }
    s[lid] = acc;
    workgroupBarrier();
    for (var k = 128u; k > 0u; k = k >> 1u) {
        if (lid < k) {
            s[lid] = s[lid] + s[lid + k];
        }
        workgroupBarrier();
    }
    if (lid == 0u) {
        partial[wid.x] = s[0];
    }
}
"""

# Sum, pass 2: one workgroup reduces the partials the same way.
SUM_PASS2 = """
@group(0) @binding(0) var<storage, read> partial: array<f32>;
@group(0) @binding(1) var<storage, read_write> result: array<f32>;

var<workgroup> s: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32) {
    let n = arrayLength(&partial);
    var acc: f32 = 0.0;
    for (var i = lid; i < n; i = i + 256u) {
        acc = acc + partial[i];
    }
    s[lid] = acc;
    workgroupBarrier();
    for (var k = 128u; k > 0u; k = k >> 1u) {
        if (lid < k) {
            s[lid] = s[lid] + s[lid + k];
        }
        workgroupBarrier();
    }
    if (lid == 0u) {
        result[0] = s[0];
    }
}
"""

SUM_MAX_GROUPS = 2048  # pass-1 workgroups at most (enough to fill a large GPU)


class RawWgpu:
    """Minimal hand-written kernels and transfers on one wgpu device."""

    def __init__(self, device: wgpu.GPUDevice) -> None:
        self.device = device
        self.queue = device.queue
        self.max_dim = int(device.limits["max-compute-workgroups-per-dimension"])
        self.add_pipe = self._pipeline(ADD_VEC4)
        self.sum1_pipe = self._pipeline(SUM_PASS1)
        self.sum2_pipe = self._pipeline(SUM_PASS2)
        self._sync_src = device.create_buffer(size=16, usage=_BU.COPY_SRC)
        self._sync_dst = device.create_buffer(size=16, usage=_BU.COPY_DST | _BU.MAP_READ)

    def _pipeline(self, code: str) -> wgpu.GPUComputePipeline:
        module = self.device.create_shader_module(code=code)
        return self.device.create_compute_pipeline(layout="auto", compute={"module": module, "entry_point": "main"})

    def _group(self, pipe, buffers) -> wgpu.GPUBindGroup:
        return self.device.create_bind_group(layout=pipe.get_bind_group_layout(0), entries=[
            {"binding": i, "resource": {"buffer": b, "offset": 0, "size": b.size}} for i, b in enumerate(buffers)])

    def _grid(self, groups: int) -> tuple[int, int, int]:
        if groups <= self.max_dim:
            return (max(groups, 1), 1, 1)
        y = math.ceil(groups / self.max_dim)
        return (math.ceil(groups / y), y, 1)

    # -- buffers (untimed helpers) ----------------------------------------------------------------------------
    def upload(self, x: np.ndarray) -> wgpu.GPUBuffer:
        return self.device.create_buffer_with_data(data=np.ascontiguousarray(x),
                                                   usage=_BU.STORAGE | _BU.COPY_SRC | _BU.COPY_DST)

    def empty(self, nbytes: int) -> wgpu.GPUBuffer:
        return self.device.create_buffer(size=max(nbytes, 4), usage=_BU.STORAGE | _BU.COPY_SRC | _BU.COPY_DST)

    def staging(self, nbytes: int) -> wgpu.GPUBuffer:
        return self.device.create_buffer(size=nbytes, usage=_BU.COPY_DST | _BU.MAP_READ)

    def read(self, buf: wgpu.GPUBuffer, nbytes: int, dtype=np.float32) -> np.ndarray:
        staging = self.staging(nbytes)
        enc = self.device.create_command_encoder()
        enc.copy_buffer_to_buffer(buf, 0, staging, 0, nbytes)
        self.queue.submit([enc.finish()])
        staging.map_sync(wgpu.MapMode.READ, 0, nbytes)
        out = np.frombuffer(staging.read_mapped(0, nbytes, copy=True), dtype=dtype).copy()
        staging.unmap()
        staging.destroy()
        return out

    # -- the synchronisation every timed call ends with ------------------------------------------------------
    def submit_with_sync(self, enc: wgpu.GPUCommandEncoder) -> None:
        """Append the small sync copy to ``enc`` and submit it."""
        enc.copy_buffer_to_buffer(self._sync_src, 0, self._sync_dst, 0, 16)
        self.queue.submit([enc.finish()])

    def wait(self) -> None:
        """Wait for everything submitted so far: map the small buffer the last submit copied into."""
        self._sync_dst.map_sync(wgpu.MapMode.READ, 0, 16)
        self._sync_dst.unmap()

    def synchronize(self) -> None:
        self.submit_with_sync(self.device.create_command_encoder())
        self.wait()

    # -- work ----------------------------------------------------------------------------------------------
    def add_job(self, a: wgpu.GPUBuffer, b: wgpu.GPUBuffer, c: wgpu.GPUBuffer) -> "AddJob":
        return AddJob(self, a, b, c)

    def sum_job(self, x: wgpu.GPUBuffer, n: int) -> "SumJob":
        return SumJob(self, x, n)


class AddJob:
    """c = a + b (float32, n a multiple of 4) with the bind group made once."""

    def __init__(self, raw: RawWgpu, a, b, c) -> None:
        if c.size % 16:
            raise ValueError("the vec4 add needs a multiple of 4 float32 elements")
        self.raw = raw
        self.group = raw._group(raw.add_pipe, [a, b, c])
        self.grid = raw._grid(math.ceil(c.size // 16 / WG))

    def run(self, sync: bool = True) -> None:
        """One encoder, one pass, one dispatch, one submit; with ``sync`` the submit carries the sync copy and
        ``raw.wait()`` finishes it (without, ``raw.synchronize()`` does)."""
        raw = self.raw
        enc = raw.device.create_command_encoder()
        cpass = enc.begin_compute_pass()
        cpass.set_pipeline(raw.add_pipe)
        cpass.set_bind_group(0, self.group)
        cpass.dispatch_workgroups(*self.grid)
        cpass.end()
        if sync:
            raw.submit_with_sync(enc)
        else:
            raw.queue.submit([enc.finish()])

    def loop_submit_each(self, count: int) -> None:
        """``count`` adds, each its own encoder, pass and submit; the last submit carries the sync copy."""
        raw = self.raw
        device, queue, pipe, group, grid = raw.device, raw.queue, raw.add_pipe, self.group, self.grid
        for _ in range(count):
            enc = device.create_command_encoder()
            cpass = enc.begin_compute_pass()
            cpass.set_pipeline(pipe)
            cpass.set_bind_group(0, group)
            cpass.dispatch_workgroups(*grid)
            cpass.end()
            queue.submit([enc.finish()])
        raw.submit_with_sync(device.create_command_encoder())

    def loop_one_pass(self, count: int) -> None:
        """``count`` adds as dispatches of one compute pass (bind group set per dispatch), one submit."""
        raw = self.raw
        enc = raw.device.create_command_encoder()
        cpass = enc.begin_compute_pass()
        cpass.set_pipeline(raw.add_pipe)
        group, (gx, gy, gz) = self.group, self.grid
        for _ in range(count):
            cpass.set_bind_group(0, group)
            cpass.dispatch_workgroups(gx, gy, gz)
        cpass.end()
        raw.submit_with_sync(enc)


class SumJob:
    """sum(x) (float32, n a multiple of 4) in two passes of one compute pass; the result is the sync copy."""

    def __init__(self, raw: RawWgpu, x, n: int) -> None:
        if n % 4:
            raise ValueError("the vec4 sum needs a multiple of 4 float32 elements")
        self.raw = raw
        self.groups = max(1, min(SUM_MAX_GROUPS, math.ceil(n // 4 / WG)))
        self.partial = raw.empty(4 * self.groups)
        self.result = raw.empty(16)
        self.staging = raw.staging(16)
        self.g1 = raw._group(raw.sum1_pipe, [x, self.partial])
        self.g2 = raw._group(raw.sum2_pipe, [self.partial, self.result])
        self.value = float("nan")

    def run(self, sync: bool = True) -> None:
        """Both passes in one submit; with ``sync`` the result is copied to the small buffer that ``wait()`` maps
        (without, the result stays on the device and ``raw.synchronize()`` finishes the work)."""
        raw = self.raw
        enc = raw.device.create_command_encoder()
        cpass = enc.begin_compute_pass()
        cpass.set_pipeline(raw.sum1_pipe)
        cpass.set_bind_group(0, self.g1)
        cpass.dispatch_workgroups(self.groups, 1, 1)
        cpass.set_pipeline(raw.sum2_pipe)
        cpass.set_bind_group(0, self.g2)
        cpass.dispatch_workgroups(1, 1, 1)
        cpass.end()
        if sync:
            enc.copy_buffer_to_buffer(self.result, 0, self.staging, 0, 16)  # the small buffer we map to wait
        raw.queue.submit([enc.finish()])

    def wait(self) -> None:
        self.staging.map_sync(wgpu.MapMode.READ, 0, 16)
        self.value = float(np.frombuffer(self.staging.read_mapped(0, 4, copy=True), dtype=np.float32)[0])
        self.staging.unmap()

    def release(self) -> None:
        for b in (self.partial, self.result, self.staging):
            b.destroy()


def upload(raw: RawWgpu, buf: wgpu.GPUBuffer, x: np.ndarray) -> None:
    """Host -> device: ``queue.write_buffer`` then the sync submit (``raw.wait()`` finishes it)."""
    raw.queue.write_buffer(buf, 0, x)
    raw.submit_with_sync(raw.device.create_command_encoder())


def download(raw: RawWgpu, buf: wgpu.GPUBuffer, staging: wgpu.GPUBuffer, nbytes: int) -> np.ndarray:
    """Device -> host into a numpy array: copy to a mapped-read buffer (made once), map (waits), copy out."""
    enc = raw.device.create_command_encoder()
    enc.copy_buffer_to_buffer(buf, 0, staging, 0, nbytes)
    raw.queue.submit([enc.finish()])
    staging.map_sync(wgpu.MapMode.READ, 0, nbytes)
    try:
        return np.frombuffer(staging.read_mapped(0, nbytes, copy=True), dtype=np.float32)
    finally:
        staging.unmap()
