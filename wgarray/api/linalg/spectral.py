"""The spectral/orthogonal half of ``wg.linalg``: qr, eigh, eigvalsh, svd, svdvals, pinv, matrix_rank and the
singular-value matrix norms (Householder QR and Jacobi sweeps on the device; the README's linalg section says how)."""
from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from ... import dtypes as _dt
from ..._array import Array
from ...kernels import linalg_spectral as _k
from ...ops import core
from ...ops.elementwise import elementwise
from ...ops.matmul import matmul as _matmul
from ...ops.reduction import reduce
from ...ops.shape import broadcast_to, reshape
from ..creation import eye as _eye, full as _full, tril
from ..searching import where
from . import blockjac as _bj, embed as _embed, factor as _factor
from .factor import LinAlgError, _compute_dtype

# == the spectral/orthogonal half: qr, eigh, eigvalsh, svd, svdvals, pinv, matrix_rank, and matrix_norm's ord = 2,
# -2 and 'nuc'.  Host-side driving only: every number is computed by the kernels of kernels/linalg_spectral.py;
# the host issues their dispatches and reads one 4-byte convergence flag per Jacobi sweep.
# Choices (the README's linalg section says why):
# * qr: Householder reflectors, one dispatch for the reflector of column k and one for its product with the
#   trailing columns (all columns of all matrices of the stack in parallel); Q by backward accumulation.
# * eigh: cyclic two-sided Jacobi in round-robin order (n/2 disjoint rotations per dispatch pair), the relative
#   skip test |a_pq| <= tol sqrt(|a_pp a_qq|) so small eigenvalues keep their accuracy.
# * svd: one-sided (Hestenes) Jacobi on A itself (on A^T when A is wide), never on the Gram matrix; U from the
#   Householder QR of the sorted, mutually orthogonal columns A V, which also completes U to an orthonormal basis
#   (rank-deficient inputs, full_matrices=True) with no extra algorithm.
# * Non-finite input: a matrix holding NaN or inf gives all-NaN results for qr and eigh (as numpy's do).  The SVD
#   family (svd, svdvals, pinv, matrix_rank, matrix_norm 2/-2/nuc) follows ``errors()``: "raise" (the default)
#   checks the input first (one all-finite reduction and a 4-byte read) and raises numpy's LinAlgError("SVD did not
#   converge"); "nan" skips the check and gives all-NaN results for that matrix, as CuPy and cuSOLVER do.  A
#   non-square matrix for eigh raises LinAlgError.
# * Complex input (complex64, complex128): the same kernels on vec2 elements (linalg_scalar_complex.wgsl): zlarfg's
#   reflectors (R's diagonal real), Jacobi with complex rotations (the Hermitian 2x2 block's phase moved into the
#   sine), always on the scalar (rotation-set) path, also on GPUs; svdvals, pinv and matrix_rank keep the real
#   embedding (embed.py), which reaches the block path on GPUs.
QRResult = namedtuple("QRResult", ["Q", "R"])
EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])

MAX_SWEEPS = 40  # quadratic convergence takes 6-12 sweeps; the cap only bounds pathological (non-finite) inputs


# -- input and output --------------------------------------------------------------------------------------------
def _input(x, name: str, complex_ok: bool = False) -> Array:
    """x as an Array of at least 2 dimensions in its compute dtype, by the factorisations' one rule
    (``factor._compute_dtype``: integers and bool in float64 where the device has it, as numpy; float16 and
    complex refused)."""
    x = x if isinstance(x, Array) else core.asarray(x)
    dev = core.common_device([x])  # a closed device says so before any shape complaint
    if x.ndim < 2:
        raise LinAlgError(f"{name}: {x.ndim}-dimensional array given; the array must be at least two-dimensional")
    if complex_ok and x.dtype.kind == "c":
        return x
    cdt = _compute_dtype(x.dtype, dev)
    return x if cdt is x.dtype else core.astype(x, cdt)


def _eps(dt) -> float:
    return float(np.finfo(dt.numpy).eps)


def _column_major(x: Array, transpose: bool) -> Array:
    """A fresh C-order working copy: x.mT (the column-major layout of x) or x itself when ``transpose`` is False
    (the column-major layout of x.mT)."""
    return core.astype(x.mT if transpose else x, x.dtype, copy=True)


def _new(dev, shape, dt) -> Array:
    return core.new_array(tuple(shape), dt, dev)


def _nonfinite(x: Array, axes: int = 2) -> Array:
    """0 * max|x| over x's last ``axes`` axes: 0 where they hold finite values only, NaN where a NaN or inf."""
    return elementwise("multiply", reduce("max", elementwise("abs", x), tuple(range(x.ndim - axes, x.ndim))), 0)


def _poison(x: Array, outs: list[Array], ndims: list[int], bad: Array | None = None) -> list[Array]:
    """outs + 0 * max|x| per matrix (``bad``, when given, in its place: ``_nonfinite``'s per matrix): NaN throughout
    the results of a matrix that holds NaN or inf, unchanged otherwise (max|x| is finite for finite x)."""
    bad = _nonfinite(x) if bad is None else bad
    res = []
    for o, nd in zip(outs, ndims):
        b = reshape(bad, bad.shape + (1,) * nd)
        res.append(elementwise("add", o, b))
    return res


def _eye_stack(dev, lead: tuple, rows: int, cols: int, dt) -> Array:
    eye = _eye(rows, cols, dtype=dt, device=dev)
    return core.astype(broadcast_to(eye, lead + (rows, cols)), dt, copy=True)


def _zeros(dev, shape, dt) -> Array:
    return _full(tuple(shape), 0.0, dtype=dt, device=dev)


def _converge(dev, run_sweep, n: int) -> None:
    """Run Jacobi sweeps until one applies no rotation (one 4-byte read a sweep) or MAX_SWEEPS."""
    flag = _full((MAX_SWEEPS,), 0, dtype=_dt.uint32, device=dev)
    if n < 2:
        return
    for sweep in range(MAX_SWEEPS):
        run_sweep(flag, sweep)
        if int(flag.numpy()[sweep]) == 0:
            return


# -- qr ------------------------------------------------------------------------------------------------------------
def qr(x, /, *, mode: str = "reduced") -> QRResult:
    """QR factorization of each matrix: Q with orthonormal columns, R upper triangular, A = Q R.  ``mode``
    'reduced': Q (..., M, K), R (..., K, N) with K = min(M, N); 'complete': Q (..., M, M), R (..., M, N).
    Complex input: Q unitary, R's diagonal real (LAPACK's zgeqrf reflectors)."""
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr: mode must be 'reduced' or 'complete', not {mode!r}")
    x = _input(x, "qr", complex_ok=True)
    dev, dt = x.device, x.dtype
    lead, (m, n) = x.shape[:-2], x.shape[-2:]
    batch, k = math.prod(lead), min(m, n)
    qc = k if mode == "reduced" else m
    if batch == 0 or k == 0:
        return QRResult(_eye_stack(dev, lead, m, qc, dt), _zeros(dev, lead + (qc, n), dt))
    a = _column_major(x, True)
    tau = _new(dev, (batch * k,), dt)
    q, r = _new(dev, lead + (m, qc), dt), _new(dev, lead + (qc, n), dt)
    d1, d2 = _new(dev, (1,), dt), _new(dev, (1,), dt)
    _k.qr_factor(dev, a, tau, d1, batch, m, n)
    _k.qr_form_q(dev, a, tau, q, d1, batch, m, n, qc)
    _k.qr_extract_r(dev, a, tau, r, d2, batch, m, n, qc)
    q, r = _poison(x, [q, r], [2, 2])
    return QRResult(q, r)


# -- eigh ----------------------------------------------------------------------------------------------------------
def _eigh(x: Array, name: str, vectors: bool):
    dev, dt = x.device, x.dtype
    rdt = dt.component  # the eigenvalues' dtype (complex Hermitian input: real eigenvalues)
    cplx = dt.kind == "c"
    lead, (m, n) = x.shape[:-2], x.shape[-2:]
    if m != n:
        raise LinAlgError(f"{name}: last 2 dimensions of the array must be square, got {m} x {n}")
    batch = math.prod(lead)
    if batch == 0 or n == 0:
        return _zeros(dev, lead + (n,), rdt), _eye_stack(dev, lead, n, n, dt)
    a = _column_major(x, True)
    if not cplx and _bj.use_block(dev, "eigh", n):
        a, v = _bj.eigh(dev, a, batch, n, vectors)
    else:
        v = _new(dev, (batch * n * n,), dt)
        npairs = (n + (n & 1)) // 2
        cs = _new(dev, (2 * batch * npairs,), dt)
        flag0 = _full((MAX_SWEEPS,), 0, dtype=_dt.uint32, device=dev)
        _k.jacobi_init(dev, a, v, batch, n, cs, flag0, symmetrise=True)
        _converge(dev, lambda flag, s: _k.jacobi_sweep(dev, a, v, cs, flag, batch, n, n, s, two_sided=True), n)
    keys, w = _new(dev, (batch * n,), rdt), _new(dev, lead + (n,), rdt)
    perm = _new(dev, (batch * n,), _dt.uint32)
    _k.order(dev, a, keys, w, perm, batch, n, n, ascending_diagonal=True)
    if cplx:  # what is read: the strict lower triangle and the diagonal's real parts (its imaginary parts ignored),
        # checked apart: no matrix of the read part built (one batch x n^2 temporary and its |.|, n a matrix else)
        from . import diagonal
        bad = elementwise("add", _nonfinite(tril(x, -1)), _nonfinite(elementwise("real", diagonal(x)), 1))
    else:
        bad = _nonfinite(tril(x))
    if not vectors:
        return _poison(x, [w], [1], bad)[0], None
    vecs = _new(dev, lead + (n, n), dt)
    _k.permute_columns(dev, v, perm, vecs, keys, batch, n, n, transpose=True)
    w, vecs = _poison(x, [w, vecs], [1, 2], bad)
    return w, vecs


def eigh(x, /) -> EighResult:
    """Eigenvalues (ascending) and orthonormal eigenvectors (columns) of each symmetric matrix; like numpy, only
    the lower triangle is read.  Complex input: Hermitian (the diagonal's imaginary parts ignored), real
    eigenvalues and unitary eigenvectors."""
    w, v = _eigh(_input(x, "eigh", complex_ok=True), "eigh", True)
    return EighResult(w, v)


def eigvalsh(x, /) -> Array:
    """Eigenvalues (ascending) of each symmetric (Hermitian) matrix (lower triangle read; real, in x's real
    dtype, as numpy's).  Complex x: the complex Jacobi of eigh, except where the real path of twice the order
    takes the block Jacobi (GPUs, 2n >= blockjac.MIN_N['eigh']): there those of its interleaved embedding
    (embed.py), which has each of x's twice, adjacent once sorted; a pair's mean is taken."""
    x = _input(x, "eigvalsh", complex_ok=True)
    if x.dtype.kind == "c" and _bj.use_block(x.device, "eigh", 2 * x.shape[-1]):
        if x.shape[-1] != x.shape[-2]:
            raise LinAlgError(f"eigvalsh: last 2 dimensions of the array must be square, got {x.shape[-2:]}")
        w2 = eigvalsh(_embed.interleaved_hermitian(x))
        return elementwise("multiply", elementwise("add", w2[..., 0::2], w2[..., 1::2]), 0.5)
    return _eigh(x, "eigvalsh", False)[0]


# -- svd -----------------------------------------------------------------------------------------------------------
def _svd(x: Array, vectors: bool, full: bool):
    dev, dt = x.device, x.dtype
    rdt = dt.component  # the singular values' dtype
    cplx = dt.kind == "c"
    lead, (m, n) = x.shape[:-2], x.shape[-2:]
    batch = math.prod(lead)
    tall = m >= n
    rows, cols = (m, n) if tall else (n, m)  # G: rows x cols, column-major, cols <= rows
    if batch == 0 or cols == 0:
        s = _zeros(dev, lead + (cols,), rdt)
        if not vectors:
            return None, s, None
        return (_eye_stack(dev, lead, m, m if full else cols, dt), s,
                _eye_stack(dev, lead, n if full else cols, n, dt))
    if _factor.errors() == "raise" and not bool(reduce("all", elementwise("isfinite", x))):
        raise LinAlgError("SVD did not converge")  # numpy's message for a non-finite input
    g = _column_major(x, tall)
    dummy = _new(dev, (1,), dt)
    block = not cplx and _bj.use_block(dev, "svd", cols)
    if block:
        g, v = _bj.svd(dev, g, batch, rows, cols, vectors)
    else:
        v = _new(dev, (batch * cols * cols,), dt)
        flag0 = _full((MAX_SWEEPS,), 0, dtype=_dt.uint32, device=dev)
        _k.jacobi_init(dev, g, v, batch, cols, dummy, flag0, symmetrise=False)
        _converge(dev, lambda flag, sw: _k.jacobi_sweep(dev, g, v, dummy, flag, batch, rows, cols, sw,
                                                        two_sided=False, want_v=vectors), cols)
    keys, s = _new(dev, (batch * cols,), rdt), _new(dev, lead + (cols,), rdt)
    perm = _new(dev, (batch * cols,), _dt.uint32)
    _k.order(dev, g, keys, s, perm, batch, rows, cols, ascending_diagonal=False)
    if not vectors:
        return None, _poison(x, [s], [1])[0], None
    gs = _new(dev, (batch * cols * rows,), dt)
    _k.permute_columns(dev, g, perm, gs, keys, batch, cols, rows, transpose=False)
    # Vh of G (rows of V in the sorted order) when tall; U = V of G (its columns sorted) when wide.  Complex: G V =
    # U' S, so Vh = conj(V^T) when tall; when wide G = A^T = U' S V'^H, so A = conj(V') S U'^T: U = conj(V')
    vg = _new(dev, lead + (cols, cols), dt)
    _k.permute_columns(dev, v, perm, vg, keys, batch, cols, cols, transpose=not tall)
    if cplx:
        vg = elementwise("conj", vg)
    qc = rows if full else cols
    if block and qc == cols and _full_rank(s, rows):
        # the columns are orthogonal to the Jacobi's relative tolerance and none is (numerically) zero: U is
        # them normalised, with no 3n-dispatch Householder QR (kept for completion and rank-deficient input)
        q = elementwise("divide", reshape(gs, lead + (cols, rows)).mT, reshape(s, lead + (1, cols)))
    else:
        tau = _new(dev, (batch * cols,), dt)
        q = _new(dev, lead + (rows, qc), dt)
        _k.qr_factor(dev, gs, tau, dummy, batch, rows, cols)
        _k.qr_form_q(dev, gs, tau, q, dummy, batch, rows, cols, qc, fix_signs=True)
    u, vh = (q, vg) if tall else (vg, core.astype(q.mT, dt, copy=True))
    u, s, vh = _poison(x, [u, s, vh], [2, 1, 2])
    return u, s, vh


def _full_rank(s: Array, rows: int) -> bool:
    """Whether every matrix's smallest singular value exceeds rows * eps times its largest (matrix_rank's default
    cutoff; one reduction and a 4-byte read)."""
    cut = elementwise("multiply", reduce("max", s, -1, True), rows * _eps(s.dtype))
    return bool(reduce("all", elementwise("greater", s, cut)))


def svd(x, /, *, full_matrices: bool = True) -> SVDResult:
    """A = U diag(S) Vh for each matrix, S descending; U (..., M, M) and Vh (..., N, N) with ``full_matrices``,
    else (..., M, K) and (..., K, N), K = min(M, N).  Complex input: U and Vh unitary, S real."""
    x = _input(x, "svd", complex_ok=True)
    u, s, vh = _svd(x, True, bool(full_matrices))
    return SVDResult(u, s, vh)


def svdvals(x, /) -> Array:
    """Singular values of each matrix, descending (..., K); complex input through E(A) (embed.py), whose
    singular values are A's, each twice."""
    x = _input(x, "svdvals", complex_ok=True)
    if x.dtype.kind == "c":
        return svdvals(_embed.embed(x))[..., ::2]
    return _svd(x, False, False)[1]


# -- built on the svd ----------------------------------------------------------------------------------------------
def _cutoff(s: Array, rtol, m: int, n: int) -> Array:
    """rtol * max(S) per matrix, shape (..., 1); rtol defaults to max(M, N) * eps (the standard's default)."""
    if rtol is None:
        rtol = max(m, n) * _eps(s.dtype)
    smax = reduce("max", s, -1, True)
    if isinstance(rtol, Array):
        rtol = reshape(rtol, rtol.shape + (1,))
    return elementwise("multiply", smax, rtol)


def pinv(x, /, *, rtol=None) -> Array:
    """Moore-Penrose pseudo-inverse from the reduced svd: V diag(1/S where S > rtol max(S), else 0) U^T; complex
    input through pinv(E(A)) = E(pinv(A)) (embed.py), with A's default rtol."""
    x = _input(x, "pinv", complex_ok=True)
    lead, (m, n) = x.shape[:-2], x.shape[-2:]
    if math.prod(lead) == 0 or min(m, n) == 0:
        return _zeros(x.device, lead + (n, m), x.dtype)
    if x.dtype.kind == "c":
        if rtol is None:
            rtol = max(m, n) * _eps(_embed.real_dtype(x.dtype))
        return _embed.unstack_parts(pinv(_embed.embed(x), rtol=rtol)[..., :m], n, -2, x.dtype)
    u, s, vh = _svd(x, True, False)
    keep = elementwise("greater", s, _cutoff(s, rtol, m, n))
    sinv = where(keep, elementwise("divide", 1.0, s), 0.0)
    vs = elementwise("multiply", vh.mT, reshape(sinv, sinv.shape[:-1] + (1, sinv.shape[-1])))
    return _matmul(vs, u.mT)


def matrix_rank(x, /, *, rtol=None) -> Array:
    """Number of singular values above rtol * max(S) per matrix (default int dtype)."""
    x = _input(x, "matrix_rank", complex_ok=True)
    lead, (m, n) = x.shape[:-2], x.shape[-2:]
    if math.prod(lead) == 0 or min(m, n) == 0:
        return _full(lead, 0, dtype=_dt.default_int, device=x.device)
    s = svdvals(x)
    keep = elementwise("greater", s, _cutoff(s, rtol, m, n))
    return reduce("sum", keep, -1, False, _dt.default_int)


def singular_value_norm(x: Array, ord) -> Array:
    """matrix_norm's ord = 2 (largest singular value), -2 (smallest) and 'nuc' (their sum), over the last two
    dimensions (x already a float array of at least 2 dimensions)."""
    if min(x.shape[-2:]) == 0:
        raise ValueError(f"matrix_norm(ord={ord!r}) of an empty matrix is undefined")
    s = svdvals(x)
    return reduce({2: "max", -2: "min"}.get(ord, "sum"), s, -1)
