"""Complex matrices through the real linear-algebra kernels, by the real embedding

    E(A) = [[Re A, -Im A],
            [Im A,  Re A]]          (2m x 2n real for an m x n complex A).

Why it is exact: E is an injective *-homomorphism (E(AB) = E(A) E(B), E(A^H) = E(A)^T, E(I) = I), so
inv(E(A)) = E(inv(A)), pinv(E(A)) = E(pinv(A)) (the four Penrose conditions carry over and the pseudo-inverse is
unique), E(A) [Re x; Im x] = [Re b; Im b] exactly when A x = b, and the singular values of E(A) are those of A, each
twice.  Why this design: inv, solve, pinv, matrix_rank and svdvals keep one (real, tested) set of WGSL kernels; the
price is about twice the flops of native complex kernels ((2n)^3 real multiply-adds against n^3 complex ones of 4
real each) and 4x the working memory.  What it cannot give in general: the phase of det (det E(A) = |det A|^2) and the
QR/eigen/singular vectors (E's factors are not embeddings of A's); those have native complex kernels (det:
``kernels.linalg_factor.lu_global``; qr, eigh, svd: the spectral shaders on vec2 elements).

The interleaved form M = P E(A) P^T (P interleaves real and imaginary parts: M[2i+a, 2j+b] is entry (a, b) of
the 2 x 2 block [[Re a_ij, -Im a_ij], [Im a_ij, Re a_ij]]) keeps triangles: M's lower triangle reads only A's
lower triangle (and the imaginary parts of A's diagonal, which a Hermitian matrix has as zeros), and a triangular
L with a real diagonal gives a triangular P E(L) P^T.  Hence, for Hermitian positive-definite A = L L^H, M =
(P E(L) P^T)(P E(L) P^T)^T with a lower-triangular factor of positive diagonal: by the uniqueness of the Cholesky
factor, cholesky(M) = P E(L) P^T, and L is read off its even columns.  M is similar to E(A), so its eigenvalues
are A's, each twice (eigvalsh).
Everything here is device work: real/imag parts, negation, concatenation and slicing are elementwise kernels and
copies.
"""
from __future__ import annotations

from ... import dtypes as _dt
from ..._array import Array
from ...ops import core
from ...ops.elementwise import elementwise
from ..creation import eye
from ..manipulation import concat, reshape, stack


def real_dtype(cdt: _dt.DType) -> _dt.DType:
    """float32 for complex64, float64 for complex128."""
    return _dt.float32 if cdt is _dt.complex64 else _dt.float64


def embed(x: Array) -> Array:
    """E(x) for a complex x of shape (..., m, n): the real (..., 2m, 2n) block matrix above."""
    re, im = elementwise("real", x), elementwise("imag", x)
    top = concat([re, elementwise("negative", im)], axis=-1)
    return concat([top, concat([im, re], axis=-1)], axis=-2)


def stack_parts(b: Array, axis: int) -> Array:
    """[Re b; Im b] along ``axis`` (the right-hand side that matches E(A))."""
    return concat([elementwise("real", b), elementwise("imag", b)], axis=axis)


def unstack_parts(y: Array, n: int, axis: int, cdt: _dt.DType) -> Array:
    """The complex array whose real part is the first n entries of y along ``axis`` (negative) and whose imaginary
    part is the next n: the inverse of stack_parts, and the first block column of an embedded result."""
    lead = (slice(None),) * (y.ndim + axis)
    return complex_from(y[lead + (slice(0, n),)], y[lead + (slice(n, 2 * n),)], cdt)


def complex_from(re: Array, im: Array, cdt: _dt.DType) -> Array:
    """re + 1j * im in the complex dtype ``cdt``."""
    return elementwise("add", core.astype(re, cdt), elementwise("multiply", core.astype(im, cdt), 1j))


def interleaved_hermitian(x: Array) -> Array:
    """M = P E(H) P^T (module docstring) for H, the Hermitian matrix of x's lower triangle: M's lower triangle
    reads x's lower triangle only, with the imaginary parts of x's diagonal taken as zero (numpy's Hermitian
    solvers ignore them too), so the real solvers, which read M's lower triangle, see H.  Shape (..., 2n, 2n)."""
    n = x.shape[-1]
    re, im = elementwise("real", x), elementwise("imag", x)
    im = _off_diagonal(im)
    rows = [stack([re, elementwise("negative", im)], axis=-1), stack([im, re], axis=-1)]  # (..., n, n, 2) each
    return reshape(stack(rows, axis=-3), x.shape[:-2] + (2 * n, 2 * n))  # (..., n, 2, n, 2) -> (..., 2n, 2n)


def _off_diagonal(x: Array) -> Array:
    """x with its diagonal set to zero (NaN and inf there too: a select, not a product with 1 - I)."""
    return elementwise("where", eye(x.shape[-1], dtype=_dt.bool, device=x.device), 0, x)


def triangle_from_interleaved(m: Array, cdt: _dt.DType) -> Array:
    """The complex triangular (..., n, n) matrix L with a real diagonal whose interleaved embedding m is (m's even
    columns: Re from the even rows, Im from the odd rows; the diagonal's imaginary part, zero in exact arithmetic,
    is dropped rather than left as rounding noise)."""
    return complex_from(m[..., 0::2, 0::2], _off_diagonal(m[..., 1::2, 0::2]), cdt)
