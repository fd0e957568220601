"""The work items.  Each is a function ``(ctx, sizes) -> list[Row]`` that runs every available peer on the same
work in the same run, checks each peer's answer once against numpy (untimed), and times it synchronised.

Peers: ``wgarray``; ``numpy`` (host); ``raw-wgpu`` (minimal hand-written WGSL on wgarray's wgpu device, see
``rawwgpu.py``); ``torch`` (CUDA only); ``cupy``.  A peer that is missing or fails is listed as skipped with the
reason; the others still run.

``add``, ``sum`` and ``matmul`` measure throughput: a sample is ``inner`` calls issued back to back and one
synchronisation, ``inner`` chosen per peer so that a sample takes at least ``Context.sample_s`` (see
``timing.measure_all``); their times are per call.  ``tiny`` and ``transfer`` time one synchronised call.
"""
from __future__ import annotations

import math
import sys
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

import wgarray as wg

from . import rawwgpu
from .peers import Peer
from .timing import Case, Timing, measure_all

MiB = 1 << 20


# -- results -------------------------------------------------------------------------------------------------------
@dataclass
class Row:
    """One work item at one size: every peer's timing (or why it was skipped)."""

    bench: str
    label: str
    size: Any  # n elements, matrix order, bytes: what the plots put on the x axis
    amount: float  # bytes moved (GB/s), flops (GFLOP/s) or operations (us/op) per call
    unit: str
    times: dict[str, Timing] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def value(self, peer: str, which: str = "median") -> float | None:
        """The peer's rate in ``unit`` (GB/s, GFLOP/s) or its microseconds per op."""
        t = self.times.get(peer)
        if t is None:
            return None
        s = t.median if which == "median" else t.best
        if self.unit == "us/op":
            return s / self.amount * 1e6
        return self.amount / s / 1e9

    def ratio(self, peer: str, base: str = "wgarray") -> float | None:
        """base time / peer time (median): > 1 means ``base`` is slower."""
        if base not in self.times or peer not in self.times:
            return None
        return self.times[base].median / self.times[peer].median

    def to_json(self) -> dict:
        return {"bench": self.bench, "label": self.label, "size": self.size, "amount": self.amount,
                "unit": self.unit,
                "peers": {k: {**t.to_json(), "value": self.value(k), "value_best": self.value(k, "best")}
                          for k, t in self.times.items()},
                "ratios_wgarray_over": {k: self.ratio(k) for k in self.times if k != "wgarray"},
                "skipped": self.skipped, "notes": self.notes, "extra": self.extra}


@dataclass
class Context:
    dev: Any  # wgarray.Device
    raw: rawwgpu.RawWgpu
    torch: Peer
    cupy: Peer
    repeat: int
    quick: bool
    budget_s: float
    log: Callable[[str], None]
    sample_s: float = 5e-3  # add/sum/matmul: back-to-back calls per sample until a sample takes this long
    max_inner: int = 1000  # ... but at most this many

    @property
    def cpu_adapter(self) -> bool:
        """A software adapter (lavapipe, SwiftShader, WARP)."""
        return self.dev.properties.adapter_type == "CPU"

    @property
    def binding_limit(self) -> int:
        return self.dev.properties.limits.max_storage_buffer_binding_size


def _why(e: BaseException) -> str:
    msg = str(e).splitlines()[0][:160] if str(e) else ""
    return f"{type(e).__name__}: {msg}"


def _measure_row(ctx: Context, row: Row, preparers: list[tuple[str, Callable[[], Case]]]) -> None:
    """Prepare each peer (data resident, answer checked; untimed), then time them all, interleaved (for an
    ``amortised`` benchmark a sample is ``inner`` back-to-back calls and one sync, ``inner`` chosen per peer).

    A peer that cannot be prepared or fails while timed (memory, limits, a broken install) is skipped with the
    reason; the others go on."""
    cases: list[Case] = []
    for name, prepare in preparers:
        ctx.log(f"  {row.bench} {row.label}: preparing {name}")
        try:
            case = prepare()
        except Exception as e:
            row.skipped[name] = _why(e)
            if not isinstance(e, (MemoryError, ValueError)):
                traceback.print_exc(file=sys.stderr)
            continue
        case.name = name
        cases.append(case)

    def failed(case: Case, e: BaseException) -> None:
        row.skipped[case.name] = _why(e)
        traceback.print_exc(file=sys.stderr)

    ctx.log(f"  {row.bench} {row.label}: timing {', '.join(c.name for c in cases)}")
    try:
        row.times.update(measure_all(cases, repeat=ctx.repeat, budget_s=ctx.budget_s, on_error=failed,
                                     target_s=ctx.sample_s if BENCHES[row.bench].amortised else None,
                                     max_inner=ctx.max_inner))
        for c in cases:
            if c.stats is not None and c.name in row.times and c.calls:
                row.extra.setdefault("counters_per_call", {})[c.name] = {
                    k: v / c.calls for k, v in vars(c.stats).items() if v}
    finally:
        for c in cases:
            if c.cleanup is not None:
                try:
                    c.cleanup()
                except Exception:
                    pass


def _skip_optional(row: Row, *peers: Peer) -> None:
    for p in peers:
        if not p.available:
            row.skipped[p.name] = p.reason


def _check(row: Row, name: str, got, ref, rtol: float, atol: float = 0.0) -> None:
    """Record a note when a peer's answer differs from numpy's (the peers must do the same work)."""
    got = np.asarray(got, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    if got.shape != ref.shape:
        row.notes.append(f"MISMATCH {name}: shape {got.shape} != {ref.shape}")
        return
    scale = float(np.max(np.abs(ref))) if ref.size else 0.0
    err = float(np.max(np.abs(got - ref))) if ref.size else 0.0
    if not err <= rtol * scale + atol:
        row.notes.append(f"MISMATCH {name}: max abs error {err:.3g} (scale {scale:.3g})")


def _wg_resident(dev, *arrays: np.ndarray):
    """wgarray copies of ``arrays`` whose device side is valid (uploaded before any timing)."""
    out = [wg.asarray(x, device=dev) for x in arrays]
    for a in out:
        a.mirror.buffer()
    dev.synchronize()
    return out


def _to_peer(peer: Peer, x: np.ndarray):
    if peer.name == "torch":
        return peer.module.from_numpy(x).cuda()
    return peer.module.asarray(x)


def _from_peer(peer: Peer, t) -> np.ndarray:
    if peer.name == "torch":
        return t.cpu().numpy()
    return peer.module.asnumpy(t)


def _device_peers(ctx: Context, row: Row, make: Callable[[Peer], Case]) -> list[tuple[str, Callable[[], Case]]]:
    """Preparers for torch and cupy when they are available (the row lists them as skipped otherwise)."""
    _skip_optional(row, ctx.torch, ctx.cupy)
    return [(p.name, lambda p=p: make(p)) for p in (ctx.torch, ctx.cupy) if p.available]


def _pow2_label(n: int) -> str:
    k = int(math.log2(n))
    return f"2^{k}" if 1 << k == n else str(n)


def _mib(nbytes: int) -> str:
    return f"{nbytes / MiB:g} MiB"


# -- 1. c = a + b ----------------------------------------------------------------------------------------------------
def bench_add(ctx: Context, sizes: list[int]) -> list[Row]:
    rows = []
    rng = np.random.default_rng(1)
    dev, raw = ctx.dev, ctx.raw
    for n in sizes:
        row = Row("add", f"{_pow2_label(n)} ({_mib(4 * n)})", n, 3 * 4 * n, "GB/s")
        rows.append(row)
        x = rng.random(n, dtype=np.float32)
        y = rng.random(n, dtype=np.float32)
        ref = x + y

        def wgarray_():
            a, b = _wg_resident(dev, x, y)
            _check(row, "wgarray", (a + b).numpy(), ref, 0)
            return Case("", lambda _: a + b, dev.synchronize, counters=dev)

        def raw_():
            bufs = [raw.upload(x), raw.upload(y), raw.empty(4 * n)]
            job = raw.add_job(*bufs)
            job.run()
            raw.wait()
            _check(row, "raw-wgpu", raw.read(bufs[2], 4 * n), ref, 0)
            return Case("", lambda _: job.run(sync=False), raw.synchronize,
                        cleanup=lambda: [b.destroy() for b in bufs])

        def device_peer(peer: Peer):
            a, b = _to_peer(peer, x), _to_peer(peer, y)
            peer.sync()
            _check(row, peer.name, _from_peer(peer, a + b), ref, 0)
            return Case("", lambda _: a + b, peer.sync)

        _measure_row(ctx, row, [("wgarray", wgarray_), ("numpy", lambda: Case("", lambda _: x + y)),
                                ("raw-wgpu", raw_)] + _device_peers(ctx, row, device_peer))
    return rows


# -- 2. x.sum() ------------------------------------------------------------------------------------------------------
def bench_sum(ctx: Context, sizes: list[int]) -> list[Row]:
    rows = []
    rng = np.random.default_rng(2)
    dev, raw = ctx.dev, ctx.raw
    for n in sizes:
        row = Row("sum", f"{_pow2_label(n)} ({_mib(4 * n)})", n, 4 * n, "GB/s")
        rows.append(row)
        x = rng.random(n, dtype=np.float32)
        ref = float(x.sum(dtype=np.float64))
        rtol = 1e-4

        def wgarray_():
            (a,) = _wg_resident(dev, x)
            _check(row, "wgarray", a.sum().item(), ref, rtol)
            return Case("", lambda _: a.sum(), dev.synchronize, counters=dev)

        def numpy_():
            _check(row, "numpy", x.sum(), ref, rtol)
            return Case("", lambda _: x.sum())

        def raw_():
            buf = raw.upload(x)
            job = raw.sum_job(buf, n)

            def cleanup():
                job.release()
                buf.destroy()
            job.run()
            job.wait()
            _check(row, "raw-wgpu", job.value, ref, rtol)
            return Case("", lambda _: job.run(sync=False), raw.synchronize, cleanup=cleanup)

        def device_peer(peer: Peer):
            t = _to_peer(peer, x)
            peer.sync()
            _check(row, peer.name, float(t.sum().item()), ref, rtol)
            return Case("", lambda _: t.sum(), peer.sync)

        _measure_row(ctx, row, [("wgarray", wgarray_), ("numpy", numpy_), ("raw-wgpu", raw_)]
                     + _device_peers(ctx, row, device_peer))
    return rows


# -- 3. a @ b --------------------------------------------------------------------------------------------------------
def bench_matmul(ctx: Context, sizes: list[int], batched: list[tuple[int, int]]) -> list[Row]:
    """Square float32 matmuls of order n, and ``batch`` x n^2 batched ones; torch runs with TF32 off."""
    rows = []
    rng = np.random.default_rng(3)
    dev = ctx.dev
    cases = [(1, n) for n in sizes] + list(batched)
    for batch, n in cases:
        label = f"{n}^2" if batch == 1 else f"{batch}x{n}^2"
        row = Row("matmul", label, n if batch == 1 else f"{batch}x{n}", 2.0 * batch * n ** 3, "GFLOP/s")
        rows.append(row)
        shape = (n, n) if batch == 1 else (batch, n, n)
        x = rng.standard_normal(shape, dtype=np.float32)
        y = rng.standard_normal(shape, dtype=np.float32)
        ref = x @ y  # numpy's answer (untimed), the reference for the others
        rtol = 1e-4 * math.sqrt(n)  # float32 accumulation over n products, relative to the largest entry

        def wgarray_():
            a, b = _wg_resident(dev, x, y)
            _check(row, "wgarray", (a @ b).numpy(), ref, rtol)
            return Case("", lambda _: a @ b, dev.synchronize, counters=dev)

        def device_peer(peer: Peer):
            a, b = _to_peer(peer, x), _to_peer(peer, y)
            peer.sync()
            _check(row, peer.name, _from_peer(peer, a @ b), ref, rtol)
            return Case("", lambda _: a @ b, peer.sync)

        _measure_row(ctx, row, [("wgarray", wgarray_), ("numpy", lambda: Case("", lambda _: x @ y))]
                     + _device_peers(ctx, row, device_peer))
    return rows


# -- 4. many tiny ops ------------------------------------------------------------------------------------------------
def bench_tiny(ctx: Context, count: int = 10_000, n: int = 1000) -> list[Row]:
    """``count`` times ``c = a + b`` on ``n`` float32 elements, one synchronisation at the end: per-op cost."""
    dev, raw = ctx.dev, ctx.raw
    row = Row("tiny", f"{count} x {n}", n, count, "us/op")
    rng = np.random.default_rng(4)
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)

    def loop_of(a, b):
        def loop(_):
            for _ in range(count):
                c = a + b  # noqa: F841
        return loop

    def wgarray_():
        a, b = _wg_resident(dev, x, y)
        return Case("", loop_of(a, b), dev.synchronize, counters=dev)

    def raw_(mode: str):
        if n % 4:
            raise ValueError("the vec4 kernel needs n % 4 == 0")
        bufs = [raw.upload(x), raw.upload(y), raw.empty(4 * n)]
        job = raw.add_job(*bufs)
        fn = job.loop_submit_each if mode == "each" else job.loop_one_pass
        return Case("", lambda _: fn(count), raw.wait, cleanup=lambda: [b.destroy() for b in bufs])

    def device_peer(peer: Peer):
        a, b = _to_peer(peer, x), _to_peer(peer, y)
        peer.sync()
        return Case("", loop_of(a, b), peer.sync)

    _measure_row(ctx, row, [("wgarray", wgarray_), ("numpy", lambda: Case("", loop_of(x, y))),
                            ("raw-wgpu submit/op", lambda: raw_("each")), ("raw-wgpu 1 pass", lambda: raw_("pass"))]
                 + _device_peers(ctx, row, device_peer))
    return [row]


# -- 5. host <-> device transfers ------------------------------------------------------------------------------------
def bench_transfer(ctx: Context, nbytes_list: list[int]) -> list[Row]:
    """Upload and download of float32 data from/to pageable numpy memory."""
    rows = []
    dev, raw = ctx.dev, ctx.raw
    rng = np.random.default_rng(5)
    for nbytes in nbytes_list:
        n = nbytes // 4
        x = rng.random(n, dtype=np.float32)
        up = Row("transfer", f"upload {_mib(nbytes)}", nbytes, nbytes, "GB/s", extra={"direction": "upload"})
        down = Row("transfer", f"download {_mib(nbytes)}", nbytes, nbytes, "GB/s", extra={"direction": "download"})
        rows += [up, down]

        # upload: host numpy -> a device buffer, finished on the device
        def wg_upload():
            def fn(_):
                a = wg.asarray(x, device=dev)  # copies into wgarray's host mirror
                a.mirror.buffer()  # host -> device
            return Case("", fn, dev.synchronize, counters=dev)

        def wg_push():  # the same without asarray's host copy: the push of an array built untimed
            return Case("", lambda a: a.mirror.buffer(), dev.synchronize, setup=lambda: wg.asarray(x, device=dev),
                        counters=dev)

        def raw_upload():
            buf = raw.empty(nbytes)
            return Case("", lambda _: rawwgpu.upload(raw, buf, x), raw.wait, cleanup=buf.destroy)

        def peer_upload(peer: Peer):
            return Case("", lambda _: _to_peer(peer, x), peer.sync)

        _measure_row(ctx, up, [("wgarray", wg_upload), ("wgarray push", wg_push), ("raw-wgpu", raw_upload)]
                     + _device_peers(ctx, up, peer_upload))

        # download: a device-only array -> a numpy array
        def wg_download():
            (src,) = _wg_resident(dev, x)

            def setup():  # a fresh device-only array each time (a kernel wrote it; its host side is stale)
                b = src + 0.0
                dev.synchronize()
                return b
            _check(down, "wgarray", setup().numpy(), x, 0)
            return Case("", lambda b: b.numpy(), setup=setup, counters=dev)

        def raw_download():
            buf = raw.upload(x)
            staging = raw.staging(nbytes)

            def cleanup():
                buf.destroy()
                staging.destroy()
            _check(down, "raw-wgpu", rawwgpu.download(raw, buf, staging, nbytes), x, 0)
            return Case("", lambda _: rawwgpu.download(raw, buf, staging, nbytes), cleanup=cleanup)

        def peer_download(peer: Peer):
            t = _to_peer(peer, x)
            peer.sync()
            _check(down, peer.name, _from_peer(peer, t), x, 0)
            return Case("", lambda _: _from_peer(peer, t), peer.sync)

        _measure_row(ctx, down, [("wgarray", wg_download), ("raw-wgpu", raw_download)]
                     + _device_peers(ctx, down, peer_download))
    return rows


# -- sort / argsort -------------------------------------------------------------------------------------------------
def bench_sort(ctx: Context, sizes: list[int], rows_shape: tuple[int, int] | None) -> list[Row]:
    """wg.sort / wg.argsort of float32 (1-D, and the last axis of a rows x cols matrix) against numpy's stable
    sort, torch.sort, cupy.sort; 'a+b' is wgarray's own a + b on as many elements, in the same run (the issue's
    target is a ratio to it)."""
    out = []
    rng = np.random.default_rng(5)
    dev = ctx.dev
    shapes = [(n,) for n in sizes] + ([rows_shape] if rows_shape else [])
    for shape in shapes:
        n = math.prod(shape)
        x = rng.standard_normal(shape).astype(np.float32)
        y = rng.standard_normal(shape).astype(np.float32)
        label = _pow2_label(n) if len(shape) == 1 else f"{shape[0]}x{shape[1]} rows"
        for op in ("sort", "argsort"):
            row = Row("sort", f"{op} {label}", n, n, "Gelem/s")
            out.append(row)
            ref = np.sort(x, axis=-1, kind="stable") if op == "sort" else np.argsort(x, axis=-1, kind="stable")
            fn = getattr(wg, op)

            def wgarray_(fn=fn, ref=ref, row=row):
                (a,) = _wg_resident(dev, x)
                _check(row, "wgarray", fn(a).numpy(), ref, 0)
                return Case("", lambda _: fn(a), dev.synchronize, counters=dev)

            def add_():
                a, b = _wg_resident(dev, x, y)
                return Case("", lambda _: a + b, dev.synchronize)

            def numpy_(op=op):
                f = np.sort if op == "sort" else np.argsort
                return Case("", lambda _: f(x, axis=-1, kind="stable"))

            def device_peer(peer: Peer, op=op, ref=ref, row=row):
                a = _to_peer(peer, x)
                if peer.name == "torch":
                    f = (lambda: peer.module.sort(a, dim=-1, stable=True).values) if op == "sort" else \
                        (lambda: peer.module.argsort(a, dim=-1, stable=True))
                else:
                    f = (lambda: peer.module.sort(a, axis=-1)) if op == "sort" else \
                        (lambda: peer.module.argsort(a, axis=-1))
                peer.sync()
                _check(row, peer.name, _from_peer(peer, f()), ref, 0)
                return Case("", lambda _: f(), peer.sync)

            _measure_row(ctx, row, [("wgarray", wgarray_), ("a+b", add_), ("numpy", numpy_)]
                         + _device_peers(ctx, row, device_peer))
    return out


# -- 6. spectral linalg ----------------------------------------------------------------------------------------------
_SPECTRAL = {  # op -> (the call for wgarray, numpy and cupy; the call for torch)
    "qr": (lambda xp, a: xp.linalg.qr(a), lambda t, a: t.linalg.qr(a)),
    "svd": (lambda xp, a: xp.linalg.svd(a), lambda t, a: t.linalg.svd(a)),
    "eigh": (lambda xp, a: xp.linalg.eigh(a), lambda t, a: t.linalg.eigh(a)),
}


def _spectral_check(op: str, res) -> Any:
    """The part of a result that is unique (up to rounding): |diag R|, S, the eigenvalues."""
    if op == "qr":
        return res[1]
    return res[1] if op == "svd" else res[0]


def bench_linalg_spectral(ctx: Context, cases: list[tuple[str, int, int]]) -> list[Row]:
    """float32 qr / svd / eigh of ``batch`` matrices of order n (eigh: symmetric), one synchronised call each."""
    rows = []
    rng = np.random.default_rng(6)
    dev = ctx.dev
    for op, batch, n in cases:
        label = f"{op} {n}^2" if batch == 1 else f"{op} {batch}x{n}^2"
        row = Row("linalg_spectral", label, n if batch == 1 else f"{batch}x{n}", batch, "us/op")
        rows.append(row)
        shape = (n, n) if batch == 1 else (batch, n, n)
        x = rng.standard_normal(shape, dtype=np.float32)
        if op == "eigh":
            x = (x + np.swapaxes(x, -1, -2)) / 2
        call, tcall = _SPECTRAL[op]

        def unique(res) -> np.ndarray:
            v = _spectral_check(op, res)
            v = v.numpy() if isinstance(v, wg.Array) else np.asarray(v)
            return np.abs(np.diagonal(v, axis1=-2, axis2=-1)) if op == "qr" else v

        ref = unique(call(np, x.astype(np.float64)))
        atol = 1e-5 * n * float(np.abs(ref).max(initial=1))

        def wgarray_():
            (a,) = _wg_resident(dev, x)
            _check(row, "wgarray", unique(call(wg, a)), ref, 0.0, atol)
            return Case("", lambda _: call(wg, a), dev.synchronize, counters=dev)

        def device_peer(peer: Peer):
            a = _to_peer(peer, x)
            f = (lambda: tcall(peer.module, a)) if peer.name == "torch" else (lambda: call(peer.module, a))
            res = f()
            peer.sync()
            got = _from_peer(peer, _spectral_check(op, res))
            _check(row, peer.name, np.abs(np.diagonal(got, axis1=-2, axis2=-1)) if op == "qr" else got, ref,
                   0.0, atol)
            return Case("", lambda _: f(), peer.sync)

        _measure_row(ctx, row, [("wgarray", wgarray_), ("numpy", lambda: Case("", lambda _: call(np, x)))]
                     + _device_peers(ctx, row, device_peer))
    return rows


def _parts(a) -> np.ndarray:
    """A complex result as its interleaved real parts (``_check`` compares reals)."""
    a = np.ascontiguousarray(a)
    return a.view(a.real.dtype) if np.iscomplexobj(a) else a


def bench_fft(ctx: Context, sizes_1d: list[int], sizes_2d: list[int], rfft_sizes: list[int]) -> list[Row]:
    """wg.fft.fft (1-D complex64), wg.fft.fftn (2-D complex64 squares) and wg.fft.rfft (float32) against
    numpy.fft (pocketfft, float32), torch.fft (cuFFT) and cupy.fft; the rate counts 5 n log2 n flops per
    complex transform (2.5 n log2 n for rfft), the FFT convention (GFLOP/s)."""
    out = []
    rng = np.random.default_rng(7)
    dev = ctx.dev
    cases = ([("fft", (n,)) for n in sizes_1d] + [("fft2", (n, n)) for n in sizes_2d]
             + [("rfft", (n,)) for n in rfft_sizes])
    for op, shape in cases:
        n = math.prod(shape)
        if op == "rfft":
            x = rng.standard_normal(shape).astype(np.float32)
            flops = 2.5 * n * math.log2(n)
        else:
            x = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)
            flops = 5.0 * n * math.log2(n)
        label = f"{op} {_pow2_label(n)}" if len(shape) == 1 else f"{op} {shape[0]}x{shape[1]}"
        row = Row("fft", label, n, flops, "GFLOP/s")
        out.append(row)
        npf = {"fft": np.fft.fft, "fft2": np.fft.fft2, "rfft": np.fft.rfft}[op]
        ref = npf(x)
        wgf = {"fft": wg.fft.fft, "fft2": wg.fft.fftn, "rfft": wg.fft.rfft}[op]
        tol = 1e-5

        def wgarray_(wgf=wgf, ref=ref, row=row, x=x):
            (a,) = _wg_resident(dev, x)
            _check(row, "wgarray", _parts(wgf(a).numpy()), _parts(ref), tol)
            return Case("", lambda _: wgf(a), dev.synchronize, counters=dev)

        def numpy_(npf=npf, x=x):
            return Case("", lambda _: npf(x))

        def device_peer(peer: Peer, op=op, ref=ref, row=row, x=x):
            a = _to_peer(peer, x)
            f = {"fft": peer.module.fft.fft, "fft2": peer.module.fft.fft2, "rfft": peer.module.fft.rfft}[op]
            peer.sync()
            _check(row, peer.name, _parts(_from_peer(peer, f(a))), _parts(ref), tol)
            return Case("", lambda _: f(a), peer.sync)

        _measure_row(ctx, row, [("wgarray", wgarray_), ("numpy", numpy_)] + _device_peers(ctx, row, device_peer))
    return out


# -- the registry ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Bench:
    name: str
    work: str  # what one timed call does, and what the rate counts
    ratio_peers: tuple[str, ...]  # ratio columns: wgarray time / these peers' times
    amortised: bool = False  # a sample is `inner` back-to-back calls and one sync; times are per call


# -- random: standard_normal and random() float32 -------------------------------------------------------------------
def bench_random(ctx: Context, sizes: list[int]) -> list[Row]:
    """standard_normal and random() (uniform) float32 of n elements (Philox4x32-10, Box-Muller on the device)
    against wgarray's own a + b on n float32 elements (the same-run baseline: the draw writes 4n bytes, a + b moves
    12n), numpy's default_rng (PCG64 on the host), torch.randn / torch.rand and cupy's default generator; rate
    counts 4n bytes written.  The answers differ by design (other generators): checked for mean and variance."""
    rows = []
    dev = ctx.dev
    rng = np.random.default_rng(9)
    for n in sizes:
        x = rng.random(n, dtype=np.float32)
        for op in ("standard_normal", "random"):
            row = Row("random", f"{op} {_pow2_label(n)} ({_mib(4 * n)})", n, 4 * n, "GB/s")
            rows.append(row)
            mean, var = (0.0, 1.0) if op == "standard_normal" else (0.5, 1 / 12)

            def moments(name: str, z, row=row, mean=mean, var=var) -> None:
                z = np.asarray(z, dtype=np.float64)
                if abs(z.mean() - mean) > 5 * math.sqrt(var / n) or abs(z.var() / var - 1) > 10 / math.sqrt(n):
                    row.notes.append(f"MISMATCH {name}: mean {z.mean():.3g}, variance {z.var():.4g}")

            def wgarray_(op=op, moments=moments):
                g = wg.random.default_rng(0)
                f = getattr(g, op)
                moments("wgarray", f(n, dtype=wg.float32, device=dev).numpy())
                return Case("", lambda _: f(n, dtype=wg.float32, device=dev), dev.synchronize, counters=dev)

            def add_():
                a, b = _wg_resident(dev, x, x)
                return Case("", lambda _: a + b, dev.synchronize)

            def numpy_(op=op, moments=moments):
                f = getattr(np.random.default_rng(0), op)
                moments("numpy", f(n, dtype=np.float32))
                return Case("", lambda _: f(n, dtype=np.float32))

            def device_peer(peer: Peer, op=op, moments=moments):
                if peer.name == "torch":
                    t = peer.module
                    tf = t.randn if op == "standard_normal" else t.rand
                    fn = lambda _: tf(n, dtype=t.float32, device="cuda")  # noqa: E731
                else:
                    gf = getattr(peer.module.random.default_rng(0), op)
                    fn = lambda _: gf(n, dtype=peer.module.float32)  # noqa: E731
                moments(peer.name, _from_peer(peer, fn(None)))
                return Case("", fn, peer.sync)

            _measure_row(ctx, row, [("wgarray", wgarray_), ("a+b", add_), ("numpy", numpy_)]
                         + _device_peers(ctx, row, device_peer))
    return rows


BENCHES = {
    "add": Bench("add", "c = a + b, float32, 1-D contiguous, n elements; rate counts 3*4*n bytes moved (GB/s)",
                 ("numpy", "raw-wgpu", "torch", "cupy"), amortised=True),
    "sum": Bench("sum", "s = x.sum(), float32, n elements (result left on the device); rate counts 4*n bytes "
                 "read (GB/s)", ("numpy", "raw-wgpu", "torch", "cupy"), amortised=True),
    "matmul": Bench("matmul", "c = a @ b, float32 square matrices (and batched); rate counts 2*M*N*K flops "
                    "(GFLOP/s); torch with TF32 off", ("numpy", "torch", "cupy"), amortised=True),
    "tiny": Bench("tiny", "a loop of c = a + b on small float32 vectors, one synchronisation at the end; "
                  "time per op (us/op)", ("numpy", "raw-wgpu submit/op", "raw-wgpu 1 pass", "torch", "cupy")),
    "transfer": Bench("transfer", "upload: pageable numpy float32 -> device (wgarray: asarray + push + sync; "
                      "'wgarray push': the push + sync alone); download: device-only array -> numpy (GB/s)",
                      ("raw-wgpu", "torch", "cupy")),
    "sort": Bench("sort", "wg.sort / wg.argsort, float32 (1-D, or the last axis of rows); rate counts elements "
                  "(Gelem/s); 'a+b' is wgarray's a + b on as many elements (wg/a+b: the issue's ratio)",
                  ("a+b", "numpy", "torch", "cupy"), amortised=True),
    "linalg_spectral": Bench("linalg_spectral", "float32 qr (reduced), svd (full_matrices), eigh (symmetric) of "
                             "one matrix or a batch, one synchronised call; time per matrix (us/op)",
                             ("numpy", "torch", "cupy")),
    "linalg": Bench("linalg", "cholesky / solve (16 right-hand sides) / inv of float32 n x n matrices and stacks of "
                    "small ones, one synchronised call; rate counts n^3/3, 2n^3/3 + 32n^2, 2n^3 flops a matrix "
                    "(GFLOP/s)", ("numpy", "torch", "cupy")),
    "fft": Bench("fft", "wg.fft.fft (1-D complex64), wg.fft.fftn (2-D complex64), wg.fft.rfft (float32); rate "
                 "counts 5 n log2 n flops (2.5 n log2 n for rfft), GFLOP/s", ("numpy", "torch", "cupy")),
    "random": Bench("random", "z = rng.standard_normal(n, dtype=float32) and rng.random(n, dtype=float32) "
                    "(wgarray: Philox4x32-10 + Box-Muller on the device; numpy: default_rng on the host; torch: "
                    "randn / rand); 'a+b' is wgarray's a + b on n float32 elements (wg/a+b: the same-run baseline); "
                    "rate counts 4*n bytes written (GB/s)", ("a+b", "numpy", "torch", "cupy"), amortised=True),
    "fusion": Bench("fusion", "a chain of k float32 elementwise ops on n elements, wg.fuse'd (one dispatch) vs the "
                    "same ops unfused; rate counts 2*4*n bytes (one read, one write)",
                    ("unfused", "numpy", "torch", "cupy"), amortised=True),
}
