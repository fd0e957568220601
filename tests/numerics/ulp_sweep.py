"""Accuracy sweep of the float32 transcendental functions against numpy (float64 reference rounded to float32):
per function the largest error in ulps and the points beyond 4 ulp, split by whether an input or the exact result
is subnormal (what a device that flushes subnormals does not promise).  A runnable module, not a test (pytest does
not collect it; importing it runs nothing):

    python -m tests.numerics.ulp_sweep     # from the repository root, on the default device (WGARRAY_ADAPTER picks another)
"""
from __future__ import annotations

import numpy as np

import wgarray as wg

F = {"exp": (-110, 89), "exp2": (-150, 128), "expm1": (-20, 89), "log": (0, 3e38), "log2": (0, 3e38),
     "log10": (0, 3e38), "log1p": (-0.99, 3e38), "sin": (-1e4, 1e4), "cos": (-1e4, 1e4), "tan": (-1e4, 1e4),
     "tanh": (-20, 20), "sinh": (-89, 89), "cosh": (-89, 89), "asinh": (-1e30, 1e30), "acosh": (1, 1e30),
     "atanh": (-0.999, 0.999), "asin": (-1, 1), "acos": (-1, 1), "atan": (-1e30, 1e30)}
NP = {"asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "asinh": np.arcsinh, "acosh": np.arccosh,
      "atanh": np.arctanh}
tiny = np.finfo(np.float32).tiny


def sweep(rng, lo, hi, n=1 << 18):
    a = rng.uniform(lo, hi, n).astype(np.float32)
    bits = rng.integers(0, 1 << 31, n, dtype=np.uint32).view(np.float32)  # random positive bit patterns
    bits = bits[(bits >= lo) & (bits <= hi)] if lo >= 0 else np.concatenate([bits[bits <= hi], -bits[-bits >= lo]])
    return np.concatenate([a, bits]).astype(np.float32)


def report(name, x, got, want):
    ok = np.isfinite(want) & np.isfinite(got)
    sp = np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)
    with np.errstate(invalid="ignore"):
        err = np.where(ok, np.abs(got.astype(np.float64) - want.astype(np.float64)) / sp, 0)
    bad = err > 4
    sub_out = np.abs(want) < tiny
    sub_in = np.abs(x) < tiny
    mism = (np.isfinite(want) != np.isfinite(got)).sum()
    print(f"{name:6s} n={x.size} max_ulp={err.max():.1f} >4ulp={bad.sum()} ({bad.mean()*100:.2f}%) "
          f"of which subnormal_out={(bad & sub_out).sum()} sub_in={(bad & sub_in).sum()} finite_mismatch={mism}")
    nb = bad & ~sub_out & ~sub_in
    if nb.any():
        idx = np.argsort(-np.where(nb, err, 0))[:6]
        for i in idx:
            if nb[i]:
                print(f"     x={x[i]!r} got={got[i]!r} want={want[i]!r} ulp={err[i]:.1f}")


def main() -> None:
    dev = wg.default_device()
    print(dev, "flushes_subnormals", dev.flushes_subnormals)
    rng = np.random.default_rng(0)
    for name, (lo, hi) in F.items():
        x = sweep(rng, lo, hi)
        if name in ("log", "log2", "log10"):
            x = x[x > 0]
        got = getattr(wg, name)(wg.asarray(x)).numpy()
        with np.errstate(all="ignore"):
            want = NP.get(name, getattr(np, name, None))(x.astype(np.float64)).astype(np.float32)
        report(name, x, got, want)
    # pow
    x = np.abs(sweep(rng, 0, 100))
    y = rng.uniform(-30, 30, x.size).astype(np.float32)
    got = wg.pow(wg.asarray(x), wg.asarray(y)).numpy()
    with np.errstate(all="ignore"):
        want = np.power(x.astype(np.float64), y.astype(np.float64)).astype(np.float32)
    report("pow", x, got, want)


if __name__ == "__main__":
    main()
