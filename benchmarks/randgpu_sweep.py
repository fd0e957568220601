"""standard_normal float32 variants against torch.randn (issue 17 row 5): ``python -m benchmarks.randgpu_sweep
[--small]``.

Times, in one process, ``rng.standard_normal(n, dtype=float32)`` for n = 2^22 and 2^26 with the default (the knobs
of ``wgarray/kernels/random.py`` as imported: std, the blocks kernel at blocks=1 wg=256 up to
``NORMAL_F32_BLOCKS_MAX`` = 2^22 elements, elementwise above) and with: on the elementwise path the affine rows
(0 + 1 * z) and the std row; on the blocks kernel at any size (``NORMAL_F32_KERNEL = "blocks"``,
``NORMAL_F32_BLOCKS`` x ``NORMAL_F32_WG``, ``NORMAL_F32_BLOCKS_MAX = 0``) std at blocks 1/2/4 x workgroup
128/256/512 and at 1/256 with the counter's carry chain (``NORMAL_F32_NOCARRY = False``; the other rows drop it
where the counter cannot wrap: the same bits); each against torch.randn in the same process when a CUDA torch
imports.  For context: Philox alone (raw bits, the ``random_bits`` row), random() (uniform), and ``x + 0`` of the
same size.  Timing: benchmarks/timing.py's ``measure_all``, all cases of a size interleaved, each sample many
back-to-back calls and one synchronisation, best of the samples.  A variant that raises prints ERROR and is
skipped.

Checks, untimed, at the first size, per variant: the default's bits exactly (the same std setting) or its values
(std on one side only: a -0.0 may become +0.0); every draw's mean and variance within 6 sigma of N(0, 1).  A failed
check prints FAIL on the variant's line.

One line a case: ``<label> 2^e: <ms> ms  <GB/s>  vs default <default/ours>  vs torch.randn <torch/ours>`` (the
target is vs torch >= 0.8 at 2^26).  ``--small``: 2^16 and 2^18 (lavapipe, ~15 s).  About 60-90 s on an H100/H200
(pipeline compiles and the 2^22 checks included)."""
from __future__ import annotations

import sys

import numpy as np

import wgarray as wg
from wgarray.kernels import random as kr

from benchmarks.timing import Case, measure_all

DEFAULT = (kr.NORMAL_F32_STD, kr.NORMAL_F32_BLOCKS, kr.NORMAL_F32_WG, kr.NORMAL_F32_KERNEL, kr.NORMAL_F32_NOCARRY,
           kr.NORMAL_F32_BLOCKS_MAX)
# the elementwise path: the affine rows and the std row
VARIANTS = [(std, 1, 256, "elementwise", True, 0) for std in (False, True)]
# the blocks kernel at any size (the default's bits) at every blocks x workgroup size
VARIANTS += [(True, b, w, "blocks", True, 0) for b in (1, 2, 4) for w in (128, 256, 512)]
VARIANTS += [(True, 1, 256, "blocks", False, 0)]  # the counter's carry chain kept
if DEFAULT not in VARIANTS:
    VARIANTS.insert(0, DEFAULT)


def _set(std: bool, blocks: int, wg_size: int, kernel: str, nocarry: bool, most: int) -> None:
    kr.NORMAL_F32_STD = std
    kr.NORMAL_F32_BLOCKS, kr.NORMAL_F32_WG, kr.NORMAL_F32_KERNEL = blocks, wg_size, kernel
    kr.NORMAL_F32_NOCARRY, kr.NORMAL_F32_BLOCKS_MAX = nocarry, most


def _label(std: bool, blocks: int, wg_size: int, kernel: str, nocarry: bool, most: int) -> str:
    tag = " (default)" if (std, blocks, wg_size, kernel, nocarry, most) == DEFAULT else ""
    lay = f" blocks={blocks} wg={wg_size}" if kernel == "blocks" or (blocks, wg_size) != (1, 256) else ""
    upto = f" <=2^{most.bit_length() - 1}" if kernel == "blocks" and most else ""
    return f"normal{' std' if std else ' affine'}{lay}{upto}{'' if nocarry else ' carry'}{tag}"


def _draw(var, n: int, seed: int = 7):
    _set(*var)
    try:
        return wg.random.default_rng(seed).standard_normal(n, dtype=wg.float32)
    finally:
        _set(*DEFAULT)


def _check(std: bool, z: np.ndarray, ref: np.ndarray) -> str:
    """'' when a variant's (std setting std) draw z is right against the default's ref, else why not."""
    n = len(z)
    bad = []
    if abs(float(z.mean(dtype=np.float64))) > 6 / n ** 0.5 or abs(float(z.var(dtype=np.float64)) - 1) > 6 * 2 ** .5 / n ** .5:
        bad.append(f"stats mean {z.mean():.2e} var {z.var():.5f}")
    if std != DEFAULT[0]:
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
        _draw((False, 2, 256, "blocks", True, 0), n)
    finally:
        kr._draw_blocks = real
    print(f"2^{e}: the blocks kernel {'runs' if used and used[0] else 'does NOT run (elementwise fallback)'} for the "
          f"blocks= rows (storage binding limit {dev.properties.limits.max_storage_buffer_binding_size >> 20} MiB)")
    for var in VARIANTS:
        if check:
            try:
                fails[_label(*var)] = _check(var[0], _draw(var, n).numpy().copy(), ref)
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


def main(argv: list[str]) -> int:
    small = "--small" in argv
    dev = wg.default_device()
    print(f"wgarray device: {dev}; default NORMAL_F32_STD={DEFAULT[0]} NORMAL_F32_BLOCKS={DEFAULT[1]} "
          f"NORMAL_F32_WG={DEFAULT[2]} NORMAL_F32_KERNEL={DEFAULT[3]!r} NORMAL_F32_NOCARRY={DEFAULT[4]} "
          f"NORMAL_F32_BLOCKS_MAX={DEFAULT[5]}")
    torch = None if small else _torch()
    for k, e in enumerate((16, 18) if small else (22, 26)):
        run(e, torch, 0.02 if small else 0.05, check=k == 0)  # answers checked at the first size
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
