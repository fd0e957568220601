"""The FFT's plans (``kernels/fft.py``: ``plan``, ``pass_plan``, ``fft_tile.wgsl``, ``fft_transpose.wgsl``) at
lengths lavapipe does quickly: the multi-pass plans (tiled Stockham passes with 256-512-byte runs, and the
four-step plan: column passes, a row pass with the twiddles fused into its loads, a tiled transpose) are forced
at 2^10-2^16 by lowering the planning capacity (``capacity_limit``) and choosing the style (``plan_style``), and
checked against numpy.fft within the suite's C log2(n) eps bound: powers of two, composite lengths of the odd
radices (whose later passes store through the general address path; whose four-step matrices are not multiples
of the transpose's tile), batches of rows, transforms along strided axes read in place, real, Bluestein and n-D
transforms through the plans.  The plans are checked for their invariants (runs of >= 256 bytes wherever they
fit, the four-step plan only where it costs no pass) and the dispatch count of a transform is the plan's pass
count."""
from __future__ import annotations

import contextlib
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from test_fft import CPLX, _signal, close

import wgarray as wg
from wgarray.kernels import fft as K

SMOOTH = sorted({2 ** a * 3 ** b * 5 ** c * 7 ** d for a in range(15) for b in range(4) for c in range(3)
                 for d in range(3) if 16 <= 2 ** a * 3 ** b * 5 ** c * 7 ** d <= 1 << 12})


def _run(f, cap, *args, **kw):
    with K.capacity_limit(cap):
        return f(*args, **kw)


@pytest.mark.parametrize("n,cap,dtype", [(1 << 12, 256, np.complex64), (1 << 12, 256, np.complex128),
                                         (1 << 16, 1024, np.complex64), (6720, 256, np.complex128),
                                         (2401, 64, np.complex64), (1000, 64, np.complex64)])
def test_multipass_lengths(n, cap, dtype):
    itemsize = np.dtype(dtype).itemsize
    assert len(K.pass_plan(n, 1, cap, itemsize)) >= 2  # the decomposition really runs
    host = _signal(n, (n,), dtype)
    x = wg.asarray(host)
    close(_run(wg.fft.fft, cap, x), np.fft.fft(host), dtype, n)
    close(_run(wg.fft.ifft, cap, x, norm="ortho"), np.fft.ifft(host, norm="ortho"), dtype, n)
    assert np.array_equal(x.numpy(), host)  # the input is only read


@pytest.mark.parametrize("shape,axis", [((3, 4096), -1), ((4096, 3), 0), ((2, 1 << 12, 16), 1), ((5, 720, 7), 1),
                                        ((48, 1000), 0)])
def test_multipass_batches_and_strided_axes(shape, axis):
    host = _signal(sum(shape), shape, np.complex64)
    x = wg.asarray(host)
    for norm in (None, "forward"):
        close(_run(wg.fft.fft, 256, x, axis=axis, norm=norm), np.fft.fft(host, axis=axis, norm=norm), np.complex64,
              shape[axis])
    # a non-contiguous view takes the copying route, through the same passes
    v = x[..., ::2] if axis != -1 else x[::2]
    hv = host[..., ::2] if axis != -1 else host[::2]
    close(_run(wg.fft.ifft, 256, v, axis=axis), np.fft.ifft(hv, axis=axis), np.complex64, shape[axis])


def test_real_and_nd_through_the_passes():
    host = _signal(5, (64, 2048), np.float32)
    x = wg.asarray(host)
    close(_run(wg.fft.rfft, 128, x), np.fft.rfft(host), np.complex64, 2048)
    spec = np.fft.rfft(host).astype(np.complex64)
    close(_run(wg.fft.irfft, 128, wg.asarray(spec), n=2048), host, np.float32, 2048)
    c = _signal(6, (96, 80), np.complex128)
    close(_run(wg.fft.fftn, 64, wg.asarray(c)), np.fft.fftn(c), np.complex128, 96 * 80)
    close(_run(wg.fft.fft, 128, wg.asarray(c[:, :61])), np.fft.fft(c[:, :61]), np.complex128, 4 * 61)  # Bluestein


# tile_options the property test draws from (each knob alone, and the sweep's combinations)
_OPTIONS = [{}, dict(vec4=True), dict(fixed=True), dict(twgroup=4, powers=True), dict(radix16=True, workgroup=512),
            dict(vec4=True, fixed=True, twgroup=16, powers=True, columns=2), dict(fused=2, fused_min=0),
            dict(fused=True, fused_min=0, min_columns=16, twgroup=4),
            dict(fused=2, fused_min=0, fixed=True, twgroup=16, min_columns=32)]


@settings(max_examples=12)
@given(st.sampled_from(SMOOTH), st.sampled_from([1, 2, 3, 8, 17]), st.sampled_from([64, 128, 256, 1024]),
       st.sampled_from(CPLX), st.booleans(), st.integers(0, 2 ** 16), st.sampled_from(K.STYLES),
       st.sampled_from(_OPTIONS))
def test_multipass_property(n, inner, cap, dtype, inverse, seed, style, opts):
    shape = (n, inner) if inner > 1 else (n,)
    host = _signal(seed, shape, dtype)
    f, ref = (wg.fft.ifft, np.fft.ifft) if inverse else (wg.fft.fft, np.fft.fft)
    with K.plan_style(style), K.tile_options(**opts):
        close(_run(f, cap, wg.asarray(host), axis=0), ref(host, axis=0), dtype, n)
        if inner > 1:  # the strided view's copy into rows: the row plans (four-step where the style has it)
            close(_run(f, cap, wg.asarray(host)[:, ::2], axis=0), ref(host[:, ::2], axis=0), dtype, n)


def _primes(n):
    return [q for q in (2, 3, 5, 7) if n % q == 0]


@given(st.sampled_from(SMOOTH + [1, 2, 3, 7, 1 << 20, 1 << 24, 3 ** 12]), st.sampled_from([1, 2, 5, 16, 4096]),
       st.sampled_from([64, 1024, 2048, 4096, 6144]), st.sampled_from([8, 16]))
def test_plan_invariants(n, inner, cap, itemsize):
    tiles = K.pass_plan(n, inner, cap, itemsize)
    assert math.prod(L for L, _ in tiles) == n
    wide = 256 // itemsize
    for L, C in tiles:
        assert L * C <= cap and C >= 1 and C & (C - 1) == 0 and C * itemsize <= 512
        if len(tiles) > 1 and max(_primes(n) or [1]) <= cap // wide:  # runs of >= 256 bytes wherever they fit
            assert C * itemsize >= 256
    if inner == 1 and n <= cap:
        assert tiles == [(n, 1)]
    with K.plan_style("wide"):
        p = K.plan(n, inner, cap, itemsize)
    assert p.passes <= len(tiles)  # the four-step plan only where it costs no pass
    if p.n2:
        assert inner == 1 and n > cap and n % p.n2 == 0 and p.n2 <= cap
        assert math.prod(L for L, _ in p.tiles) * p.n2 == n
        assert p.n2 == max(d for d in range(1, cap + 1) if n % d == 0)  # the longest row that fits
    else:
        assert list(p.tiles) == tiles


def test_issue_sizes_plan_with_wide_runs():
    # 2^24 complex64 with lavapipe's 32 KiB or a 48 KiB GPU: the four-step 4096 x 4096 plan, every pass moving
    # runs of >= 256 bytes (the column passes 512: tiles of 64 x 64), as the column axis of 4096^2 does
    for cap in (4096, 6144):
        with K.plan_style("wide"):
            p = K.plan(1 << 24, 1, cap, 8)
            assert (p.n2, p.tiles, p.passes) == (4096, ((64, 64), (64, 64)), 4)
            assert p.traffic(1 << 24, 8) == 4 * 2 * (128 << 20)
            assert K.plan(4096, 4096, cap, 8).tiles == ((64, 64), (64, 64))
            assert K.plan(1 << 22, 1, cap, 8).passes == 4 and K.plan(1 << 20, 1, cap, 8).passes == 3
        with K.plan_style("wide", 256):
            assert K.plan(1 << 24, 1, cap, 8).tiles == ((64, 32), (64, 32))
        # the default ("auto") is the legacy plan, three passes of 128-byte runs at 2^24, two at 2^20: the H200
        # measured it fastest at every size (README)
        with K.plan_style("legacy"):
            legacy = [K.plan(n, inner, cap, 8) for n, inner in ((1 << 24, 1), (1 << 20, 1), (4096, 4096))]
        assert [K.plan(n, inner, cap, 8) for n, inner in ((1 << 24, 1), (1 << 20, 1), (4096, 4096))] == legacy
        assert legacy[0].tiles == ((256, 16),) * 3 and legacy[1].tiles == ((1024, 4),) * 2
    assert K.pass_plan(4096, 1, 6144, 8) == [(4096, 1)]  # the row axis: one pass
    with pytest.raises(ValueError, match="plan style"):
        with K.plan_style("fast"):
            pass
    with pytest.raises(ValueError, match="runs of 384"):
        with K.plan_style("wide", 384):
            pass


@pytest.mark.parametrize("n,cap,dtype,rows,style", [
    (1 << 12, 256, np.complex64, 1, "wide"), (1 << 14, 1024, np.complex64, 3, "fourstep"),
    (1 << 12, 256, np.complex128, 2, "fourstep"), (6720, 256, np.complex64, 2, "fourstep"),
    (2187, 64, np.complex128, 1, "fourstep"), (1 << 16, 4096, np.complex64, 1, "wide"),
    (1 << 12, 256, np.complex64, 2, "tiles"), (1 << 12, 256, np.complex64, 3, "direct"),
    (6720, 256, np.complex128, 2, "direct")])
def test_fourstep_and_wide_tiles(n, cap, dtype, rows, style):
    # the four-step plan (columns, rows times the twiddles, transpose) at lengths whose n1 and n2 are not
    # multiples of the transpose's tile (6720 = 28 x 240, 2187 = 81 x 27), batches (the row pass's twiddle row is
    # its index mod n1), both precisions; the variant whose row pass stores transposed; the tiled plan with wide
    # tiles
    itemsize = np.dtype(dtype).itemsize
    with K.plan_style(style):
        p = K.plan(n, 1, cap, itemsize)
        assert bool(p.n2) == (style != "tiles") and p.passes >= 2
        host = _signal(n + rows, (rows, n), dtype)
        x = wg.asarray(host)
        close(_run(wg.fft.fft, cap, x), np.fft.fft(host), dtype, n)
        close(_run(wg.fft.ifft, cap, x, norm="ortho"), np.fft.ifft(host, norm="ortho"), dtype, n)
        close(_run(wg.fft.fft, cap, x[:, ::-1], norm="forward"), np.fft.fft(host[:, ::-1], norm="forward"), dtype,
              n)
    assert np.array_equal(x.numpy(), host)  # the input is only read


def test_fourstep_through_real_bluestein_and_axes():
    # rfft/irfft of 2^13 (a half-length 2^12 complex transform), Bluestein's 1009 (a 4096-point convolution),
    # a strided axis (copied to rows first) and fftn: all through the four-step plan at a capacity of 256
    with K.plan_style("fourstep"):
        assert K.plan(4096, 1, 256, 8).n2 == 256
        r = _signal(3, (2, 1 << 13), np.float32)
        close(_run(wg.fft.rfft, 256, wg.asarray(r)), np.fft.rfft(r), np.complex64, 1 << 13)
        spec = np.fft.rfft(r).astype(np.complex64)
        close(_run(wg.fft.irfft, 256, wg.asarray(spec)), r, np.float32, 1 << 13)
        b = _signal(4, (1009,), np.complex64)
        close(_run(wg.fft.fft, 256, wg.asarray(b)), np.fft.fft(b), np.complex64, 1009)
        c = _signal(5, (4096, 3), np.complex64)
        close(_run(wg.fft.fft, 256, wg.asarray(c)[:, :2], axis=0), np.fft.fft(c[:, :2], axis=0), np.complex64, 4096)
        d = _signal(6, (2, 1024, 8), np.complex64)
        close(_run(wg.fft.fftn, 256, wg.asarray(d), axes=(1, 2)), np.fft.fftn(d, axes=(1, 2)), np.complex64, 8192)


def test_dispatches_are_the_passes():
    dev = wg.default_device()
    host = _signal(9, (1 << 14,), np.complex64)
    x = wg.asarray(host)
    cap = K.local_capacity(dev, 8)
    for shape, axis in (((1 << 14,), -1), ((128, 128), 0), ((128, 128), 1)):
        a = wg.asarray(host.reshape(shape))
        _run(wg.fft.fft, 512, a, axis=axis)  # warm: twiddle tables
        before = dev.stats()
        _run(wg.fft.fft, 512, a, axis=axis)
        inner = math.prod(shape[axis % len(shape) + 1:])
        assert (dev.stats() - before).dispatches == K.plan(shape[axis], inner, 512, 8).passes
    if cap >= 128 * 16:  # lavapipe's and every GPU's: one pass an axis, no copies
        wg.fft.fftn(x.reshape((128, 128)))
        before = dev.stats()
        wg.fft.fftn(x.reshape((128, 128)))
        assert (dev.stats() - before).dispatches == 2


@pytest.mark.parametrize("n,cap,rows,dtype,wgs,r16,cols", [
    (4096, 4096, 2, np.complex64, 0, True, 0), (4096, 256, 1, np.complex64, 512, True, 2),
    (256, 4096, 3, np.complex128, 32, True, 0), (768, 4096, 2, np.complex64, 1024, False, 0),
    (48, 4096, 2, np.complex128, 64, True, 0), (1 << 12, 64, 1, np.complex64, 128, True, 1),
    (1 << 12, 256, 2, np.complex64, 0, False, 1)])
def test_tile_options(n, cap, rows, dtype, wgs, r16, cols):
    # the tiled kernels with other workgroup sizes (fewer invocations than a sub-pass has butterflies, more than
    # the tile has elements), radix-16 sub-passes (4096 = 16^3; 768 = 16 x 48; 48 = 16 x 3) and multi-pass tiles
    # narrowed to 1 or 2 columns (later passes then store through the general path), one pass and multi-pass
    host = _signal(n + rows, (rows, n), dtype)
    x = wg.asarray(host)
    with K.tile_options(wgs, r16, cols):
        L = n if n <= cap else 64
        assert K._subplan(L) == (K.factors(L) if not r16 else [16, 16, 16] if L == 4096 else [16, 3] if L == 48
                                 else [16, 4] if L == 64 else [16, 16] if L == 256 else K.factors(L))
        close(_run(wg.fft.fft, cap, x), np.fft.fft(host), dtype, n)
        close(_run(wg.fft.ifft, cap, x, norm="forward"), np.fft.ifft(host, norm="forward"), dtype, n)
    with pytest.raises(ValueError, match="workgroup of 48"):
        with K.tile_options(48):
            pass
    with pytest.raises(ValueError, match="tiles of 3 columns"):
        with K.tile_options(columns=3):
            pass


def test_plans_are_memoised_per_style():
    # planning 2^24 searched splits on every call (~0.2 ms of host time); the plan is now computed once per
    # (length, axis, capacity, style), and a change of style is a different plan
    first = K.plan(1 << 24, 1, 6144, 8)
    assert K.plan(1 << 24, 1, 6144, 8) is first and first.tiles == ((256, 16),) * 3
    with K.plan_style("wide"):
        assert K.plan(1 << 24, 1, 6144, 8).passes == 4
    assert K.plan(1 << 24, 1, 6144, 8) is first


@pytest.mark.parametrize("shape,axes,cap,dtype,opts", [
    ((1 << 12,), (0,), 64, np.complex64, dict(twgroup=4)), ((2, 1 << 12), (1,), 256, np.complex128, dict(twgroup=16)),
    ((3, 1000), (1,), 64, np.complex64, dict(twgroup=2, powers=True)),
    ((64, 64, 3), (0, 1), 64, np.complex64, dict(powers=True, radix16=True)),
    ((1 << 14,), (0,), 256, np.complex64, dict(fixed=True)), ((5, 720, 7), (1,), 64, np.complex128, dict(fixed=True)),
    ((1 << 12,), (0,), 64, np.complex64, dict(twgroup=4, powers=True, fixed=True, columns=2)),
    ((48, 48), (0, 1), 4096, np.complex64, dict(fixed=True, powers=True)),
    ((1 << 12,), (0,), 64, np.complex64, dict(vec4=True)), ((3, 1000), (1,), 64, np.complex64, dict(vec4=True)),
    ((2, 1 << 12), (1,), 256, np.complex64, dict(vec4=True, twgroup=4, fixed=True, workgroup=512)),
    ((128, 128), (0, 1), 4096, np.complex64, dict(vec4=True, twgroup=16, powers=True, columns=2)),
    ((2, 64, 30), (1,), 64, np.complex128, dict(vec4=True)), ((3, 1 << 12), (1,), 4096, np.complex64, dict(vec4=True)),
    ((4, 48), (1,), 4096, np.complex64, dict(vec4=True, workgroup=512)),
    ((3, 243), (1,), 4096, np.complex64, dict(vec4=True)),
    ((3, 1 << 12), (1,), 4096, np.complex64, dict(vec4=True, row_workgroup=1024)),
    ((64, 64), (0, 1), 4096, np.complex128, dict(row_workgroup=32, workgroup=512))])
def test_twiddle_and_constant_options(shape, axes, cap, dtype, opts):
    # tile_options: later passes' four-step twiddles looked up every g rows (the rows between by products of
    # powers), the sub-passes' twiddles as powers of one lookup, the sizes as shader constants (1000 = 40 x 25 and
    # 720 along a strided axis: tiles that do not divide the columns keep their guard; odd radices' butterflies),
    # vec4 loads and stores of column pairs, or of a one-pass row's element pairs (complex64; complex128, odd
    # column counts and odd rows keep vec2)
    host = _signal(len(shape) + shape[-1], shape, dtype)
    x = wg.asarray(host)
    n = math.prod(shape[a] for a in axes)
    with K.tile_options(**opts):
        close(_run(wg.fft.fftn, cap, x, axes=axes), np.fft.fftn(host, axes=axes), dtype, n)
        close(_run(wg.fft.ifftn, cap, x, axes=axes, norm="ortho"), np.fft.ifftn(host, axes=axes, norm="ortho"),
              dtype, n)
    assert np.array_equal(x.numpy(), host)


def test_tile_defaults(monkeypatch):
    # TILE_DEFAULTS is what a plain call runs and what tile_options starts from (None: the default)
    monkeypatch.setitem(K.TILE_DEFAULTS, "twgroup", 4)
    monkeypatch.setitem(K.TILE_DEFAULTS, "fixed", 0)
    with K.tile_options(fixed=True):
        assert (K._twgroup, K._fixed, K._tile_wg) == (4, True, 0)
        with K.tile_options(twgroup=0):
            assert (K._twgroup, K._fixed) == (0, False)
    dev = wg.default_device()  # row_workgroup: one-column tiles alone
    with K.tile_options(row_workgroup=512, workgroup=64):
        assert K._workgroup(dev, 4096, [8, 8, 8, 8], 1) == 512 and K._workgroup(dev, 4096, [8, 8, 4], 16) == 64
    with pytest.raises(ValueError, match="workgroup of 48"):
        with K.tile_options(row_workgroup=48):
            pass


def test_fixed_kernels_are_specialised():
    # fixed: the parameter block's sizes are literals of the shader; the column guard goes where tiles divide evenly
    cd = wg.asarray(np.zeros(1, np.complex64)).dtype
    fixed = tuple(zip(K._PARAMS, (4096, 1, 65536, 256, 1, 256, 4096, 12)))
    src = K._build_tile(cd, 256, 16, [8, 8, 4], "col", "col", False, False, 256, 4, True, fixed).source()
    assert "p.mcols" not in src and "p.ns" not in src and "65536u" in src and "let live = true;" in src
    assert "p.scale" in src and "let tg_3 = twn(kq * r12 * 256u);" in src and "let sw7 = cmul(sw4, sw3);" in src
    odd = tuple(zip(K._PARAMS, (63, 1, 1000, 1, 1000, 0, 64, 6)))
    assert "let live = col < 1000u;" in K._build_tile(cd, 64, 16, [8, 8], "row1", "", False, False, 64, 0, False,
                                                       odd).source()
    pairs = K._build_tile(cd, 256, 16, [8, 8, 4], "col", "col", False, False, 256, 4, False, (), True).source()
    assert "var<storage, read> src: array<vec4<f32>>" in pairs and "let tgb_1 = twn(kqb * r4 * p.tstride);" in pairs
    assert "dst[(base + (col - k) * 256u + k + (lid / 8u + 0u) * p.ns) / 2u] = vec4<f32>(" in pairs
    first = K._build_tile(cd, 64, 4, [8, 8], "row1", "", False, False, 64, 0, False, (), True).source()
    assert "let t = 2u * (lid + 0u);" in first and "buf[at(r + 1u, cc)]" in first
    row = K._build_tile(cd, 64, 1, [8, 8], "row1", "", True, False, 32, 0, False, (), True).source()
    assert "let r1 = 2u * lid + 64u;" not in row and "let r0 = 2u * lid + 0u;" in row and "buf[at(r + 1u, c)] = vb;" in row
    dev = wg.default_device()  # a pipeline per pass of a length and axis, shared by every batch count
    with K.tile_options(fixed=True):
        for rows in (2, 3, 5):
            host = _signal(rows, (rows, 4096), np.complex64)
            close(_run(wg.fft.fft, 64, wg.asarray(host)), np.fft.fft(host), np.complex64, 4096)
            if rows == 2:
                compiled = dev.counters.pipelines_compiled
    assert dev.counters.pipelines_compiled == compiled
    # fixed=N: constants only for transforms of at least N elements (below: the shared pipelines, no compile a shape)
    with K.tile_options(fixed=3 * 4096 + 1):
        assert [K._fixed_consts(rows, 4096, 1) for rows in (3, 4)] == [False, True]
        host = _signal(7, (3, 4096), np.complex64)
        close(_run(wg.fft.fft, 64, wg.asarray(host)), np.fft.fft(host), np.complex64, 4096)
    with pytest.raises(ValueError, match="twiddle groups"):
        with K.tile_options(twgroup=-1):
            pass
    with pytest.raises(ValueError, match="fixed from -1"):
        with K.tile_options(fixed=-1):
            pass


def test_pass_recipes_are_cached(monkeypatch):
    # a transform's passes (kernels, tables, parameter blocks, grids) are computed once per shape and options:
    # a repeated call only records its dispatches; other options are another recipe; a recipe keeps its tables
    # alive when the twiddle cache drops them
    host = _signal(21, (2, 4096), np.complex64)
    x = wg.asarray(host)
    calls = []
    real = K._steps
    monkeypatch.setattr(K, "_steps", lambda *a: calls.append(a[2:4]) or real(*a))
    close(_run(wg.fft.fft, 64, x), np.fft.fft(host), np.complex64, 4096)
    first = len(calls)
    close(_run(wg.fft.fft, 64, x), np.fft.fft(host), np.complex64, 4096)
    assert len(calls) == first
    with K.tile_options(powers=not K.TILE_DEFAULTS["powers"]):
        close(_run(wg.fft.fft, 64, x), np.fft.fft(host), np.complex64, 4096)
    assert len(calls) == first + 1
    K._caches.pop(wg.default_device(), None)  # the twiddle tables' mirrors dropped: their buffers go back to
    # the pool, where other arrays of their size classes take them
    filler = [wg.asarray(np.ones(m, np.complex64)) * 2 for m in (16, 32, 64, 128, 256) for _ in range(3)]
    close(_run(wg.fft.fft, 64, x), np.fft.fft(host), np.complex64, 4096)
    assert len(calls) == first + 1 and len(filler) == 15


@pytest.mark.parametrize("opts", [
    dict(rows=dict(workgroup=512, radix16=False), strided=dict(radix16=False, columns=2), pad=False),
    dict(rows=dict(pad=False, vec4=True, powers=False), strided=dict(columns=0, twgroup=0, fixed=True)),
    dict(strided=dict(radix16=True, columns=16, workgroup=64, vec4=True))])
def test_per_axis_options(monkeypatch, opts):
    # rows / strided: knobs of a contiguous row's one pass / a strided axis's passes alone; pad: one-column tiles
    # unpadded.  2-D fftn against numpy (64^2 at a capacity of 64: rows in one pass, columns in two), and the
    # kernels each pass was built with
    monkeypatch.setitem(K.TILE_DEFAULTS, "rows", {})  # the mechanism alone, not the measured per-axis defaults
    monkeypatch.setitem(K.TILE_DEFAULTS, "strided", {})
    host = _signal(31, (3, 64, 64), np.complex64)
    built = []
    real = K._build_tile
    monkeypatch.setattr(K, "_build_tile", lambda *a: built.append(a[1:]) or real(*a))
    with K.tile_options(**opts):
        close(_run(wg.fft.fftn, 64, wg.asarray(host), axes=(1, 2)), np.fft.fftn(host, axes=(1, 2)), np.complex64,
              4096)
        dev, cd = wg.default_device(), wg.asarray(host).dtype
        built.clear()
        with K.capacity_limit(4096):  # (rows, n, inner) not run before: built now
            K._steps(dev, cd, 7, 64, 1, [(64, 1)], True, 1.0, None)
            K._steps(dev, cd, 1, 64, 37, [(8, 8), (8, 8)], True, 1.0, None)
    row, cols = built[0], built[1:]
    want = {**K.TILE_DEFAULTS, **opts, **opts.get("rows", {})}
    assert row[2] == ([8, 8] if not want["radix16"] else [16, 4]) and row[5] == (want["pad"])
    assert row[7] == (want["row_workgroup"] or want["workgroup"] or 32)
    s = {**K.TILE_DEFAULTS, **opts, **opts.get("strided", {})}
    assert all(c[1] == min(s["columns"] or 8, 8) and c[2] == [8] for c in cols) and cols
    assert all(bool(c[10]) == bool(s["fixed"] and 37 * 64 >= s["fixed"]) for c in cols)
    with pytest.raises(ValueError, match=r"rows options \['foo'\]"):
        with K.tile_options(rows=dict(foo=1)):
            pass
    with pytest.raises(ValueError, match="tiles of 3 columns"):
        with K.tile_options(strided=dict(columns=3)):
            pass


@pytest.mark.parametrize("shape,dtype,opts", [
    ((3, 512), np.complex64, dict(half=True)),
    ((2, 1000), np.complex64, dict(half=True, radix16=False, pad=False, powers=False)),
    ((5, 96), np.complex128, dict(half=True, workgroup=32, fixed=True)),
    ((3, 200), np.complex64, dict(half=True, vec4=True, workgroup=64)),
    ((2, 400), np.complex128, dict(half=4, radix16=False, pad=False, workgroup=128)),
    ((2, 256), np.complex64, dict(rows=dict(half=4, vec4=True, powers=False))),
    ((64, 64), np.complex64, dict(rows=dict(half=True, workgroup=128, vec4=True), strided=dict(columns=0))),
    pytest.param((3, 4096), np.complex64, dict(half=True), marks=pytest.mark.slow),  # 4096^2's rows (compiles ~4 s)
    pytest.param((3, 4096), np.complex64, dict(half=4, vec4=True), marks=pytest.mark.slow)])
def test_half_rows(monkeypatch, shape, dtype, opts):
    # half: a contiguous row's one pass as a radix-2 split at load and two half-length transforms in half the
    # workgroup memory (outputs stored as (even, odd) pairs); forward and inverse against numpy
    monkeypatch.setitem(K.TILE_DEFAULTS, "rows", {})  # opts alone decide (the defaults have their own test)
    monkeypatch.setitem(K.TILE_DEFAULTS, "strided", {})
    built = []
    real = K._build_half
    monkeypatch.setattr(K, "_build_half", lambda *a: built.append((a[1], a[8], a[9])) or real(*a))
    host = _signal(41, shape, dtype)
    x = wg.asarray(host)
    axes = tuple(range(len(shape)))[-2 if shape[0] == shape[-1] else -1:]
    n = math.prod(shape[a] for a in axes)
    with pytest.raises(ValueError, match="half=3"):
        with K.tile_options(half=3):
            pass
    with K.tile_options(**opts):
        close(wg.fft.fftn(x, axes=axes), np.fft.fftn(host, axes=axes), dtype, n)
        close(wg.fft.ifftn(x, axes=axes, norm="forward"), np.fft.ifftn(host, axes=axes, norm="forward"), dtype, n)
    want = {**opts, **opts.get("rows", {})}
    vec4 = want.get("vec4", False) and dtype == np.complex64  # output pairs as vec4s
    split = 4 if want["half"] == 4 else 2
    assert built and all((R, pairs, s) == (shape[-1], vec4, split) for R, pairs, s in built)
    assert np.array_equal(x.numpy(), host)


def test_default_rows_are_half_tiles_with_vec4_stores(monkeypatch):
    # the measured per-axis defaults (H100, 2026-12-06): a contiguous row's one pass as half-length tiles storing
    # vec4 pairs; a strided axis's passes with the plan's own tile width.  A plain 2-D fftn builds exactly those.
    assert K.TILE_DEFAULTS["rows"] == dict(half=True, vec4=True) and K.TILE_DEFAULTS["strided"] == dict(columns=0)
    built = []
    real = K._build_half
    monkeypatch.setattr(K, "_build_half", lambda *a: built.append((a[1], a[8], a[9])) or real(*a))
    K._caches.pop(wg.default_device(), None)  # transforms recorded by earlier tests: planned anew
    host = _signal(43, (2, 96, 160), np.complex64)
    close(wg.fft.fftn(wg.asarray(host), axes=(1, 2)), np.fft.fftn(host, axes=(1, 2)), np.complex64, 96 * 160)
    assert built and all((R, pairs, split) == (160, True, 2) for R, pairs, split in built)


def test_refused_options_change_nothing():
    # a tile_options call refused by a later check leaves every knob as it was
    before = K._current()
    with pytest.raises(ValueError, match="half=3"):
        with K.tile_options(columns=16, workgroup=64, half=3):
            pass
    assert K._current() == before


def test_zero_lengths():
    """An empty batch of 2-D transforms, and numpy's error for a zero-length axis (no hang: factors(0) once
    divided by 2 for ever)."""
    assert K.factors(0) is None and K.factors(-4) is None
    got = wg.fft.fftn(wg.asarray(np.zeros((0, 64, 64), np.complex64)), axes=(-2, -1))
    assert got.shape == (0, 64, 64) and got.dtype == wg.complex64
    for empty in ((0, 64), (64, 0)):
        with pytest.raises(ValueError, match="Invalid number"):
            wg.fft.fftn(wg.asarray(np.zeros(empty, np.complex64)))


def _forced(monkeypatch, shape, axes, cap, dtype, opts) -> list[tuple]:
    """fftn and ifftn of a signal of ``shape`` along ``axes`` under ``tile_options(**opts)`` (the strided passes'
    defaults aside, and the register-held column pass off: 4096's columns in the tiled passes; ``cap``: a planning
    capacity) against numpy; the arguments of each ``_build_tile`` call."""
    monkeypatch.setitem(K.TILE_DEFAULTS, "strided", {})
    monkeypatch.setitem(K._reg, "on", False)
    built = []
    real = K._build_tile
    monkeypatch.setattr(K, "_build_tile", lambda *a: built.append(a) or real(*a))
    host = _signal(len(shape) + shape[0], shape, dtype)
    x = wg.asarray(host)
    n = math.prod(shape[a] for a in axes)
    with K.tile_options(**opts), K.capacity_limit(cap) if cap else contextlib.nullcontext():
        close(wg.fft.fftn(x, axes=axes), np.fft.fftn(host, axes=axes), dtype, n)
        close(wg.fft.ifftn(x, axes=axes, norm="ortho"), np.fft.ifftn(host, axes=axes, norm="ortho"), dtype, n)
    return built


@pytest.mark.parametrize("shape,axes,dtype,opts,want", [
    # 4096^2's column passes in small: a strided axis of 4096 in two passes of 64 (plan 64x16), widened to 64x32
    ((4096, 8), (0,), np.complex64, dict(strided=dict(columns=0, min_columns=32)), {32}),
    ((4096, 8), (0,), np.complex64, dict(strided=dict(columns=0, min_columns=32, vec4=True)), {32}),
    ((4096, 8), (0,), np.complex64, dict(strided=dict(columns=0, min_columns=64, vec4=True, workgroup=512)), {64}),
    ((4096, 8), (0,), np.complex128, dict(strided=dict(columns=0, min_columns=32)), None),
    # 2^24's passes in small: a row of 2^14 in two passes of 128 (128x16, capped to 8 by columns), widened to 16
    ((2, 1 << 14), (1,), np.complex64, dict(min_columns=16, vec4=True), {16}),
    ((2, 1 << 14), (1,), np.complex64, dict(min_columns=16, columns=4, twgroup=0, powers=False), {16})])
def test_min_columns(monkeypatch, shape, axes, dtype, opts, want):
    # min_columns: multi-column tiles widened past the plan's width (where the columns are there and the tile fits
    # the workgroup memory), forward and inverse against numpy; the tiles built have the wider columns
    built = [a[2] for a in _forced(monkeypatch, shape, axes, 0, dtype, opts)]
    assert built and (want is None or set(built) == want)
    with pytest.raises(ValueError, match="min_columns"):
        with K.tile_options(min_columns=24):
            pass


def test_bare_passes():
    # bare_passes (benchmarks' ceilings): the passes' loads and stores alone.  A one-pass row is then a copy, a
    # half-split row the radix-2 split's shuffle (output 2 r + k = input r + k H); the transforms after the block
    # are the real ones again (their recipes are apart from the bare ones)
    host = _signal(49, (3, 256), np.complex64)
    x = wg.asarray(host)
    with K.tile_options(rows=dict(half=False)):
        close(wg.fft.fft(x), np.fft.fft(host), np.complex64, 256)
        with K.bare_passes():
            assert np.array_equal(wg.fft.fft(x).numpy(), host)
        close(wg.fft.fft(x), np.fft.fft(host), np.complex64, 256)
    with K.tile_options(rows=dict(half=True)):
        with K.bare_passes():
            assert np.array_equal(wg.fft.fft(x).numpy(), host.reshape(3, 2, 128).transpose(0, 2, 1).reshape(3, 256))
        close(wg.fft.fft(x), np.fft.fft(host), np.complex64, 256)


@pytest.mark.parametrize("shape,axes,cap,dtype,opts", [
    ((4096, 8), (0,), 0, np.complex64, dict(strided=dict(columns=0, fused=True))),  # 4096^2's column passes
    ((4096, 8), (0,), 0, np.complex64, dict(strided=dict(columns=0, fused=2, min_columns=32))),
    ((4096, 8), (0,), 0, np.complex128, dict(strided=dict(columns=0, fused=2))),
    ((2, 1 << 14), (1,), 0, np.complex64, dict(fused=2)),  # 2^24's: a first pass (row1) and a later one (col)
    ((2, 1 << 14), (1,), 0, np.complex64, dict(fused=True, twgroup=16, powers=False)),
    ((1000, 40), (0,), 0, np.complex64, dict(fused=2)),  # odd radices: butterflies not a multiple of the workgroup
    ((2, 96, 96), (1, 2), 0, np.complex128, dict(fused=2, twgroup=0)),  # a workgroup of 96
    ((3, 1000), (1,), 0, np.complex64, dict(rows=dict(fused=2))),  # a one-column tile (a row) in one pass
    ((3, 4096), (1,), 0, np.complex64, dict(rows=dict(fused=2, pad=False))),  # 4096^2's rows as a whole tile
    # half rows: the first sub-pass (radix H / workgroup) on the rows each invocation holds after the split
    ((64, 512), (0, 1), 0, np.complex64, dict(rows=dict(half=True, vec4=True, fused=1), fused=2)),
    ((5, 2048), (1,), 0, np.complex128, dict(rows=dict(half=4, fused=1, pad=False)))])
def test_fused_sub_passes(monkeypatch, shape, axes, cap, dtype, opts):
    # fused: a tile's first sub-pass straight from its loads (fused=2: and its last sub-pass straight to dst),
    # forward and inverse against numpy; tiles built are fused (fused_min=0: at these small sizes too)
    built = _forced(monkeypatch, shape, axes, cap, dtype, {**opts, "fused_min": 0})
    want = {**opts, **opts.get("strided", {}), **opts.get("rows", {})}["fused"]
    assert any(a[14] == want for a in built)
    with pytest.raises(ValueError, match="fused=3"):
        with K.tile_options(fused=3):
            pass


def test_fused_by_default_from_fused_min(monkeypatch):
    # the measured default (H100, 2026-12-06): fused=2 in the transforms of at least fused_min = FIXED_MIN elements,
    # the plain kernels below; a plain 2^18-element transform runs fused against numpy
    assert (K.TILE_DEFAULTS["fused"], K.TILE_DEFAULTS["fused_min"]) == (2, K.FIXED_MIN)
    keys = []
    real = K.launch.compile
    monkeypatch.setattr(K.launch, "compile",
                        lambda d, key, build, **kw: (key[0] == "fft_tile" and keys.append(key)) or real(d, key, build,
                                                                                                        **kw))
    dev, cd = wg.default_device(), wg.asarray(np.zeros(1, np.complex64)).dtype
    with K.capacity_limit(4096):
        for rows in (K.FIXED_MIN // 256, K.FIXED_MIN // 256 - 1):
            K._steps(dev, cd, rows, 256, 1, [(256, 1)], False, 1.0, None)
    assert [k[-1][-1] for k in keys] == [2, 0]  # (a half row: its first sub-pass on the rows held after the split)
    with K.tile_options(fused_min=3 * 4096 + 1), K.capacity_limit(1024):  # 2^12 in two passes of 64x16 tiles
        keys.clear()
        for rows in (3, 4):
            K._steps(dev, cd, rows, 4096, 1, [(64, 16), (64, 16)], True, 1.0, None)
        assert [k[-1][-1] for k in keys] == [0, 0, 2, 2]
    with pytest.raises(ValueError, match="fused from -1"):
        with K.tile_options(fused_min=-1):
            pass
    host = _signal(53, (K.FIXED_MIN // 512, 512), np.complex64)
    close(wg.fft.fft(wg.asarray(host)), np.fft.fft(host), np.complex64, 512)
