"""Bit-exact tests of wgarray/shaders/numerics_exact.wgsl (correctly rounded
f32 division and sqrt) against numpy's IEEE division and sqrt.

On lavapipe the builtin x / y and sqrt(x) happen to be exact, so the fix-up
functions are fed deliberately wrong guesses: numpy's result moved by -4..+4
ulp with bit arithmetic, plus garbage guesses (0, NaN, inf, wrong binade,
wrong sign) that force the exact fallback loop. The snippet is loaded straight
from the shader directory and run elementwise through a raw wgpu compute
pipeline (the approach of tests/numerics/test_wgsl_numerics.py). NaNs compare equal to
NaNs regardless of payload.
"""

import functools
import os
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")  # silences a warning on headless Linux
wgpu = pytest.importorskip("wgpu")

SNIPPET = Path(__file__).parents[2] / "wgarray" / "shaders" / "numerics_exact.wgsl"
F32 = np.float32
U32 = np.uint32
FI = np.finfo(F32)
SHIFTS = range(-4, 5)


# --------------------------------------------------------------------------
# harness
# --------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _device():
    adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
    if adapter is None:
        pytest.skip("no wgpu adapter")
    return adapter.request_device_sync()  # the snippet needs no feature


@functools.lru_cache(maxsize=None)
def _pipeline(fn, nargs):
    dev = _device()
    lines = [SNIPPET.read_text()]
    for k in range(nargs):
        lines.append(f"@group(0) @binding({k}) var<storage, read> in{k}: array<f32>;")
    lines.append(f"@group(0) @binding({nargs}) var<storage, read_write> outp: array<f32>;")
    args = ", ".join(f"in{k}[i]" for k in range(nargs))
    lines.append(f"""
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {{
    let i = gid.y * 4194304u + gid.x;
    if (i >= arrayLength(&outp)) {{ return; }}
    outp[i] = {fn}({args});
}}""")
    module = dev.create_shader_module(code="\n".join(lines))
    return dev.create_compute_pipeline(layout="auto",
                                       compute={"module": module, "entry_point": "main"})


def gpu(fn, *args):
    """Run the WGSL function `fn` elementwise over equally long f32 arrays."""
    dev = _device()
    pipe = _pipeline(fn, len(args))
    n = len(args[0])
    bufs = [dev.create_buffer_with_data(data=np.ascontiguousarray(a, dtype=F32).tobytes(),
                                        usage=wgpu.BufferUsage.STORAGE) for a in args]
    out = dev.create_buffer(size=4 * n,
                            usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC)
    bind = dev.create_bind_group(
        layout=pipe.get_bind_group_layout(0),
        entries=[{"binding": k, "resource": {"buffer": b}} for k, b in enumerate(bufs + [out])])
    enc = dev.create_command_encoder()
    cp = enc.begin_compute_pass()
    cp.set_pipeline(pipe)
    cp.set_bind_group(0, bind)
    groups = (n + 63) // 64
    cp.dispatch_workgroups(min(groups, 65536), (groups + 65535) // 65536)
    cp.end()
    dev.queue.submit([enc.finish()])
    return np.frombuffer(dev.queue.read_buffer(out), dtype=F32)[:n].copy()


def assert_bits_equal(got, ref, name, *args):
    bad = (got.view(U32) != ref.view(U32)) & ~(np.isnan(got) & np.isnan(ref))
    if bad.any():
        idx = np.flatnonzero(bad)[:10]
        rows = "\n".join(
            "  f(" + ", ".join(f"{a[i]!r} [{a[i:i + 1].view(U32)[0]:#010x}]" for a in args)
            + f") = {got[i]!r} [{got[i:i + 1].view(U32)[0]:#010x}], "
            f"numpy {ref[i]!r} [{ref[i:i + 1].view(U32)[0]:#010x}]" for i in idx)
        raise AssertionError(f"{name}: {bad.sum()} mismatches of {bad.size}:\n{rows}")


# --------------------------------------------------------------------------
# guesses
# --------------------------------------------------------------------------

def ulp_shift(v, k):
    """Move f32 values k steps along the ordered float line (through zero,
    from +0 to -min_subnormal and so on). NaNs stay as they are."""
    b = v.view(U32).astype(np.int64)
    o = np.where(b >> 31, -(b & 0x7FFFFFFF), b) + k
    out = np.where(o < 0, 0x80000000 | -o, o).astype(U32).view(F32)
    return np.where(np.isnan(v), v, out)


def garbage_guesses(ref, rng):
    """Guesses far from the result: the fix must still be exact (fallback)."""
    with np.errstate(all="ignore"):
        return [np.zeros_like(ref), np.full_like(ref, np.nan), np.full_like(ref, np.inf),
                -ref, ref * F32(2.0 ** 40), ref * F32(0.25), ulp_shift(ref, 100),
                ulp_shift(ref, -3000),
                rng.integers(0, 2 ** 32, len(ref), dtype=np.uint64).astype(U32).view(F32)]


def check_fix(fn, args, ref, rng, name):
    """fn(*args, guess) for every shifted and garbage guess, in one dispatch."""
    guesses = [ulp_shift(ref, k) for k in SHIFTS] + garbage_guesses(ref, rng)
    reps = len(guesses)
    got = gpu(fn, *[np.tile(a, reps) for a in args], np.concatenate(guesses))
    assert_bits_equal(got, np.tile(ref, reps), name, *[np.tile(a, reps) for a in args],
                      np.concatenate(guesses))


# --------------------------------------------------------------------------
# inputs
# --------------------------------------------------------------------------

def specials():
    v = np.array([0.0, 1.0, 2.0, 3.0, 0.5, 1.5, 0.1, 7.0, 10.0, 1e30, 1e-30,
                  np.inf, np.nan, FI.max, FI.tiny, FI.smallest_subnormal,
                  FI.tiny - FI.smallest_subnormal, FI.smallest_subnormal * 3,
                  FI.tiny * 1.5, 2.0 ** 24, 2.0 ** 24 - 1, 1 + FI.eps, 1 - FI.eps / 2,
                  2.0 ** 127, 2.0 ** -127, 2.0 ** -149 * 12345, np.nextafter(F32(2.0 ** 127), F32(0))],
                 dtype=F32)
    return np.concatenate([v, -v])


def rand_bits(rng, n, lo=1, hi=0x7F7FFFFF, signed=True):
    """Random finite f32 bit patterns in [lo, hi] (uniform over exponents)."""
    u = rng.integers(lo, hi, n, endpoint=True, dtype=np.uint64).astype(U32)
    if signed:
        u |= (rng.integers(0, 2, n, dtype=np.uint64).astype(U32) << U32(31))
    return u.view(F32)


def rand_mant(rng, n):
    """Uniform 24-bit significands in [2^23, 2^24) as float64 integers."""
    return rng.integers(2 ** 23, 2 ** 24, n).astype(np.float64)


def div_inputs(seed):
    with np.errstate(all="ignore"):  # some constructed x overflow to inf: fine
        return _div_inputs(np.random.default_rng(seed))


def _div_inputs(rng):
    xs, ys = [], []
    # full cross product of the specials
    a, b = np.meshgrid(specials(), specials())
    xs.append(a.ravel()), ys.append(b.ravel())
    # random values over the whole exponent range (all kinds of results,
    # including overflow, subnormal and underflow to zero)
    n = 20000
    xs.append(rand_bits(rng, n)), ys.append(rand_bits(rng, n))
    # subnormal operands
    xs.append(rand_bits(rng, 2000, hi=0x007FFFFF)), ys.append(rand_bits(rng, 2000))
    xs.append(rand_bits(rng, 2000)), ys.append(rand_bits(rng, 2000, hi=0x007FFFFF))
    # a chosen quotient exponent: results near overflow, in the subnormal
    # range and just around both ends of it
    y = rand_bits(rng, n, lo=0x20000000, hi=0x5F000000)
    e_q = rng.integers(-152, 129, n)
    x = (rng.uniform(1, 2, n) * np.abs(y.astype(np.float64)) * 2.0 ** e_q).astype(F32)
    xs.append(x * np.where(rng.random(n) < 0.5, -1, 1).astype(F32)), ys.append(y)
    # near midpoints: x ~= m * y with m halfway between two floats (m * y is
    # exact in float64: 25 + 24 bits), then rounded to f32, and its neighbours
    n = 10000
    y = (rand_mant(rng, n) * 2.0 ** rng.integers(-60, 40, n)).astype(F32)
    e_q = rng.integers(-152, 128, n)
    # for subnormal results, the midpoint between multiples of 2^-149
    step = 2.0 ** np.maximum(e_q - 23, -149)
    m = (rng.integers(2 ** 23, 2 ** 24, n).astype(np.float64) + 0.5) * step
    x = (m * y.astype(np.float64)).astype(F32)
    for xx in (x, np.nextafter(x, F32(np.inf)), np.nextafter(x, F32(-np.inf))):
        xs.append(xx), ys.append(y)
    # exact ties in the subnormal range: x = odd * 2^(j-150), y = 2^j or 3 * 2^j
    n = 4000
    odd = 2 * rng.integers(0, 2 ** 22, n) + 1
    j = rng.integers(1, 126, n)
    xs.append((odd * 2.0 ** (j - 150)).astype(F32)), ys.append((2.0 ** j).astype(F32))
    odd = 2 * rng.integers(0, 2 ** 21, n) + 1
    xs.append((3 * odd * 2.0 ** (j - 150)).astype(F32)), ys.append((3 * 2.0 ** j).astype(F32))
    # exact quotients and powers of two
    q = rng.integers(-4096, 4096, n).astype(np.float64) * 2.0 ** rng.integers(-140, 100, n)
    y = rng.integers(1, 4096, n).astype(np.float64) * 2.0 ** rng.integers(-20, 20, n)
    xs.append((q * y).astype(F32)), ys.append(y.astype(F32))
    i = rng.integers(-149, 128, n)
    jj = rng.integers(-149, 128, n)
    xs.append((2.0 ** i).astype(F32)), ys.append((2.0 ** jj).astype(F32))
    # overflow boundary: near-max values over values just below 1
    xs.append(np.full(200, FI.max, F32) * np.where(np.arange(200) % 2, -1, 1).astype(F32))
    ys.append(ulp_shift(np.ones(200, F32), -(np.arange(200) % 10) - 1)
              * np.where(np.arange(200) % 3, 1, -1).astype(F32))
    return np.concatenate(xs).astype(F32), np.concatenate(ys).astype(F32)


def sqrt_inputs(seed):
    rng = np.random.default_rng(seed)
    xs = [specials(), rand_bits(rng, 20000), rand_bits(rng, 4000, hi=0x007FFFFF, signed=False),
          np.array([np.inf, -np.inf, -0.0, 0.0, -FI.smallest_subnormal], dtype=F32)]
    # powers of two (even and odd exponents, subnormal ones included)
    xs.append((2.0 ** np.arange(-149, 128)).astype(F32))
    # exact squares
    n = 4000
    c = rng.integers(1, 4096, n).astype(np.float64) * 2.0 ** rng.integers(-74, 52, n)
    xs.append((c * c).astype(F32))
    # squared midpoints m = c + ulp/2 of random results over the whole range
    # (m^2 has <= 50 bits: exact in float64), rounded down and up to f32
    n = 15000
    f = rng.integers(-75, 64, n)
    m = (rand_mant(rng, n) + 0.5) * 2.0 ** (f - 23)
    m2 = m * m
    x = m2.astype(F32)
    below = np.where(x.astype(np.float64) > m2, np.nextafter(x, F32(0)), x)
    above = np.where(x.astype(np.float64) < m2, np.nextafter(x, F32(np.inf)), x)
    xs += [below, above, np.nextafter(below, F32(0)), np.nextafter(above, F32(np.inf))]
    return np.concatenate(xs).astype(F32)


# --------------------------------------------------------------------------
# tests
# --------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [1, 2])
def test_div_fix_exact(seed):
    x, y = div_inputs(seed)
    with np.errstate(all="ignore"):
        ref = x / y
    check_fix("wg_div_fix_f32", (x, y), ref, np.random.default_rng(seed), "wg_div_fix_f32")


@pytest.mark.parametrize("seed", [1, 2])
def test_sqrt_fix_exact(seed):
    x = sqrt_inputs(seed)
    with np.errstate(all="ignore"):
        ref = np.sqrt(x)
    check_fix("wg_sqrt_fix_f32", (x,), ref, np.random.default_rng(seed), "wg_sqrt_fix_f32")


def test_div_plain():
    x, y = div_inputs(3)
    with np.errstate(all="ignore"):
        ref = x / y
    assert_bits_equal(gpu("wg_div_f32", x, y), ref, "wg_div_f32", x, y)


def test_sqrt_plain():
    x = sqrt_inputs(3)
    with np.errstate(all="ignore"):
        ref = np.sqrt(x)
    assert_bits_equal(gpu("wg_sqrt_f32", x), ref, "wg_sqrt_f32", x)


def test_documented_specials():
    nan, inf = np.nan, np.inf
    x = np.array([nan, 1.0, inf, 0.0, -0.0, 1.0, -1.0, inf, -inf, 1.0, -1.0, 0.0, 0.0,
                  FI.max, -FI.max, FI.smallest_subnormal, 3 * FI.smallest_subnormal], F32)
    y = np.array([1.0, nan, inf, 0.0, 0.0, 0.0, 0.0, -2.0, 3.0, inf, inf, -5.0, -inf,
                  0.5, 0.5, 2.0, 2.0], F32)
    got = gpu("wg_div_f32", x, y)
    with np.errstate(all="ignore"):
        assert_bits_equal(got, x / y, "wg_div_f32 specials", x, y)
    # ties in the subnormal range go to even: 2^-150 -> 0, 1.5 * 2^-149 -> 2^-148
    assert got[15] == 0 and got[16] == F32(2 * FI.smallest_subnormal)
    s = np.array([-1.0, -0.0, 0.0, inf, -inf, nan, FI.smallest_subnormal, -FI.smallest_subnormal],
                 F32)
    got = gpu("wg_sqrt_f32", s)
    assert np.isnan(got[[0, 4, 5, 7]]).all()
    assert got[1] == 0 and np.signbit(got[1]) and got[2] == 0 and not np.signbit(got[2])
    assert got[3] == inf
    with np.errstate(all="ignore"):
        assert_bits_equal(got, np.sqrt(s), "wg_sqrt_f32 specials", s)
