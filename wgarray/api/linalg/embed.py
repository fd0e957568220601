"""Complex matrices through the real linear-algebra kernels, by the real embedding

    E(A) = [[Re A, -Im A],
            [Im A,  Re A]]          (2m x 2n real for an m x n complex A).

Why it is exact: E is an injective *-homomorphism (E(AB) = E(A) E(B), E(A^H) = E(A)^T, E(I) = I), so
inv(E(A)) = E(inv(A)), pinv(E(A)) = E(pinv(A)) (the four Penrose conditions carry over and the pseudo-inverse is
unique), E(A) [Re x; Im x] = [Re b; Im b] exactly when A x = b, and the singular values of E(A) are those of A, each
twice.  Why this design: inv, solve, pinv, matrix_rank and svdvals keep one (real, tested) set of WGSL kernels; the
price is about twice the flops of native complex kernels ((2n)^3 real multiply-adds against n^3 complex ones of 4
real each) and 4x the working memory.  What it cannot give: the phase of det (det E(A) = |det A|^2), the complex
Cholesky/QR/eigen/singular vectors (E's factors are not embeddings of A's); those still refuse complex input.
Everything here is device work: real/imag parts, negation, concatenation and slicing are elementwise kernels and
copies.
"""
from __future__ import annotations

from ... import dtypes as _dt
from ..._array import Array
from ...ops import core
from ...ops.elementwise import elementwise
from ..manipulation import concat


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
    re = y[lead + (slice(0, n),)]
    im = y[lead + (slice(n, 2 * n),)]
    return elementwise("add", core.astype(re, cdt), elementwise("multiply", core.astype(im, cdt), 1j))
