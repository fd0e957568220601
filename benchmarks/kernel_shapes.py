"""Kernel-shape exploration for the bandwidth-bound work (``python -m benchmarks.kernel_shapes [--n LOG2]``).

Raw wgpu, no wgarray: ``c = a + b`` and ``x.sum()`` on 2^26 float32 with the kernel shapes one would try to close
the gap to CUDA (workgroup sizes 64-1024; 1, 2 or 4 vec4 a thread; grid-stride loops over 528-4224 workgroups; sums
with 2-8 loads in flight and workgroup-tree or subgroup reductions), each timed as 20 dispatches in one compute pass
(no submit in between) and one sync, best of 5; torch alongside when importable.  The README's Performance section
quotes its results on the H200; it is an experiment, not part of the suite.
"""
import argparse
import time

import numpy as np
import wgpu

from .rawwgpu import SUM_PASS2

BU = wgpu.BufferUsage
ad = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
feats = [f for f in ("subgroup",) if f in ad.features]
print("features", sorted(str(f) for f in ad.features))
dev = ad.request_device_sync(required_features=feats, required_limits={"max-storage-buffer-binding-size": ad.limits["max-storage-buffer-binding-size"], "max-buffer-size": ad.limits["max-buffer-size"], "max-compute-invocations-per-workgroup": 1024, "max-compute-workgroup-size-x": 1024})
ap = argparse.ArgumentParser()
ap.add_argument('--n', type=int, default=26, help='log2 of the element count')
N = 1 << ap.parse_args().n
h = np.random.default_rng(0).standard_normal(N).astype(np.float32)
def buf(data=None, n=N*4):
    if data is not None:
        return dev.create_buffer_with_data(data=data, usage=BU.STORAGE | BU.COPY_SRC | BU.COPY_DST)
    return dev.create_buffer(size=n, usage=BU.STORAGE | BU.COPY_SRC | BU.COPY_DST)
A, B, C = buf(h), buf(h), buf()
P = buf(n=1 << 20)
def pipe(code):
    m = dev.create_shader_module(code=code)
    return dev.create_compute_pipeline(layout="auto", compute={"module": m, "entry_point": "main"})
def group(p, bufs):
    return dev.create_bind_group(layout=p.get_bind_group_layout(0), entries=[{"binding": i, "resource": {"buffer": b, "offset": 0, "size": b.size}} for i, b in enumerate(bufs)])
sb = dev.create_buffer(size=16, usage=BU.MAP_READ | BU.COPY_DST)
def sync():
    e = dev.create_command_encoder(); e.copy_buffer_to_buffer(P, 0, sb, 0, 16); dev.queue.submit([e.finish()])
    sb.map_sync(wgpu.MapMode.READ); sb.unmap()
def timeit(steps, reps=20, samples=5):
    best = 1e9
    for s in range(samples + 1):
        sync(); t = time.perf_counter()
        e = dev.create_command_encoder(); cp = e.begin_compute_pass()
        for _ in range(reps):
            for p, g, grid in steps:
                cp.set_pipeline(p); cp.set_bind_group(0, g); cp.dispatch_workgroups(*grid)
        cp.end(); dev.queue.submit([e.finish()]); sync()
        dt = (time.perf_counter() - t) / reps
        if s: best = min(best, dt)
    return best
def fold(g):
    if g <= 65535: return (g, 1, 1)
    y = -(-g // 65535); return (-(-g // y), y, 1)
res = {}
# ---- add variants
for WG in (64, 128, 256, 512, 1024):
    for U in (1, 2, 4):
        loads = "\n".join(f"    {{ let i = base + {k}u * {WG}u + lid; if (i < n) {{ c[i] = a[i] + b[i]; }} }}" for k in range(U))
        code = f"""
@group(0) @binding(0) var<storage, read> a: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> c: array<vec4<f32>>;
@compute @workgroup_size({WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {{
    let n = arrayLength(&c);
    let base = (wid.y * nwg.x + wid.x) * {WG * U}u;
{loads}
}}"""
        p = pipe(code); g = group(p, [A, B, C])
        t = timeit([(p, g, fold(-(-N // 4 // (WG * U))))])
        res[f"add WG{WG} U{U}"] = 12 * N / t / 1e9
        print(f"add WG{WG:4d} U{U}: {12*N/t/1e9:7.1f} GB/s", flush=True)
# grid-stride add
for G in (132 * 4, 132 * 8, 132 * 16, 132 * 32):
    code = """
@group(0) @binding(0) var<storage, read> a: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> c: array<vec4<f32>>;
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let n = arrayLength(&c);
    for (var i = wid.x * 256u + lid; i < n; i = i + nwg.x * 256u) { c[i] = a[i] + b[i]; }
}"""
    p = pipe(code); g = group(p, [A, B, C])
    t = timeit([(p, g, (G, 1, 1))])
    print(f"add gridstride G{G}: {12*N/t/1e9:7.1f} GB/s", flush=True)
# ---- sum variants: pass1 (G groups, WG threads, U loads in flight) + pass2 (one group)
SUM2 = SUM_PASS2  # the suite's raw-wgpu second pass: one workgroup reduces the partials
OUT = buf(n=256)
for sg in ([False, True] if feats else [False]):
  for WG in (256, 512, 1024):
    for U in (2, 4, 8):
        for G in (528, 1056, 2112, 4224):
            if G * WG > (1 << 24): continue
            PART = buf(n=G * 4)
            loads = "\n".join(f"        let q{k} = x[i + {k}u * stride];" for k in range(U))
            accs = "\n".join(f"        a{k} = a{k} + ((q{k}.x + q{k}.y) + (q{k}.z + q{k}.w));" for k in range(U))
            tail_red = f"""    s[lid] = acc; workgroupBarrier();
    for (var k = {WG // 2}u; k > 0u; k = k >> 1u) {{ if (lid < k) {{ s[lid] = s[lid] + s[lid + k]; }} workgroupBarrier(); }}
    if (lid == 0u) {{ part[wid.x] = s[0]; }}"""
            if sg:
                tail_red = f"""    let r = subgroupAdd(acc);
    if (sid == 0u) {{ s[lid / ssz] = r; }}
    workgroupBarrier();
    if (lid == 0u) {{ var t = 0.0; for (var k = 0u; k < {WG}u / ssz; k = k + 1u) {{ t = t + s[k]; }} part[wid.x] = t; }}"""
            code = f"""

@group(0) @binding(0) var<storage, read> x: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> part: array<f32>;
var<workgroup> s: array<f32, {WG}>;
@compute @workgroup_size({WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32{', @builtin(subgroup_invocation_id) sid: u32, @builtin(subgroup_size) ssz: u32' if sg else ''}) {{
    let n = arrayLength(&x);
    let stride = nwg.x * {WG}u;
    {' '.join(f'var a{k} = 0.0;' for k in range(U))}
    var i = wid.x * {WG}u + lid;
    for (; i + {U - 1}u * stride < n; i = i + {U}u * stride) {{
{loads}
{accs}
    }}
    for (; i < n; i = i + stride) {{ let q = x[i]; a0 = a0 + ((q.x + q.y) + (q.z + q.w)); }}
    let acc = {' + '.join(f'a{k}' for k in range(U))};
{tail_red}
}}"""
            try:
                p1 = pipe(code)
            except Exception as e:
                print("compile fail", sg, e); break
            g1 = group(p1, [A, PART]); p2 = pipe(SUM2); g2 = group(p2, [PART, OUT])
            t = timeit([(p1, g1, (G, 1, 1)), (p2, g2, (1, 1, 1))])
            print(f"sum sg={int(sg)} WG{WG:4d} U{U} G{G:5d}: {4*N/t/1e9:7.1f} GB/s", flush=True)
try:
    import torch
    a = torch.randn(N, device="cuda"); b = torch.randn(N, device="cuda")
    for name, f, by in (("add", lambda: a + b, 12 * N), ("sum", lambda: a.sum(), 4 * N)):
        for _ in range(5): f()
        torch.cuda.synchronize(); best = 1e9
        for _s in range(5):
            t = time.perf_counter()
            for _ in range(20): f()
            torch.cuda.synchronize(); best = min(best, (time.perf_counter() - t) / 20)
        print(f"torch {name}: {by/best/1e9:7.1f} GB/s")
except ImportError:
    pass
