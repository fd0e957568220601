"""The Array API ``fft`` extension (``wg.fft``, also importable as ``wgarray.fft``), 2024.12 signatures.

Every transform is computed on the device in WGSL (``kernels/fft.py``: Stockham passes, Bluestein's algorithm,
real-transform twiddle kernels, device-computed twiddle tables); the n-D transforms are successive 1-D
transforms over the axes, in numpy's order (last axis first).  ``fftfreq``/``rfftfreq`` are device ramps times
the host-computed scalar 1/(n d), as numpy computes them; the shifts are ``roll``.

Input dtypes: complex and real floating arrays as the standard asks (real input to the complex transforms
transforms in the complex dtype of its precision); integer and bool input, which numpy accepts, in the default
floating dtype (numpy: complex128).  ``rfft``/``rfftn``/``ihfft`` of complex input raise TypeError.
"""
from __future__ import annotations

import operator

from .. import dtypes as _dt
from .._array import Array
from ..ops import axes as _axes, core, fft as _fft
from ..ops.elementwise import elementwise
from .manipulation import roll

__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq",
           "rfftfreq", "fftshift", "ifftshift"]


# -- one dimension -------------------------------------------------------------------------------------------------
def fft(x: Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Array:
    """The 1-D discrete Fourier transform along ``axis`` (zero-padded or truncated to n)."""
    return _fft.c2c(x, n, axis, norm, inverse=False)


def ifft(x: Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Array:
    """The 1-D inverse discrete Fourier transform along ``axis``."""
    return _fft.c2c(x, n, axis, norm, inverse=True)


def rfft(x: Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Array:
    """The n // 2 + 1 non-negative frequency terms of the transform of a real array."""
    return _fft.r2c(x, n, axis, norm)


def irfft(x: Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Array:
    """The real inverse of ``rfft``: n (default 2 (m - 1)) real values from m coefficients."""
    return _fft.c2r(x, n, axis, norm)


def hfft(x: Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Array:
    """The transform of a signal with Hermitian symmetry (given by its first half): real output of length n."""
    x = core.as_array(x)
    _fft.check_norm(norm)
    return _fft.c2r(_conj(x), n, axis, _fft.swap_norm(norm))


def ihfft(x: Array, /, *, n: int | None = None, axis: int = -1, norm: str = "backward") -> Array:
    """The inverse of ``hfft``: the n // 2 + 1 coefficients of a real signal's Hermitian transform."""
    x = core.as_array(x)
    _fft.check_norm(norm)
    if x.dtype.kind == "c":
        raise TypeError(f"ihfft needs real input, not {x.dtype.name}")
    return elementwise("conj", _fft.r2c(x, n, axis, _fft.swap_norm(norm)))


def _conj(x: Array) -> Array:
    return elementwise("conj", x) if x.dtype.kind == "c" else x


# -- n dimensions --------------------------------------------------------------------------------------------------
def _lengths_axes(x: Array, s, axes, inverse_real: bool = False) -> tuple[list, list[int]]:
    """numpy's rules for (s, axes): all axes when both are None, the last len(s) axes when only s is given; an
    entry -1 of s (or the default) takes the input's length; irfftn's last default is 2 (m - 1)."""
    if axes is None:
        axes_t = list(range(x.ndim)) if s is None else list(range(-len(s), 0))
    else:
        axes_t = list(axes) if isinstance(axes, (tuple, list)) else [axes]
    ax = [_axes.axis(a, x.ndim) if x.ndim else _fft._axis(x, a) for a in axes_t]
    if s is None:
        lengths: list = [None] * len(ax)
    else:
        lengths = list(s) if isinstance(s, (tuple, list)) else [s]
        if len(lengths) != len(ax):
            raise ValueError("Shape and axes have different lengths.")
        lengths = [None if (v is not None and not isinstance(v, bool) and hasattr(v, "__index__")
                            and operator.index(v) == -1) else v for v in lengths]
    if inverse_real and ax and lengths[-1] is None:
        lengths[-1] = 2 * (x.shape[ax[-1]] - 1)
    return lengths, ax


def _nd(x: Array, s, axes, norm, inverse: bool) -> Array:
    x = core.as_array(x)
    _fft.check_norm(norm)
    lengths, ax = _lengths_axes(x, s, axes)
    out = x
    for n, a in reversed(list(zip(lengths, ax))):
        out = _fft.c2c(out, n, a, norm, inverse)
    if not ax:  # no axes: numpy returns the input converted to the transform's dtype
        out = core.astype(x, _fft.complex_for(x.dtype))
    return out


def fftn(x: Array, /, *, s=None, axes=None, norm: str = "backward") -> Array:
    """The n-D discrete Fourier transform over ``axes`` (successive 1-D transforms)."""
    return _nd(x, s, axes, norm, inverse=False)


def ifftn(x: Array, /, *, s=None, axes=None, norm: str = "backward") -> Array:
    """The n-D inverse discrete Fourier transform."""
    return _nd(x, s, axes, norm, inverse=True)


def rfftn(x: Array, /, *, s=None, axes=None, norm: str = "backward") -> Array:
    """The n-D transform of a real array: rfft over the last of ``axes``, then fft over the others."""
    x = core.as_array(x)
    _fft.check_norm(norm)
    if x.dtype.kind == "c":
        raise TypeError(f"rfftn needs real input, not {x.dtype.name} (use fftn for complex input)")
    lengths, ax = _lengths_axes(x, s, axes)
    if not ax:
        raise ValueError("rfftn needs at least one axis")
    out = _fft.r2c(x, lengths[-1], ax[-1], norm)
    for n, a in reversed(list(zip(lengths[:-1], ax[:-1]))):
        out = _fft.c2c(out, n, a, norm, inverse=False)
    return out


def irfftn(x: Array, /, *, s=None, axes=None, norm: str = "backward") -> Array:
    """The inverse of ``rfftn``: ifft over all but the last of ``axes``, then irfft over the last."""
    x = core.as_array(x)
    _fft.check_norm(norm)
    lengths, ax = _lengths_axes(x, s, axes, inverse_real=True)
    if not ax:
        raise ValueError("irfftn needs at least one axis")
    out = x
    for n, a in zip(lengths[:-1], ax[:-1]):
        out = _fft.c2c(out, n, a, norm, inverse=True)
    return _fft.c2r(out, lengths[-1], ax[-1], norm)


# -- frequencies and shifts ----------------------------------------------------------------------------------------
def _freq_args(n, d, dtype, device):
    if isinstance(n, bool) or not hasattr(n, "__index__"):
        raise TypeError(f"n must be an integer, not {type(n).__name__}")
    n = operator.index(n)
    dt = _dt.default_float if dtype is None else _dt.as_dtype(dtype)
    if dt.kind != "f":
        raise TypeError(f"fftfreq's dtype must be a real floating dtype, not {dt.name}")
    dev = core.resolve_device(device)
    return n, 1.0 / (n * d), dt, dev


def _scaled_ramp(out: Array, pieces, val: float) -> Array:
    for view, start in pieces:
        if view.size:
            core.ramp(view, start, 1, view.dtype)
    return elementwise("multiply", out, val)


def fftfreq(n: int, /, d: float = 1.0, *, dtype=None, device=None) -> Array:
    """The sample frequencies of a length-n transform: [0, 1, ..., -(n // 2), ..., -1] / (d n)."""
    n, val, dt, dev = _freq_args(n, d, dtype, device)
    out = core.new_array((n,), dt, dev)
    pos = (n - 1) // 2 + 1
    return _scaled_ramp(out, [(out[:pos], 0), (out[pos:], -(n // 2))], val)


def rfftfreq(n: int, /, d: float = 1.0, *, dtype=None, device=None) -> Array:
    """The non-negative sample frequencies of a length-n real transform: [0, 1, ..., n // 2] / (d n)."""
    n, val, dt, dev = _freq_args(n, d, dtype, device)
    out = core.new_array((n // 2 + 1,), dt, dev)
    return _scaled_ramp(out, [(out, 0)], val)


def _shift(x: Array, axes, sign: int) -> Array:
    x = core.as_array(x)
    if axes is None:
        ax = list(range(x.ndim))
    else:
        ax = list(_axes.axes(axes, x.ndim)) if x.ndim else list(_axes.axes(axes, 0))
    if not ax:
        return core.astype(x, x.dtype, copy=True)
    return roll(x, tuple(sign * (x.shape[a] // 2) for a in ax), axis=tuple(ax))


def fftshift(x: Array, /, *, axes=None) -> Array:
    """The zero-frequency term moved to the centre (roll by n // 2 along each of ``axes``, default all)."""
    return _shift(x, axes, 1)


def ifftshift(x: Array, /, *, axes=None) -> Array:
    """The inverse of ``fftshift`` (roll by -(n // 2))."""
    return _shift(x, axes, -1)
