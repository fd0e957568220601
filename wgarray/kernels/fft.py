"""FFT kernels: batched 1-D complex transforms over contiguous rows of GPU buffers, in WGSL.

* Lengths whose prime factors are 2, 3, 5 and 7 run as Stockham autosort passes (radix 8, 4, 2, 7, 5, 3; no
  bit-reversal step).  A row that fits twice into workgroup memory (ping-pong) is transformed by one workgroup in
  one dispatch (``fft_local.wgsl``: load once, all passes, store once); longer rows take one global-memory pass a
  radix (``fft_pass.wgsl``), ping-ponging between buffers.
* Other lengths use Bluestein's algorithm (``fft_chirp.wgsl``): a cyclic convolution of power-of-two length
  through the transforms above; the chirp's spectrum is computed once per (device, length, dtype, direction).
* Real transforms (``fft_real.wgsl``): an even-length real row is a complex row of half the length (the same
  bytes), transformed and then untangled by a twiddle kernel (rfft), or tangled first and inverse transformed
  (irfft).
* Twiddle tables (``fft_twiddle.wgsl``) are computed on the device from exact integer angles with the project's
  software sin/cos and cached per (device, length, dtype).

Buffers here are raw GPU buffers of ``vec2<f32|f64>`` rows; the caller (``ops/fft.py``) owns layout, dtypes and
norms.  ``transform`` may overwrite its source buffer (it is always the caller's scratch copy).
"""
from __future__ import annotations

import weakref
from collections import OrderedDict
from struct import pack

from ..alloc.mirror import Mirror
from ..dtypes import DType
from . import launch, layout, source

RADICES = (8, 4, 2, 7, 5, 3)  # the order factors are taken in: big radices first (fewer passes)
_PIO2 = {"f32": ("1.5707963705062866", "-4.371138828673793e-08"),
         "f64": ("1.5707963267948966", "6.123233995736766e-17")}
_SQRT_HALF = "0.7071067811865476"  # the correctly rounded sqrt(1/2) of each precision (its literal rounds so)
_CACHE_ENTRIES = 64


# -- plans ---------------------------------------------------------------------------------------------------------
def factors(n: int) -> list[int] | None:
    """The radices of a Stockham plan for length n (their product is n), or None when n has a prime factor
    above 7 (Bluestein's algorithm then)."""
    out: list[int] = []
    for r in RADICES:
        while n % r == 0:
            out.append(r)
            n //= r
    return out if n == 1 else None


def bluestein_length(n: int) -> int:
    """The power-of-two convolution length of Bluestein's algorithm for length n."""
    return 1 << (2 * n - 2).bit_length()


def local_capacity(device, itemsize: int) -> int:
    """The longest row one workgroup transforms in workgroup memory (two ping-pong copies of the row)."""
    return device.properties.limits.max_compute_workgroup_storage_size // (2 * itemsize)


def _local_workgroup(device, n: int, plan: list[int]) -> int:
    most = min(256, device.properties.limits.max_compute_invocations_per_workgroup)
    want = n // min(plan) if plan else 1
    wg = 32
    while wg < want and wg < most:
        wg *= 2
    return min(wg, most)


# -- device caches (twiddle tables, Bluestein spectra) -------------------------------------------------------------
_caches: "weakref.WeakKeyDictionary[object, OrderedDict]" = weakref.WeakKeyDictionary()


def _cached(device, key: tuple, make):
    cache = _caches.setdefault(device, OrderedDict())
    hit = cache.get(key)
    if hit is not None:
        cache.move_to_end(key)
        return hit
    value = make()
    cache[key] = value
    while len(cache) > _CACHE_ENTRIES:
        cache.popitem(last=False)
    return value


class _Scratch:
    """A temporary device buffer; the mirror is held as long as the buffer is in use (a dropped mirror returns
    its block to the pool, and the next scratch would get the same buffer)."""

    def __init__(self, device, cdtype: DType, count: int) -> None:
        self.mirror = Mirror(cdtype, max(count, 1), device)
        self.buffer = self.mirror.buffer_for_write(whole=True)


def _scratch(device, cdtype: DType, count: int):
    return _Scratch(device, cdtype, count)


def twiddles(device, cdtype: DType, n: int) -> Mirror:
    """exp(-2 pi i k / n) for k < n, computed on the device (cached)."""
    return _cached(device, ("twiddle", cdtype.name, n), lambda: _table(device, cdtype, n, n, 0))


def _table(device, cdtype: DType, count: int, L: int, mode: int) -> Mirror:
    if L >= 1 << 30:
        raise MemoryError(f"FFT length {L} is beyond the twiddle kernel's exact angle range (2^30)")
    t = cdtype.component.wgsl
    out = Mirror(cdtype, max(count, 1), device)
    kernel = launch.compile(device, ("fft_twiddle", t), lambda: launch.Kernel(
        "fft_twiddle.wgsl", (launch.write("out", f"array<vec2<{t}>>"),),
        dict(HELPERS=source.helpers([cdtype.component]), T=t, PIO2_HI=_PIO2[t][0], PIO2_LO=_PIO2[t][1])))
    params = layout.Params().u32(count, L, mode, 1)
    launch.dispatch(device, kernel, [out.buffer_for_write(whole=True)], params.bytes(), threads=count)
    return out


def _scaled(params: layout.Params, t: str, scale: float) -> bytes:
    return params.raw(pack("<d", scale) if t == "f64" else pack("<f", scale), 8 if t == "f64" else 4).bytes()


# -- butterflies (generated WGSL over named values: no arrays of hot values) ------------------------------------------
def _times_i(t: str, e: str, inverse: bool) -> str:
    """e times the quarter root of unity -i (forward) or +i (inverse)."""
    return f"vec2<{t}>(-({e}).y, ({e}).x)" if inverse else f"vec2<{t}>(({e}).y, -({e}).x)"


def _dft4(t: str, a: list[str], out: str, inverse: bool) -> list[str]:
    return [f"let {out}s0 = {a[0]} + {a[2]};", f"let {out}s1 = {a[0]} - {a[2]};",
            f"let {out}s2 = {a[1]} + {a[3]};", f"let {out}s3 = {_times_i(t, f'{a[1]} - {a[3]}', inverse)};",
            f"let {out}0 = {out}s0 + {out}s2;", f"let {out}1 = {out}s1 + {out}s3;",
            f"let {out}2 = {out}s0 - {out}s2;", f"let {out}3 = {out}s1 - {out}s3;"]


def butterfly(R: int, t: str, inverse: bool, n_expr: str) -> list[str]:
    """WGSL statements turning v0..v(R-1) into their R-point DFT u0..u(R-1).  Radix 2, 4, 8: the split
    formulas (the eighth roots as sqrt(1/2) literals); 3, 5, 7: the direct sum over the R-th roots of unity
    read from the row's twiddle table (``n_expr`` is the row length, a multiple of R)."""
    v = [f"v{r}" for r in range(R)]
    if R == 2:
        return ["let u0 = v0 + v1;", "let u1 = v0 - v1;"]
    if R == 4:
        return _dft4(t, v, "u", inverse)
    if R == 8:
        s = f"{t}({_SQRT_HALF})"
        lines = _dft4(t, v[0::2], "e", inverse) + _dft4(t, v[1::2], "o", inverse)
        # o_k times the eighth roots w8^k: w8 = (s, -s) forward, (s, s) inverse
        lines.append(f"let p1 = vec2<{t}>({s} * (o1.x + o1.y), {s} * (o1.y - o1.x));" if not inverse else
                     f"let p1 = vec2<{t}>({s} * (o1.x - o1.y), {s} * (o1.y + o1.x));")
        lines.append(f"let p2 = {_times_i(t, 'o2', inverse)};")
        lines.append(f"let p3 = vec2<{t}>({s} * (o3.y - o3.x), -{s} * (o3.x + o3.y));" if not inverse else
                     f"let p3 = vec2<{t}>(-{s} * (o3.x + o3.y), {s} * (o3.x - o3.y));")
        lines += ["let p0 = o0;"]
        lines += [f"let u{k} = e{k} + p{k};" for k in range(4)] + [f"let u{k + 4} = e{k} - p{k};" for k in range(4)]
        return lines
    lines = [f"let w{q} = tw({q}u * ({n_expr} / {R}u));" for q in range(1, R)]
    lines.append("let u0 = " + " + ".join(v) + ";")
    for k in range(1, R):
        terms = ["v0"] + [f"cmul(v{r}, w{(r * k) % R})" for r in range(1, R)]
        lines.append(f"let u{k} = " + " + ".join(terms) + ";")
    return lines


def _common(t: str, inverse: bool | None = None) -> dict[str, str]:
    """The shared WGSL pieces: cmul, and the table lookup tw() for kernels that bind a twiddle table."""
    out = {"COMMON": source.render("fft_common.wgsl", T=t)}
    if inverse is not None:
        out["TABLE"] = source.render("fft_table.wgsl", T=t, SIGN="-" if inverse else "")
    return out


def _indent(lines: list[str], depth: int) -> str:
    return "\n".join("    " * depth + ln for ln in lines)


# -- the complex transform ----------------------------------------------------------------------------------------
def transform(device, cdtype: DType, src, dst, rows: int, n: int, inverse: bool, scale: float) -> None:
    """dst[row] = scale * DFT_n(src[row]) (the inverse DFT, unnormalised, when ``inverse``) for ``rows``
    contiguous rows of ``vec2`` elements; ``src`` may be overwritten."""
    if rows == 0:
        return
    plan = factors(n)
    if plan is None:
        _bluestein(device, cdtype, src, dst, rows, n, inverse, scale)
    elif n <= local_capacity(device, cdtype.device_itemsize):
        _local(device, cdtype, src, dst, rows, n, plan, inverse, scale)
    else:
        _global(device, cdtype, src, dst, rows, n, plan, inverse, scale)


def _local(device, cdtype, src, dst, rows, n, plan, inverse, scale) -> None:
    t = cdtype.component.wgsl
    wg = _local_workgroup(device, n, plan)
    kernel = launch.compile(device, ("fft_local", t, n, inverse, wg),
                            lambda: _build_local(cdtype, n, plan, inverse, wg))
    table = twiddles(device, cdtype, n).buffer()
    params = layout.Params().u32(rows, n, 0, 0)
    launch.dispatch(device, kernel, [src, dst, table], _scaled(params, t, scale), workgroups=rows)


def _build_local(cdtype, n, plan, inverse, wg) -> launch.Kernel:
    t = cdtype.component.wgsl
    passes, ns, bufs = [], 1, ("bufA", "bufB")
    for i, R in enumerate(plan):
        src, dst = bufs[i % 2], bufs[(i + 1) % 2]
        m = n // R
        body = [f"var v{r} = {src}[j + {r * m}u];" for r in range(R)]
        if ns > 1:
            body += [f"v{r} = cmul(v{r}, tw(k * {r * (n // (ns * R))}u));" for r in range(1, R)]
        body += butterfly(R, t, inverse, f"{n}u")
        body += [f"{dst}[o + {r * ns}u] = u{r};" for r in range(R)]
        passes.append(f"    for (var j = lid; j < {m}u; j = j + {wg}u) {{\n"
                      f"        let k = j % {ns}u;\n        let o = (j - k) * {R}u + k;\n"
                      + _indent(body, 2) + "\n    }\n    workgroupBarrier();")
        ns *= R
    last = bufs[len(plan) % 2]
    bind = (launch.read("src", f"array<vec2<{t}>>"), launch.write("dst", f"array<vec2<{t}>>"),
            launch.read("table", f"array<vec2<{t}>>"))
    return launch.Kernel("fft_local.wgsl", bind, dict(
        T=t, N=n, PLAN=", ".join(map(str, plan)) or "none", PASSES="\n".join(passes), LAST=last,
        **_common(t, inverse)), workgroup=wg)


def _global(device, cdtype, src, dst, rows, n, plan, inverse, scale) -> None:
    t = cdtype.component.wgsl
    table = twiddles(device, cdtype, n).buffer()
    scratch = _scratch(device, cdtype, rows * n) if len(plan) > 1 else None
    tmp = scratch.buffer if scratch is not None else None
    # write targets, from the last pass back: dst, tmp, dst, ... (a pass never reads the buffer it writes)
    targets = [dst if (len(plan) - 1 - i) % 2 == 0 else tmp for i in range(len(plan))]
    cur, ns = src, 1
    for i, R in enumerate(plan):
        kernel = launch.compile(device, ("fft_pass", t, R, inverse), lambda R=R: _build_pass(cdtype, R, inverse))
        params = layout.Params().u32(rows, n, ns, n // (ns * R))
        s = scale if i == len(plan) - 1 else 1.0
        launch.dispatch(device, kernel, [cur, targets[i], table], _scaled(params, t, s), threads=rows * (n // R))
        cur, ns = targets[i], ns * R


def _build_pass(cdtype, R, inverse) -> launch.Kernel:
    t = cdtype.component.wgsl
    loads = [f"var v{r} = src[base + j + {r}u * m];" for r in range(R)]
    tws = [f"v{r} = cmul(v{r}, tw(k * {r}u * p.tstride));" for r in range(1, R)]
    stores = [f"dst[o + {r}u * p.ns] = u{r} * p.scale;" for r in range(R)]
    bind = (launch.read("src", f"array<vec2<{t}>>"), launch.write("dst", f"array<vec2<{t}>>"),
            launch.read("table", f"array<vec2<{t}>>"))
    kind = "split formulas" if R in (2, 4, 8) else "direct sum over the table's roots"
    return launch.Kernel("fft_pass.wgsl", bind, dict(
        T=t, R=R, BUTTERFLY_KIND=kind, **_common(t, inverse), LOADS=_indent(loads, 1),
        TWIDDLES=_indent(tws, 2), BUTTERFLY=_indent(butterfly(R, t, inverse, "p.n"), 1),
        STORES=_indent(stores, 1)))


# -- Bluestein ------------------------------------------------------------------------------------------------------
def _chirp_kernel(device, cdtype: DType, mode: str, inverse: bool):
    t = cdtype.component.wgsl
    bind = (launch.read("src", f"array<vec2<{t}>>"), launch.read("aux", f"array<vec2<{t}>>"),
            launch.write("dst", f"array<vec2<{t}>>"))
    return launch.compile(device, ("fft_chirp", t, mode, inverse), lambda: launch.Kernel(
        "fft_chirp.wgsl", bind, dict(T=t, MODE=mode, SIGN="-" if inverse else "", **_common(t))))


def _chirp_params(t: str, rows: int, n: int, M: int, scale: float) -> bytes:
    return _scaled(layout.Params().u32(rows, n, M, 0), t, scale)


def _bluestein(device, cdtype, src, dst, rows, n, inverse, scale) -> None:
    t = cdtype.component.wgsl
    M = bluestein_length(n)
    chirp = _cached(device, ("chirp", cdtype.name, n), lambda: _table(device, cdtype, n, 2 * n, 1)).buffer()
    spectrum = _cached(device, ("bluestein", cdtype.name, n, inverse),
                       lambda: _chirp_spectrum(device, cdtype, chirp, n, M, inverse)).buffer()
    a_s, A_s = _scratch(device, cdtype, rows * M), _scratch(device, cdtype, rows * M)
    a, A = a_s.buffer, A_s.buffer
    launch.dispatch(device, _chirp_kernel(device, cdtype, "pre", inverse), [src, chirp, a],
                    _chirp_params(t, rows, n, M, 1.0), threads=rows * M)
    transform(device, cdtype, a, A, rows, M, False, 1.0)
    launch.dispatch(device, _chirp_kernel(device, cdtype, "mul", inverse), [A, spectrum, a],
                    _chirp_params(t, rows, n, M, 1.0), threads=rows * M)
    transform(device, cdtype, a, A, rows, M, True, 1.0)
    launch.dispatch(device, _chirp_kernel(device, cdtype, "post", inverse), [A, chirp, dst],
                    _chirp_params(t, rows, n, M, scale / M), threads=rows * n)


def _chirp_spectrum(device, cdtype, chirp, n, M, inverse) -> Mirror:
    t = cdtype.component.wgsl
    b_s = _scratch(device, cdtype, M)
    b = b_s.buffer
    launch.dispatch(device, _chirp_kernel(device, cdtype, "kernel", inverse), [chirp, chirp, b],
                    _chirp_params(t, 1, n, M, 1.0), threads=M)
    out = Mirror(cdtype, M, device)
    transform(device, cdtype, b, out.buffer_for_write(whole=True), 1, M, False, 1.0)
    return out


# -- real transforms ------------------------------------------------------------------------------------------------
def _real_kernel(device, cdtype: DType, mode: str):
    t = cdtype.component.wgsl
    bind = (launch.read("src", f"array<vec2<{t}>>"), launch.write("dst", f"array<vec2<{t}>>"),
            launch.read("table", f"array<vec2<{t}>>"))
    return launch.compile(device, ("fft_real", t, mode), lambda: launch.Kernel(
        "fft_real.wgsl", bind, dict(T=t, MODE=mode, **_common(t))))


def rfft_even(device, cdtype: DType, src, dst, rows: int, n: int, scale: float) -> None:
    """dst (rows of n/2 + 1) = scale * rfft of the real rows of even length n in ``src`` (bound as n/2 complex
    elements a row; overwritten)."""
    h = n // 2
    t = cdtype.component.wgsl
    z_s = _scratch(device, cdtype, rows * h)
    z = z_s.buffer
    transform(device, cdtype, src, z, rows, h, False, 1.0)
    table = twiddles(device, cdtype, n).buffer()
    launch.dispatch(device, _real_kernel(device, cdtype, "rpost"), [z, dst, table],
                    _scaled(layout.Params().u32(rows, h, n, 0), t, scale), threads=rows * (h + 1))


def irfft_even(device, cdtype: DType, src, dst, rows: int, n: int, scale: float) -> None:
    """dst (real rows of even length n, bound as n/2 complex elements) = scale * the unnormalised inverse real
    transform of the rows of n/2 + 1 coefficients in ``src``."""
    h = n // 2
    t = cdtype.component.wgsl
    z_s = _scratch(device, cdtype, rows * h)
    z = z_s.buffer
    table = twiddles(device, cdtype, n).buffer()
    launch.dispatch(device, _real_kernel(device, cdtype, "rpre"), [src, z, table],
                    _scaled(layout.Params().u32(rows, h, n, 0), t, 1.0), threads=rows * h)
    transform(device, cdtype, z, dst, rows, h, True, scale)


def hermitian(device, cdtype: DType, src, dst, rows: int, n: int) -> None:
    """dst (rows of n) = the Hermitian extension of the rows of n // 2 + 1 coefficients in ``src``."""
    t = cdtype.component.wgsl
    table = twiddles(device, cdtype, 1).buffer()  # unused by this mode; the kernel's layout binds one
    launch.dispatch(device, _real_kernel(device, cdtype, "herm"), [src, dst, table],
                    _scaled(layout.Params().u32(rows, n // 2 + 1, n, 0), t, 1.0), threads=rows * n)

