"""The native complex linalg kernels (det, slogdet, qr, eigh, svd on complex64) timed next to the same calls on
float32 (the real kernels, same n) and torch's complex64 (cuSOLVER, when CUDA is there), each answer checked.

    python -m benchmarks.complexlin_sweep            # the GPU run (<= 150 s on an H100/H200)
    python -m benchmarks.complexlin_sweep --small    # small sizes (lavapipe)

One line a (op, shape, variant): best synchronised ms a call, ratio to torch's complex64 call (> 1: wgarray
faster), and the answer's relative backward error (det: |det - numpy's| / |numpy's|; qr ||A - QR|| / ||A||; eigh
||A V - V W|| / ||A||; svd ||A - U S Vh|| / ||A||; "BAD" above 1e-3).  Variants: "complex64" (the native complex
path, the only one there is: no knob), "float32" (the real kernels on a real matrix of the same shape: what the
complex path costs against them; the real eigh/svd take the block Jacobi on GPUs from n = 64, complex never does).
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from benchmarks.linalg_big import _time

OPS = ("det", "slogdet", "qr", "eigh", "svd")


def _matrix(shape, dt):
    rng = np.random.default_rng(21)
    a = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    n = shape[-1]
    return (a / np.sqrt(n) + 2 * np.eye(n)).astype(dt)  # det stays in range


def _hermitian(a):
    return (a + np.conj(np.swapaxes(a, -1, -2))) / 2


def _frob(x):
    return np.sqrt((np.abs(x) ** 2).sum())


def _error(op: str, a: np.ndarray, got) -> float:
    a = a.astype(np.complex128)
    if op == "det":
        want = np.linalg.det(a)
        return float(np.max(np.abs(got.numpy() - want) / np.abs(want)))
    if op == "slogdet":
        return float(np.max(np.abs(got.logabsdet.numpy() - np.linalg.slogdet(a).logabsdet)))
    if op == "qr":
        q, r = (t.numpy().astype(np.complex128) for t in got)
        return float(_frob(a - q @ r) / _frob(a))
    if op == "eigh":
        w, v = (t.numpy().astype(np.complex128) for t in got)
        h = _hermitian(a)
        return float(_frob(h @ v - v * w[..., None, :]) / _frob(h))
    u, s, vh = (t.numpy().astype(np.complex128) for t in got)
    return float(_frob(a - (u * s[..., None, :]) @ vh) / _frob(a))


def _wg_call(wg, op: str, x):
    f = {"det": wg.linalg.det, "slogdet": wg.linalg.slogdet, "qr": wg.linalg.qr, "eigh": wg.linalg.eigh,
         "svd": lambda v: wg.linalg.svd(v, full_matrices=False)}[op]
    return f(x)


def _torch_call(torch, op: str, x):
    f = {"det": torch.linalg.det, "slogdet": torch.linalg.slogdet, "qr": torch.linalg.qr, "eigh": torch.linalg.eigh,
         "svd": lambda v: torch.linalg.svd(v, full_matrices=False)}[op]
    return f(x)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--small", action="store_true", help="lavapipe sizes")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--budget", type=float, default=2.0, help="seconds a measured case at most")
    args = ap.parse_args(argv)
    import wgarray as wg
    dev = wg.default_device()
    try:
        import torch
        cuda = torch.cuda.is_available()
    except Exception:
        torch, cuda = None, False
    shapes = [(16, 8, 8), (1, 32, 32)] if args.small else [(1000, 8, 8), (1, 64, 64), (1, 256, 256)]
    start = time.perf_counter()
    print(f"device: {dev}  torch: {'cuda' if cuda else 'absent'}")
    print(f"{'op':8} {'shape':>14} {'variant':10} {'ms':>10} {'torch ms':>9} {'x torch':>8} {'error':>10}")
    for shape in shapes:
        for op in OPS:
            tms = None
            base = _matrix(shape, np.complex64)
            if op == "eigh":
                base = _hermitian(base).astype(np.complex64)
            if cuda:
                tx = torch.from_numpy(base).cuda()
                tms = _time(lambda: _torch_call(torch, op, tx), torch.cuda.synchronize, args.reps, args.budget) * 1e3
            for variant in ("complex64", "float32"):
                a = base if variant == "complex64" else np.ascontiguousarray(base.real)
                x = wg.asarray(a)
                err = _error(op, a, _wg_call(wg, op, x))
                ms = _time(lambda: _wg_call(wg, op, x), dev.synchronize, args.reps, args.budget) * 1e3
                ratio = f"{tms / ms:8.3f}" if tms else f"{'-':>8}"
                tcol = f"{tms:9.3f}" if tms else f"{'-':>9}"
                flag = " BAD" if not err <= 1e-3 else ""
                print(f"{op:8} {'x'.join(map(str, shape)):>14} {variant:10} {ms:10.3f} {tcol} {ratio} {err:10.2e}{flag}",
                      flush=True)
    print(f"total {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
