"""standard_normal float32 variants against torch.randn (issue 17 row 5): ``python -m benchmarks.randgpu_sweep
[--small]``.

Times, in one process, ``rng.standard_normal(n, dtype=float32)`` for n = 2^22 and 2^26 with the default (the knobs
of ``wgarray/kernels/random.py`` as imported: "exact" "unrolled" std, the blocks kernel at blocks=1 wg=256 up to
``NORMAL_F32_BLOCKS_MAX`` = 2^22 elements, elementwise above) and with: on the elementwise path the former defaults
("exact" "loop", 0 + 1 * z; "exact" "unrolled"), "fma" and "builtin" (both unrolled std); on the blocks kernel at any size
(``NORMAL_F32_KERNEL = "blocks"``, ``NORMAL_F32_BLOCKS`` x ``NORMAL_F32_WG``, ``NORMAL_F32_BLOCKS_MAX = 0``) "exact
unrolled std" at blocks 1/2/4 x workgroup 128/256/512 and at 1/256 with the counter's carry chain
(``NORMAL_F32_NOCARRY = False``; the other rows drop it where the counter cannot wrap: the same bits), "fma" at
1/512 and "builtin" at 2/256 (the floor of this design); each against
torch.randn in the same process when a CUDA torch imports.  For context: Philox alone (raw bits, the
``random_bits`` row), random() (uniform), and ``x + 0`` of the same size.  Timing: benchmarks/timing.py's
``measure_all``, all cases of a size interleaved, each sample many back-to-back calls and one synchronisation, best
of the samples.  The first line says whether the device's WGSL fma is fused; the second counts, stage by stage,
the "fma" transforms' values that differ from the host emulation (ln's polynomial p, -z/2, y = fma(f z, p, -z/2),
ln, sqrt; all 0 where the fma variant keeps the cross-device guarantee; then the first differing logarithms, if
any; needs tests/api/test_random.py importable, i.e. pytest and hypothesis).  A variant that raises prints ERROR
and is skipped.

Checks, untimed, at the first size, per variant: the "exact" rows give the default's bits exactly (the
same std setting) or its values (std on one side only: a -0.0 may become +0.0); "fma" within 8 ulp of the default
(other roundings of the same algorithms; its bits against the host emulation: ``pytest tests/api/test_random.py -k
fma``); "builtin" (driver-dependent bits, never a default) within 1e-4; every draw's mean and variance within 6
sigma of N(0, 1).  A failed check prints FAIL on the variant's line.

One line a case: ``<label> 2^e: <ms> ms  <GB/s>  vs default <default/ours>  vs torch.randn <torch/ours>`` (the
target is vs torch >= 0.8 at 2^26).  ``--small``: 2^16 and 2^18 (lavapipe, ~15 s).  About 60-90 s on an H100/H200
(pipeline compiles and the 2^22 checks included)."""
from __future__ import annotations

import sys

import numpy as np

import wgarray as wg
from wgarray.kernels import random as kr

from benchmarks.timing import Case, measure_all

DEFAULT = (kr.NORMAL_F32, kr.NORMAL_F32_PHILOX, kr.NORMAL_F32_STD, kr.NORMAL_F32_BLOCKS, kr.NORMAL_F32_WG,
           kr.NORMAL_F32_KERNEL, kr.NORMAL_F32_NOCARRY, kr.NORMAL_F32_BLOCKS_MAX)
# the elementwise path: the former defaults, the defaults' steps, the fma transform, the builtin floor
VARIANTS = [(t, p, std, 1, 256, "elementwise", True, 0) for t, p, std in (
    ("exact", "loop", False), ("exact", "unrolled", False), ("exact", "unrolled", True),
    ("fma", "unrolled", True),
    ("builtin", "unrolled", True))]
# the blocks kernel at any size: "exact unrolled std" (the default's bits) at every blocks x workgroup size, the
# others at one or two
VARIANTS += [("exact", "unrolled", True, b, w, "blocks", True, 0) for b in (1, 2, 4) for w in (128, 256, 512)]
VARIANTS += [("exact", "unrolled", True, 1, 256, "blocks", False, 0)]  # the counter's carry chain kept
VARIANTS += [("fma", "unrolled", True, 1, 512, "blocks", True, 0),
             ("builtin", "unrolled", True, 2, 256, "blocks", True, 0)]
if DEFAULT not in VARIANTS:
    VARIANTS.insert(0, DEFAULT)


def _set(t: str, p: str, std: bool, blocks: int, wg_size: int, kernel: str, nocarry: bool, most: int) -> None:
    kr.NORMAL_F32, kr.NORMAL_F32_PHILOX, kr.NORMAL_F32_STD = t, p, std
    kr.NORMAL_F32_BLOCKS, kr.NORMAL_F32_WG, kr.NORMAL_F32_KERNEL = blocks, wg_size, kernel
    kr.NORMAL_F32_NOCARRY, kr.NORMAL_F32_BLOCKS_MAX = nocarry, most


def _label(t: str, p: str, std: bool, blocks: int, wg_size: int, kernel: str, nocarry: bool, most: int) -> str:
    tag = " (default)" if (t, p, std, blocks, wg_size, kernel, nocarry, most) == DEFAULT else ""
    lay = f" blocks={blocks} wg={wg_size}" if kernel == "blocks" or (blocks, wg_size) != (1, 256) else ""
    upto = f" <=2^{most.bit_length() - 1}" if kernel == "blocks" and most else ""
    return f"normal {t} {p}{' std' if std else ''}{lay}{upto}{'' if nocarry else ' carry'}{tag}"


def _draw(var, n: int, seed: int = 7):
    _set(*var)
    try:
        return wg.random.default_rng(seed).standard_normal(n, dtype=wg.float32)
    finally:
        _set(*DEFAULT)


def _check(v: str, std: bool, z: np.ndarray, ref: np.ndarray) -> str:
    """'' when variant (transform v, std)'s draw z is right against the default's ref, else why not."""
    n = len(z)
    bad = []
    if abs(float(z.mean(dtype=np.float64))) > 6 / n ** 0.5 or abs(float(z.var(dtype=np.float64)) - 1) > 6 * 2 ** .5 / n ** .5:
        bad.append(f"stats mean {z.mean():.2e} var {z.var():.5f}")
    if v == "builtin":
        err = float(np.abs(z.astype(np.float64) - ref).max())
        if err > 1e-4:
            bad.append(f"max |diff| vs default {err:.2e}")
    elif v == "fma":  # other roundings of the same algorithms: a few ulp of the default's values
        ulps = np.abs(z.astype(np.float64) - ref) / np.maximum(np.spacing(np.abs(ref)), 2.0 ** -149)
        if ulps.max() > 8:
            bad.append(f"{ulps.max():.0f} ulp from the default")
    elif std != DEFAULT[2]:
        if not np.array_equal(z, ref):  # values (+0.0 == -0.0)
            bad.append(f"{int((z != ref).sum())} values differ from the default")
    elif not np.array_equal(z.view(np.uint32), ref.view(np.uint32)):
        bad.append(f"{int((z.view(np.uint32) != ref.view(np.uint32)).sum())} bit patterns differ from the default")
    return "; ".join(bad)


def _torch():
    try:
        import torch
        if torch.cuda.is_available():
            return torch
    except Exception:  # noqa: BLE001 - any broken torch: no torch column
        pass
    return None


def run(e: int, torch, target_s: float, check: bool) -> None:
    n = 1 << e
    dev = wg.default_device()
    cases, fails = [], {}
    if check:
        ref = _draw(DEFAULT, n).numpy().copy()
    used = []
    real = kr._draw_blocks
    kr._draw_blocks = lambda *a: used.append(real(*a)) or used[-1]
    try:
        _draw(("exact", "loop", False, 2, 256, "blocks", True, 0), n)
    finally:
        kr._draw_blocks = real
    print(f"2^{e}: the blocks kernel {'runs' if used and used[0] else 'does NOT run (elementwise fallback)'} for the "
          f"blocks= rows (storage binding limit {dev.properties.limits.max_storage_buffer_binding_size >> 20} MiB)")
    for var in VARIANTS:
        if check:
            try:
                fails[_label(*var)] = _check(var[0], var[2], _draw(var, n).numpy().copy(), ref)
            except Exception as err:  # noqa: BLE001 - one broken variant must not stop the others
                print(f"{_label(*var)}: ERROR {type(err).__name__}: {str(err)[:300]}", flush=True)
                continue

        def call(_, var=var):
            _set(*var)
            g.standard_normal(n, dtype=wg.float32)
        cases.append(Case(_label(*var), call, dev.synchronize))
    g = wg.random.default_rng(1)
    bits = wg.empty(n, dtype=wg.uint32)
    cases.append(Case("context: philox only (raw bits)", lambda _: kr.draw(dev, "random_bits", [1, 2], [0, 0, 0, 0], [],
                                                                           bits), dev.synchronize))
    cases.append(Case("context: random() uniform", lambda _: g.random(n, dtype=wg.float32), dev.synchronize))
    x = wg.zeros(n, dtype=wg.float32)
    cases.append(Case("context: x + 0 (4 B read + 4 B written)", lambda _: x + 0.0, dev.synchronize))
    if torch is not None:
        cases.append(Case("torch.randn", lambda _: torch.randn(n, dtype=torch.float32, device="cuda"),
                          torch.cuda.synchronize))
        zt = torch.randn(n, dtype=torch.float32, device="cuda")
        print(f"torch.randn 2^{e}: mean {float(zt.mean()):.2e} var {float(zt.var()):.5f}")
    try:
        t = measure_all(cases, repeat=5, budget_s=3.0, target_s=target_s,
                        on_error=lambda c, err: print(f"{c.name}: ERROR {type(err).__name__}: {str(err)[:300]}", flush=True))
    finally:
        _set(*DEFAULT)
    base = t[_label(*DEFAULT)].best
    tt = t["torch.randn"].best if "torch.randn" in t else None
    for c in cases:
        if c.name == "torch.randn" or c.name not in t:  # torch's line last; a case that raised was dropped
            continue
        b = t[c.name].best
        vs_t = f"vs torch.randn {tt / b:.3f}" if tt else "vs torch.randn n/a"
        fail = fails.get(c.name, "")
        print(f"{c.name:62s} 2^{e}: {b * 1e3:8.4f} ms {4 * n / b / 1e9:8.1f} GB/s  vs default {base / b:.3f}  "
              f"{vs_t}{'  FAIL ' + fail if fail else ''}", flush=True)
    if tt:
        print(f"{'torch.randn':62s} 2^{e}: {tt * 1e3:8.4f} ms {4 * n / tt / 1e9:8.1f} GB/s", flush=True)


_STAGES = """
    let ix = bitcast<i32>(x) - 0x3f3504f3;
    let f = bitcast<f32>((ix & 0x007fffff) + 0x3f3504f3) - 1.0;
    let z = f * f;
    let q = wg_rv_lnpoly_fma(f, nc);
    p = q;
    b = -0.5 * z;
    y = wg_rv_fma(wg_rand_keep_f32(f * z, nc), q, -0.5 * z, nc);
    l = wg_rv_ln_fma(x, nc);
    r = wg_rv_sqrt_fma(v, nc);"""


def fma_stages(dev) -> None:
    """The "fma" transforms on this device against the host emulation (a once-rounded fma), stage by stage for ln
    (the Horner polynomial p, -z/2, y = fma(f z, p, -z/2), ln), then sqrt: mismatch counts, and the first
    differing logarithms (0 everywhere: the
    fma variant keeps the cross-device guarantee here; pytest tests/api/test_random.py -k fma is the test)."""
    sys.path.insert(0, "tests/api")
    try:
        import test_random as tr
    except Exception as e:  # noqa: BLE001 - no pytest/hypothesis here: skip the probe
        print(f"fma stages: skipped ({e})")
        return
    code = kr._CODE["fma" if kr.fma_fused(dev) else "fmaexact"]
    k = wg.ElementwiseKernel("float32 x, float32 v, uint32 nc",
                             "float32 p, float32 b, float32 y, float32 l, float32 r", _STAGES,
                             f"rand_fma_stages{kr.fma_fused(dev)}", preamble=code)
    w, _, v = tr._transform_inputs(3, 1 << 15)
    x = tr._open(w)
    got = [a.numpy() for a in k(*(wg.asarray(a) for a in (x, v)), wg.zeros(len(x), dtype=wg.uint32))]
    f32 = np.float32
    ix = x.view(np.int32).astype(np.int64) - 0x3F3504F3
    f = ((ix & 0x7FFFFF) + 0x3F3504F3).astype(np.uint32).view(f32) - f32(1)
    z = f * f
    p = tr._horner(tr._LN_P, f, tr._fma32)
    want = [p, -(f32(0.5) * z), tr._fma32(f * z, p, -(f32(0.5) * z)), tr._ln_emul(x, tr._fma32),
            tr._sqrt_emul(v, tr._fma32)]
    bad = [int((g.view(np.uint32) != wt.astype(f32).view(np.uint32)).sum()) for g, wt in zip(got, want)]
    print(f"fma stages (fused {kr.fma_fused(dev)}), elements differing from the host emulation of {len(x)}: "
          + ", ".join(f"{n} {b}" for n, b in zip(("ln p", "ln -z/2", "ln y", "ln", "sqrt"), bad)), flush=True)
    for i in np.flatnonzero(got[3].view(np.uint32) != want[3].view(np.uint32))[:3]:
        print(f"  ln differs at x = {x[i]!r} (bits {int(x.view(np.uint32)[i]):#x}): device {got[3][i]!r} host "
              f"{want[3][i]!r}; p {got[0][i]!r} / {want[0][i]!r}, y {got[2][i]!r} / {want[2][i]!r}", flush=True)


def main(argv: list[str]) -> int:
    small = "--small" in argv
    dev = wg.default_device()
    print(f"wgarray device: {dev}; default NORMAL_F32={DEFAULT[0]!r} NORMAL_F32_PHILOX={DEFAULT[1]!r} "
          f"NORMAL_F32_STD={DEFAULT[2]} NORMAL_F32_BLOCKS={DEFAULT[3]} NORMAL_F32_WG={DEFAULT[4]} "
          f"NORMAL_F32_KERNEL={DEFAULT[5]!r} NORMAL_F32_NOCARRY={DEFAULT[6]} NORMAL_F32_BLOCKS_MAX={DEFAULT[7]}; "
          f"WGSL fma fused (one rounding): {kr.fma_fused(dev)}")
    try:
        fma_stages(dev)
    except Exception as err:  # noqa: BLE001 - the probe is informative only: the timings go on
        print(f"fma stages: failed ({type(err).__name__}: {err})", flush=True)
    torch = None if small else _torch()
    for k, e in enumerate((16, 18) if small else (22, 26)):
        run(e, torch, 0.02 if small else 0.05, check=k == 0)  # answers checked at the first size
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
