"""The LU pivots on the right-hand sides alone (``kernels/linalg_factor.py`` ``swap``, LAPACK's laswp): the global
kernel against the workgroup-memory forms (``SWAP_SHARED``; in place or ``SWAP_PERM_SHARED``; ``SWAP_COLS``), at
solve's shape (n x 16, the pivots in order) and inv's (the n x n result's columns, ``x.mT``, the last pivot first),
next to torch's row gather by the equivalent permutation (``x[perm]``: what the swaps amount to, precomputed).

    python -m benchmarks.swapsh_sweep            # n = 4096 and 1024 (the GPU run, well within 150 s)
    python -m benchmarks.swapsh_sweep --small    # n = 256 and 128 (lavapipe)

One line a (shape, variant): the best microseconds of one launch (``--inner`` launches back to back a synchronised
sample, best of ``--reps``), the ratio torch / it (> 1: wgarray faster), and "ok" where the result equals numpy's
laswp bit for bit.  How to read it: the fastest of swap_shared* that beats "swap_shared_off" at both n for a shape
is what the default (None knobs, ``kernels/linalg_factor.py`` SWAP_SHARED / SWAP_PERM_SHARED / SWAP_COLS) should
take there.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

VARIANTS: dict[str, dict] = {
    "default": {},
    "swap_shared_off": {"SWAP_SHARED": False},
    "swap_shared": {"SWAP_SHARED": True},
    "swap_shared_inplace": {"SWAP_SHARED": True, "SWAP_PERM_SHARED": False},
    "swap_shared_perm": {"SWAP_SHARED": True, "SWAP_PERM_SHARED": True},
    "swap_shared_c1": {"SWAP_SHARED": True, "SWAP_PERM_SHARED": False, "SWAP_COLS": 1},
    "swap_shared_c2": {"SWAP_SHARED": True, "SWAP_PERM_SHARED": False, "SWAP_COLS": 2},
    "swap_shared_perm_c4": {"SWAP_SHARED": True, "SWAP_PERM_SHARED": True, "SWAP_COLS": 4},
    "swap_shared_perm_c32": {"SWAP_SHARED": True, "SWAP_PERM_SHARED": True, "SWAP_COLS": 32},
}


def knobs(settings: dict):
    """The linalg_factor knob settings in force inside the block (linbig_sweep's ``knobs`` with its ("K", name) keys)."""
    from benchmarks.linbig_sweep import knobs as _knobs
    return _knobs({("K", k): v for k, v in settings.items()})


def permutation(piv: np.ndarray, reverse: bool) -> np.ndarray:
    """The rows' permutation the pivots make: row i of the result is row perm[i] of the input."""
    perm = np.arange(len(piv))
    for j in (range(len(piv) - 1, -1, -1) if reverse else range(len(piv))):
        r = piv[j]
        perm[j], perm[r] = perm[r], perm[j]
    return perm


def best(call, sync, inner: int, reps: int) -> float:
    """Best seconds a call: ``inner`` calls back to back, then one sync, best of ``reps`` samples (after a warm-up;
    wgarray.__main__'s timer)."""
    from wgarray.__main__ import _time
    return _time(call, sync, repeat=reps, inner=inner)


def torch_gather(x: np.ndarray, perm: np.ndarray, cols: bool, inner: int, reps: int) -> float | None:
    try:
        import torch
        if not torch.cuda.is_available():
            return None
    except Exception:
        return None
    xt, pt = torch.from_numpy(x).cuda(), torch.from_numpy(perm).cuda()
    return best((lambda: xt[:, pt]) if cols else (lambda: xt[pt]), torch.cuda.synchronize, inner, reps)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", action="store_true", help="n = 256 and 128 (lavapipe)")
    ap.add_argument("--sizes", type=int, nargs="+")
    ap.add_argument("--variants", nargs="+", choices=list(VARIANTS))
    ap.add_argument("--inner", type=int, default=10)
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args(argv)
    import wgarray as wg
    from wgarray.kernels import linalg_factor as K
    dev = wg.default_device()
    print(f"device: {dev}")
    t0 = time.perf_counter()
    rng = np.random.default_rng(0)
    for n in args.sizes or ([256, 128] if args.small else [4096, 1024]):
        piv = np.array([rng.integers(j, n) for j in range(n)], dtype=np.uint32)
        pw = wg.asarray(piv[None])
        for shape, k, reverse in (("solve", 16, False), ("inv", n, True)):
            x = rng.standard_normal((n, k)).astype(np.float32)
            perm = permutation(piv, reverse)
            # solve: the rows of X (n x 16) permuted; inv: the columns of X (n x n), i.e. the rows of X.mT
            want = x[:, perm] if shape == "inv" else x[perm]
            t_t = torch_gather(x, perm, shape == "inv", args.inner, args.reps)
            print(f"\n== {shape} shape n={n} ({'x.mT, reversed' if shape == 'inv' else f'{k} columns, in order'}): "
                  f"torch gather {f'{t_t * 1e6:.1f} us' if t_t else '-'}")
            for name in args.variants or list(VARIANTS):
                with knobs(VARIANTS[name]):
                    xw = wg.asarray(x[None])
                    view = xw.mT if shape == "inv" else xw
                    cols, form = K.swap_shared_cols(dev, view.dtype, n, view.shape[2], 1)
                    call = lambda: K.swap(dev, pw, view, n, 0, n, reverse=reverse)  # noqa: E731
                    call()
                    ok = xw.numpy()[0].tobytes() == want.tobytes()
                    t = best(call, dev.synchronize, args.inner, args.reps)
                kind = f"shared {'perm' if form else 'in place'} c{cols}" if cols else "global"
                vt = f"{t_t / t:>8.3f}x" if t_t else f"{'-':>9}"
                print(f"  {name:22} {t * 1e6:>10.1f} us {vt}  {kind:22} {'ok' if ok else 'WRONG'}")
    print(f"\ntotal {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
