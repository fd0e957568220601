"""The one launch path (``wgarray/kernels/launch.py``): storage declarations and read-only flags come from one
binding list, the WGSL entry prologue unfolds exactly what ``launch.grid`` folds, and no module but the launch
helper records a dispatch."""
from __future__ import annotations

import pathlib
import re

import numpy as np
import pytest

import wgarray as wg
from wgarray.kernels import launch, layout

PKG = pathlib.Path(wg.__file__).parent
SHADERS = sorted((PKG / "shaders").glob("*.wgsl"))
# the device layer's subnormal probe sits below the kernels (it runs once per device, before any kernel, with an
# automatic layout): the one shader that declares its own storage buffer
OWN_DECLARATIONS = {"probe_subnormal.wgsl"}


@pytest.mark.parametrize("path", SHADERS, ids=lambda p: p.name)
def test_shaders_leave_declarations_and_entry_to_the_spec(path):
    text = path.read_text()
    if path.name in OWN_DECLARATIONS:
        return
    assert not re.search(r"var<(storage|uniform)", text), "bindings are declared by a launch.Kernel"
    assert not re.search(r"@compute|fn main|nwg", text), "the entry point and grid unfolding are launch.entry()'s"
    assert ("${ENTRY}" in text) == ("${BINDINGS}" in text), "a kernel template takes both, a fragment neither"


def test_only_the_launch_helper_records_dispatches():
    for path in sorted(PKG.rglob("*.py")):
        text = path.read_text()
        if path.name not in ("launch.py", "stream.py"):
            assert "stream.dispatch(" not in text, path
            assert ".grid(" not in text.replace("launch.grid(", ""), path
            assert "device.pipeline(" not in text, path


def test_declarations_and_readonly_flags_from_one_list():
    k = launch.Kernel("unique_counts.wgsl", (launch.read("starts", "array<u32>"), launch.write("counts", "array<i32>")))
    assert k.readonly == (True, False)
    decl = k.declarations().splitlines()
    assert decl == ["@group(0) @binding(0) var<storage, read> starts: array<u32>;",
                    "@group(0) @binding(1) var<storage, read_write> counts: array<i32>;",
                    launch.PARAMS_DECLARATION]
    src = k.source()
    assert decl[0] in src and launch.entry() in src
    with pytest.raises(ValueError):
        launch.Binding("x", "array<u32>", "write")


def test_read_binding_is_bound_read_only():
    dev = wg.default_device()
    a = wg.asarray(np.arange(7, dtype=np.float32), device=dev)
    c = a + a  # one input buffer (read) and the output (read_write)
    plans = [p for p in dev.plans.values() if getattr(p, "kernel", None) is not None]
    assert plans
    assert any(p.kernel[1] is dev._layouts[(True, False)] for p in plans)
    assert np.array_equal(c.numpy(), 2 * np.arange(7, dtype=np.float32))
    # a shader that stores into a binding its spec declares "read" does not compile: the WGSL says read too
    bad = launch.Kernel("unique_counts.wgsl", (launch.read("starts", "array<u32>"), launch.read("counts", "array<i32>")))
    with pytest.raises(Exception):  # noqa: B017 (wgpu's shader-compile error class differs across versions)
        launch.compile(dev, ("test_launch_bad",), lambda: bad)


def _counts(max_dim: int) -> list[int]:
    return sorted({max(1, max_dim * k + d) for k in range(1, 4) for d in (-2, -1, 0, 1, 2)} | {1, 2, max_dim // 2})


@pytest.mark.parametrize("max_dim", [7, 65535])
def test_grid_folding_is_a_bijection_the_prologue_undoes(max_dim):
    for n in _counts(max_dim):
        gx, gy, gz = launch.grid(n, max_dim)
        assert max(gx, gy, gz) <= max_dim and gz == 1
        assert n <= gx * gy < n + gx  # enough groups, less than one row of them spare
    assert "let group_index = wid.y * nwg.x + wid.x;" in launch.entry()


# one invocation a workgroup, counting per flat workgroup index how often it runs
_COUNT_WGSL = ("struct Params { count: u32 }\n${BINDINGS}\n${ENTRY}\n"
               "    if (thread_index < p.count) { atomicAdd(&counts[thread_index], 1u); }\n}\n")


def test_prologue_unfolds_the_device_grid(monkeypatch):
    """On the device: every flat workgroup index below the count runs exactly once, past 65535 workgroups too."""
    from wgarray.alloc.mirror import Mirror
    from wgarray.kernels import source
    dev = wg.default_device()
    max_dim = dev.properties.limits.max_compute_workgroups_per_dimension
    original = source.load
    monkeypatch.setattr(source, "load", lambda name: _COUNT_WGSL if name == "test_count.wgsl" else original(name))
    spec = launch.Kernel("test_count.wgsl", (launch.read("unused", "array<u32>"),
                                             launch.write("counts", "array<atomic<u32>>")), workgroup=1)
    kernel = launch.compile(dev, ("test_launch_count",), lambda: spec)
    for n in (max_dim - 1, max_dim, max_dim + 1, 2 * max_dim + 3):
        unused = Mirror(wg.uint32, 1, dev)
        counts = wg.zeros(n + 64, dtype=wg.uint32, device=dev)
        launch.dispatch(dev, kernel, [unused.buffer_for_write(whole=True), counts.mirror.buffer_for_write()],
                        layout.Params().u32(n).bytes(), workgroups=n)
        assert launch.grid_for(dev, workgroups=n)[1] == -(-n // max_dim)
        got = counts.numpy()
        assert np.all(got[:n] == 1) and np.all(got[n:] == 0), n


def test_threads_count_whole_workgroups_of_the_kernels_own_size(monkeypatch):
    """``dispatch(threads=n)`` launches ceil(n / size) workgroups of the kernel's declared size (not of 256)."""
    from wgarray.alloc.mirror import Mirror
    from wgarray.kernels import source
    dev = wg.default_device()
    original = source.load
    monkeypatch.setattr(source, "load", lambda name: _COUNT_WGSL if name == "test_count.wgsl" else original(name))
    for size in (1, 64, 256):
        spec = launch.Kernel("test_count.wgsl", (launch.read("unused", "array<u32>"),
                                                 launch.write("counts", "array<atomic<u32>>")), workgroup=size)
        kernel = launch.compile(dev, ("test_launch_threads", size), lambda: spec)
        assert kernel[2] == size
        n = 1000
        unused = Mirror(wg.uint32, 1, dev)
        counts = wg.zeros(n + 64, dtype=wg.uint32, device=dev)
        launch.dispatch(dev, kernel, [unused.buffer_for_write(whole=True), counts.mirror.buffer_for_write()],
                        layout.Params().u32(n + 64).bytes(), threads=n)
        got = counts.numpy()
        ran = -(-n // size) * size  # whole workgroups: every invocation counts its own index once
        assert np.all(got[:ran] == 1) and np.all(got[ran:] == 0), size


@pytest.mark.parametrize("count", [1, 3, 4, 5, 8, 12, 13])
def test_u32s_packs_as_params(count):
    # the drivers' one-step parameter block: the same bytes as Params().u32(...).bytes() (16-byte padded); a value
    # beyond 32 bits is pack's MemoryError, as through Params
    vals = list(range(7, 7 + count))
    assert layout.u32s(*vals) == layout.Params().u32(*vals).bytes()
    with pytest.raises(MemoryError, match="32 bits"):
        layout.u32s(*vals[:-1], 2**32)


def test_matmul_params_pack_as_params():
    # matmul's one-Struct parameter block: the bytes of the Params path (8 u32, then two groups of 4 i32), negative
    # strides included; beyond 32 bits, the MemoryError
    from wgarray.kernels import matmul

    class V:
        def __init__(self, offset):
            self.offset = offset
    args = (5, 6, 7, 2, V(3), V(4), 9, 10, -1, 2, 30, 4, -5, 6, 70, 8)
    ref = layout.Params().u32(*args[:4], 3, 4, *args[6:8])
    ref.raw(layout.pack("<4i", -1, 2, 30, 70), 4).raw(layout.pack("<4i", 4, -5, 6, 8), 4)
    assert matmul._params(*args) == ref.bytes()
    with pytest.raises(MemoryError, match="32 bits"):
        matmul._params(*args[:4], V(2**32), *args[5:])


def test_dispatch_work_is_the_bound_buffers_bytes():
    # the bind group cache's entry carries its buffers' bytes (the default work a dispatch adds, summed once)
    dev = wg.default_device()
    a, b = wg.arange(100, dtype=wg.float32), wg.arange(300, dtype=wg.float32)
    (a + b[:100]).numpy()
    entries = [e for e in dev.stream._groups.values() if any(x is a.mirror.buffer() for x in e[1][1:])]
    assert entries and all(e[2] == sum(x.size for x in e[1][1:] if hasattr(x, "size")) for e in entries)


def test_recording_is_per_thread():
    """``launch.recording`` collects only its own thread's dispatches: another thread's launch while it is open
    (another solve recording its first recipe, say) must not land in it, or a replayed recipe would be wrong."""
    import threading

    from wgarray.kernels import linalg_factor as K
    dev = wg.default_device()
    info = wg.asarray(np.array([1], np.uint32))
    mine, theirs = wg.zeros(4, dtype=wg.float32), wg.zeros(4, dtype=wg.float32)
    opened, done = threading.Event(), threading.Event()
    got: dict = {}

    def other():
        opened.wait(10)
        with launch.recording() as rec:  # the other thread's own recording sees its own launch only
            K.nanfill(dev, info, theirs, 4, 1)
        got["theirs"] = [b for step in rec for b in step[2]]
        K.nanfill(dev, info, theirs, 4, 1)  # and a launch outside any recording
        done.set()

    t = threading.Thread(target=other)
    t.start()
    with launch.recording() as rec:
        opened.set()
        assert done.wait(10)
        K.nanfill(dev, info, mine, 4, 1)
    t.join()
    bound = [b for step in rec for b in step[2]]
    assert len(rec) == 1 and mine.mirror.buffer() in bound and theirs.mirror.buffer() not in bound
    assert theirs.mirror.buffer() in got["theirs"] and mine.mirror.buffer() not in got["theirs"]
    assert np.isnan(mine.numpy()).all() and np.isnan(theirs.numpy()).all()
