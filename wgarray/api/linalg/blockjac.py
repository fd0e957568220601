"""Block Jacobi for eigh and the svd of large matrices: host-side driving of ``kernels/linalg_spectral.py``'s
block phases and of the tuned matmul, which applies the rotations (the README's linalg section says why).

The columns (eigh: rows and columns) are split into 2k blocks of b, padded with zeros to N = 2kb.  A sweep is
2k - 1 steps; step s pairs the blocks in round-robin order and the working matrices are kept permuted so that
pair i occupies positions [2ib, 2ib + 2b) (the step's "slot order").  Per step, for all pairs of all matrices of
the stack at once:
* eigh (two-sided): one dispatch permutes A' and V'^T of the previous step into this step's order and solves the
  k 2b x 2b subproblems (J^T and the solved subproblem out), then three batched matmuls: R = J^T A (rows),
  A' = J^T R^T (= (R J)^T: A' is symmetric up to rounding, and the next permutation reads its lower triangle),
  V'^T = J^T V^T.  4 dispatches a step.
* svd (one-sided on G = A or A^T, rows x cols): the permutation of G'^T and V'^T, the pairs' Gram matrices
  P_i^T P_i by the matmul, the subproblems (two-sided Jacobi of each Gram matrix: its eigenvectors are the
  rotation that makes the panel's columns orthogonal), then G'^T = J^T G^T and V'^T = J^T V^T.  5-6 dispatches
  a step (the Gram product may split K).
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
# Knobs (tests force the block path at small n through them): the block size b (None: the largest that fits the
# device's workgroup memory, ``kernels.linalg_spectral.block_size``) and the n from which eigh / the svd take the
# block path (the scalar Jacobi of ``linalg_jacobi.wgsl`` below it, where it measures faster).
BLOCK: int | None = None
MIN_N = {"eigh": 128, "svd": 128}


def use_block(kind: str, n: int) -> bool:
    return n >= MIN_N[kind]


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


def _plan(dev, dt, n: int) -> tuple:
    """(b, 2b, N, k, 2k - 1 steps a sweep, the zeroed sweep flags, 5 distinct one-element dummies for the unused
    bindings of a phase) for n columns."""
    b = _block(dev, dt, n)
    w = 2 * b
    npad = -(-n // w) * w
    k = npad // w
    flag = _full((MAX_SWEEPS,), 0, dtype=_dt.uint32, device=dev)
    return b, w, npad, k, 2 * k - 1, flag, [_new(dev, 1, dt) for _ in range(5)]


def _flagged(flag: Array, sweep: int) -> bool:
    return int(flag.numpy()[sweep]) != 0


def eigh(dev, a0: Array, batch: int, n: int, want_v: bool) -> tuple[Array, Array]:
    """The eigen-decomposition of the batch of symmetric n x n matrices a0 (column-major, lower triangle read):
    (d, v), d with the eigenvalues on the diagonal of n x n column-major matrices (only the diagonal is written),
    v the eigenvectors as the columns of n x n column-major matrices (unset without ``want_v``)."""
    dt = a0.dtype
    b, w, npad, k, r, flag, dummies = _plan(dev, dt, n)
    tol = _tol(dt, None)
    ap, vp = _new(dev, batch * npad * npad, dt), _new(dev, batch * npad * n, dt) if want_v else dummies[4]
    _k.block_init(dev, a0, ap, vp, dummies[:3] + [dummies[3], flag], batch, n, npad, npad, b, r - 1, True, want_v)
    sub, use_sub = dummies[2], False
    for sweep in range(MAX_SWEEPS):
        for s in range(r):
            a_s = _new(dev, batch * npad * npad, dt)
            v_s = _new(dev, batch * npad * n, dt) if want_v else dummies[1]
            j, sub_s = _new(dev, batch * k * w * w, dt), _new(dev, batch * k * w * w, dt)
            _k.block_step(dev, ap, vp if want_v else dummies[0], sub, a_s, v_s, j, sub_s, flag, batch, n, npad,
                          npad, b, s, sweep, tol, True, True, True, use_sub, want_v)
            sub, use_sub = sub_s, True
            jt = _view(j, (batch * k, w, w))
            rr = _matmul(jt, _view(a_s, (batch * k, w, npad)))
            if batch == 1:
                rt = _view(rr, (k, w, npad), (w, 1, npad))
                ap = _matmul(jt, rt)
            else:
                rt = _view(rr, (batch, k, w, npad), (npad * npad, w, 1, npad))
                ap = _matmul(_view(j, (batch, k, w, w)), rt)
            if want_v:
                vp = _matmul(jt, _view(v_s, (batch * k, w, n)))
        if not _flagged(flag, sweep):
            break
    d, v = _new(dev, batch * n * n, dt), _new(dev, batch * n * n, dt) if want_v else dummies[4]
    _k.block_extract(dev, _view(ap, (ap.size,)), _view(vp, (vp.size,)) if want_v else dummies[0], sub, d, v,
                     [dummies[1], dummies[3], flag], batch, n, npad, npad, b, r - 1, True, True, want_v)
    return d, v


def svd(dev, g: Array, batch: int, rows: int, cols: int, want_v: bool) -> tuple[Array, Array]:
    """One-sided block Jacobi of the batch of rows x cols matrices G (cols <= rows; g holds each column
    contiguous, cols x rows C order): (G V, V), G V with mutually orthogonal columns (same layout as g), V (cols x
    cols column-major; unset without ``want_v``)."""
    dt = g.dtype
    n, length = cols, rows
    b, w, npad, k, r, flag, dummies = _plan(dev, dt, n)
    tol = _tol(dt, length)
    gt, vt = _new(dev, batch * npad * length, dt), _new(dev, batch * npad * n, dt) if want_v else dummies[4]
    _k.block_init(dev, g, gt, vt, dummies[:3] + [dummies[3], flag], batch, n, npad, length, b, 0, False, want_v)
    gp = vp = None
    for sweep in range(MAX_SWEEPS):
        for s in range(r):
            if gp is not None:
                gt = _new(dev, batch * npad * length, dt)
                vt = _new(dev, batch * npad * n, dt) if want_v else dummies[4]
                _k.block_step(dev, _view(gp, (gp.size,)), _view(vp, (vp.size,)) if want_v else dummies[0],
                              dummies[1], gt, vt, dummies[2], dummies[3], flag, batch, n, npad, length, b, s, sweep,
                              tol, False, False, True, False, want_v)
            panel = _view(gt, (batch * k, w, length))
            gram = _matmul(panel, _view(gt, (batch * k, length, w), (w * length, 1, length)))
            j = _new(dev, batch * k * w * w, dt)
            _k.block_step(dev, _view(gram, (gram.size,)), dummies[0], dummies[1], dummies[2], dummies[4], j,
                          dummies[3], flag, batch, n, npad, length, b, s, sweep, tol, False, True, False, False,
                          False)
            jt = _view(j, (batch * k, w, w))
            gp = _matmul(jt, panel)
            if want_v:
                vp = _matmul(jt, _view(vt, (batch * k, w, n)))
        if not _flagged(flag, sweep):
            break
    assert gp is not None
    out, v = _new(dev, batch * n * length, dt), _new(dev, batch * n * n, dt) if want_v else dummies[4]
    _k.block_extract(dev, _view(gp, (gp.size,)), _view(vp, (vp.size,)) if want_v and vp is not None else dummies[0],
                     dummies[1], out, v, [dummies[2], dummies[3], flag], batch, n, npad, length, b, r - 1, False,
                     False, want_v)
    return out, v
