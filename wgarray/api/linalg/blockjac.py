"""Block Jacobi for eigh and the svd of large matrices: host-side driving of ``kernels/linalg_spectral.py``'s
block phases and of the tuned matmul, which applies the rotations (the README's linalg section says why).

The columns (eigh: rows and columns) are split into 2k blocks of b, padded with zeros to N = 2kb.  A sweep is
2k - 1 steps; step s pairs the blocks in round-robin order and the working matrix X = [A or G^T | V^T] (one row
per column of A or G, so one matmul rotates both) is kept permuted so that pair i occupies rows [2ib, 2ib + 2b)
(the step's "slot order").  Per step, for all pairs of all matrices of the stack at once:
* eigh (two-sided): one dispatch permutes the previous step's A' and V'^T into this step's X and solves the k
  2b x 2b subproblems (J^T and the solved subproblem out), then two batched matmuls: [R | V'^T] = J^T X and
  A' = J^T R^T (= (R J)^T: symmetric up to rounding; the next permutation reads its lower triangle).
  3 dispatches a step.
* svd (one-sided on G = A or A^T, rows x cols): the permutation of [G'^T | V'^T], the pairs' Gram matrices
  P_i^T P_i by the matmul, the subproblems (two-sided Jacobi of each Gram matrix: its eigenvectors are the
  rotation that makes the panel's columns orthogonal), then [G'^T | V'^T] = J^T X.  4-5 dispatches a step (the
  Gram product may split K).
A 4-byte flag read a sweep ends the iteration when no subproblem rotated.
"""
from __future__ import annotations

import math

from ... import dtypes as _dt
from ..._array import Array
from ...kernels import linalg_spectral as _k
from ...ops.matmul import matmul as _matmul
from ..creation import full as _full

MAX_SWEEPS = 40
# The first sweep whose convergence flag is read (0: every sweep's).  Each read waits for the device, which then
# idles while Python records the next sweep (the H100's "rest", 27% of eigh 1024); sweeps past convergence are exact
# no-ops (no pair rotates: J = I, the products and permutations copy), so skipping the reads of the first sweeps
# costs only the sweeps a fast-converging input (diagonal, zero, tiny) runs in vain.  Random input takes 6-12.
# H100 2026-12-06 (``python -m benchmarks.spectral_sweep --ops eigh svd``, gpu_results s24/8/spec3.txt): 6 took eigh
# 1024 78.8 -> 68.7 ms (numpy 109.3) and the svd 143.8 -> 128.8 (numpy 342.0).
CHECK_FROM = 6
# Knobs (tests force the block path at small n through them): the block size b (None: the largest that fits the
# device's workgroup memory, ``kernels.linalg_spectral.block_size``), the n from which eigh / the svd take the
# block path on a GPU (the scalar Jacobi of ``linalg_jacobi.wgsl`` below it), and whether CPU (software) adapters
# take it at all: lavapipe runs each workgroup on one CPU thread, so the serial subproblem solves cost what the
# saved dispatches do not, and the scalar path measured faster there from n = 128 on (0.57x at 128, 0.35x at 256;
# the block path was faster at n = 32-48, below MIN_N).
BLOCK: int | None = None
MIN_N = {"eigh": 64, "svd": 64}
ON_CPU = False


def use_block(dev, kind: str, n: int) -> bool:
    if dev.properties.adapter_type == "CPU" and not ON_CPU:
        return False
    return n >= MIN_N[kind]


# The H200 (2026-12-02, `python -m benchmarks.spectral_block --sizes 64,256,1024 --blocks 16,32 --old`): b = 32 was
# faster at n = 64 (eigh 4.8 vs 10.0 ms, svd 6.9 vs 13.2; the scalar path 33 / 25 ms, hence MIN_N = 64), b = 16 at
# n = 256 (eigh 54.5 vs 62.6) and 1024 (eigh 175 vs 324 ms, svd 323 vs 394): beyond a few pairs the 2b x 2b solves'
# barrier steps cost more than the extra dispatches of smaller blocks.
# The H100 (2026-12-06, gpu_results/s24, `python -m benchmarks.spectral_sweep`): with one inner sweep a step
# (kernels.linalg_spectral.INNER_SWEEPS) b = 32 is the faster at n = 1024 (eigh 165 ms against 255 at b = 16 and 262
# at b = 8; svd 272 against 367 / 525): b = the largest that fits everywhere (``kernels.linalg_spectral.block_size``:
# 32 for float32, the largest of its BLOCK_CANDIDATES).


def _block(dev, dt, n: int) -> int:
    b = BLOCK if BLOCK is not None else _k.block_size(dev, dt)
    return max(1, min(b, -(-n // 2)))


def _view(x: Array, shape: tuple, strides: tuple | None = None) -> Array:
    return Array(x.mirror, shape, strides, x.offset)


def _new(dev, size: int, dt) -> Array:
    from ...ops.core import new_array
    return new_array((size,), dt, dev)


def _tol(dt, length: int | None) -> float:
    """The subproblems' skip threshold |a_pq| <= tol sqrt(|a_pp a_qq|): eigh 2 eps, as the scalar Jacobi; the svd's
    Gram entries come from the matmul's sequential sums over L (the column length), whose rounding is about
    sqrt(L) eps relative (L eps at worst), and each application of J adds some: the test does not chase below
    4 sqrt(L) + 8 eps (at 9 + L / 64 eps, the scalar kernel's, small-n block runs never stopped)."""
    eps = 2.220446049250313e-16 if dt.name == "float64" else 1.1920928955078125e-07
    return 2 * eps if length is None else eps * (4 * math.sqrt(length) + 8)


def _plan(dev, dt, batch: int, n: int, length: int | None,
          want_v: bool) -> tuple[_k.BlockShape, Array, list[Array]]:
    """The run's sizes for a batch of n columns (eigh: ``length`` None, the rows are the padded columns), the zeroed sweep
    flags and 5 one-element arrays for the bindings a phase does not use."""
    b = _block(dev, dt, n)
    w = 2 * b
    npad = -(-n // w) * w
    length = npad if length is None else length
    rl = -(-(length + (n if want_v else 0)) // 4) * 4
    flag = _full((MAX_SWEEPS,), 0, dtype=_dt.uint32, device=dev)
    return _k.BlockShape(batch, n, npad, length, rl, b), flag, [_new(dev, 1, dt) for _ in range(5)]


def _flagged(flag: Array, sweep: int) -> bool:
    return int(flag.numpy()[sweep]) != 0


def eigh(dev, a0: Array, batch: int, n: int, want_v: bool) -> tuple[Array, Array]:
    """The eigen-decomposition of the batch of symmetric n x n matrices a0 (column-major, lower triangle read):
    (d, v), d with the eigenvalues on the diagonal of n x n column-major matrices (only the diagonal is written),
    v the eigenvectors as the columns of n x n column-major matrices (unset without ``want_v``)."""
    dt = a0.dtype
    sh, flag, spare = _plan(dev, dt, batch, n, None, want_v)
    npad, rl, k, w = sh.npad, sh.rl, sh.k, 2 * sh.b
    r = 2 * k - 1
    tol = _tol(dt, None)
    vflag = 2 if want_v else 0
    x = _new(dev, batch * npad * rl, dt)
    _k.block_phase(dev, 0, True, sh, dict(am=a0, ao=x, flag=flag), spare, step=r - 1, threads=x.size)
    src = dict(am=x, vm=x)
    astr, use_sub = rl, 0
    for sweep in range(MAX_SWEEPS):
        for s in range(r):
            xs = _new(dev, batch * npad * rl, dt)
            j, sub = _new(dev, batch * k * w * w, dt), _new(dev, batch * k * w * w, dt)
            _k.block_phase(dev, 1, True, sh, dict(src, ao=xs, jo=j, subo=sub, flag=flag), spare, step=s,
                           threads=xs.size, sweep=sweep, flags=use_sub | vflag, tol=tol, sg=batch * k, astr=astr)
            jt = _view(j, (batch * k, w, w))
            y = _matmul(jt, _view(xs, (batch * k, w, rl)))  # [R | V'^T] = J^T [A | V^T]
            if batch == 1:
                ap = _matmul(jt, _view(y, (k, w, npad), (w, 1, rl)))  # A' = J^T R^T
            else:
                ap = _matmul(_view(j, (batch, k, w, w)), _view(y, (batch, k, w, npad), (npad * rl, w, 1, rl)))
            src = dict(am=ap, vm=y, subp=sub)
            astr, use_sub = npad, 1
        if sweep + 1 >= CHECK_FROM and not _flagged(flag, sweep):
            break
    d, v = _new(dev, batch * n * n, dt), _new(dev, batch * n * n, dt)
    _k.block_phase(dev, 2, True, sh, dict(src, ao=d, vo=v, flag=flag), spare, step=r - 1, threads=batch * n * n,
                   flags=1 | vflag, astr=npad)
    return d, v


def svd(dev, g: Array, batch: int, rows: int, cols: int, want_v: bool) -> tuple[Array, Array]:
    """One-sided block Jacobi of the batch of rows x cols matrices G (cols <= rows; g holds each column
    contiguous, cols x rows C order): (G V, V), G V with mutually orthogonal columns (same layout as g), V (cols x
    cols column-major; unset without ``want_v``)."""
    dt = g.dtype
    sh, flag, spare = _plan(dev, dt, batch, cols, rows, want_v)
    npad, rl, k, w, length = sh.npad, sh.rl, sh.k, 2 * sh.b, rows
    r = 2 * k - 1
    tol = _tol(dt, length)
    vflag = 2 if want_v else 0
    x = _new(dev, batch * npad * rl, dt)
    _k.block_phase(dev, 0, False, sh, dict(am=g, ao=x, flag=flag), spare, step=0, threads=x.size)
    y = None
    for sweep in range(MAX_SWEEPS):
        for s in range(r):
            if y is not None:
                x = _new(dev, batch * npad * rl, dt)
                _k.block_phase(dev, 1, False, sh, dict(am=y, vm=y, ao=x, flag=flag), spare, step=s, threads=x.size,
                               astr=rl)
            panel = _view(x, (batch * k, w, length), (w * rl, rl, 1))
            gram = _matmul(panel, _view(x, (batch * k, length, w), (w * rl, 1, rl)))
            j = _new(dev, batch * k * w * w, dt)
            _k.block_phase(dev, 1, False, sh, dict(am=gram, jo=j, flag=flag), spare, step=s, threads=0,
                           sweep=sweep, tol=tol, sg=batch * k)
            y = _matmul(_view(j, (batch * k, w, w)), _view(x, (batch * k, w, rl)))  # [G'^T | V'^T] = J^T [G^T | V^T]
        if sweep + 1 >= CHECK_FROM and not _flagged(flag, sweep):
            break
    assert y is not None
    out, v = _new(dev, batch * cols * length, dt), _new(dev, batch * cols * cols, dt)
    _k.block_phase(dev, 2, False, sh, dict(am=y, vm=y, ao=out, vo=v, flag=flag), spare, step=r - 1,
                   threads=batch * cols * length, flags=vflag, astr=rl)
    return out, v
