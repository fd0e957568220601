"""Elementwise ops: dtype decisions (cached per operand dtypes), launch of the one generic kernel, in-place ops.

The decisions come from the op's row in ``kernels/ewtable.py``: accepted kinds, result rule, compute rule, and
whether the first operand is a condition (``where``).  ``binary`` is the hot path of ``a + b`` (a cached recipe per
operand layouts), ``elementwise_fast`` that of the other calls with decided dtypes.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from .. import dtypes as _dt
from .._array import Array
from ..alloc.mirror import Mirror
from ..dtypes import DType
from ..kernels import elementwise as _ew, launch
from ..kernels.ewtable import OPS as EW_OPS
from .core import SCALARS, check_supported, fill, new_array, operands as _operands, scalar_for, unalias
from .shape import broadcast_shapes

_DECISIONS: dict = {}
COMPARISONS = ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal")


def _decide(name: str, key: tuple):
    """dtype decisions of an elementwise op, from its operands' dtypes (arrays) and Python types (scalars).

    A condition operand (``op.condition``: where's first) is bool and plays no part in promotion; a Python
    scalar there is bool on its own, every other Python scalar takes the arrays' dtype."""
    op = EW_OPS[name]
    first = 1 if op.condition else 0  # operands that promote start here
    if op.condition and isinstance(key[0], DType) and key[0] is not _dt.bool:
        raise TypeError(f"{name}: condition must be a bool array, not {key[0].name}")
    rest = [k for k in key[first:] if isinstance(k, DType)]
    adt = _dt.result_type(*rest) if rest or not op.condition else None
    scalar_dts = [None if isinstance(k, DType) else _dt.scalar_dtype(k(), None if j < first else adt)
                  for j, k in enumerate(key)]
    if op.condition and scalar_dts[0] not in (None, _dt.bool):
        raise TypeError(f"{name}: condition must be bool, not a Python {key[0].__name__}")
    op_dts = [k if isinstance(k, DType) else sd for k, sd in zip(key, scalar_dts)]
    promoted = _dt.result_type(*op_dts[first:])
    if op.compute == "bool":
        cdt = _dt.bool
    else:
        cdt = promoted
        if op.result == "float" and cdt.kind not in "fc":
            cdt = _dt.default_float
        if cdt.kind not in op.kinds:
            raise TypeError(f"{name} is not defined for {promoted.name} input")
    # a numpy scalar (strong: it took part in promotion with its own dtype) travels converted to the compute dtype
    scalar_dts = [(_dt.bool if j < first else cdt) if sd is not None and issubclass(key[j], np.generic) else sd
                  for j, sd in enumerate(scalar_dts)]
    out_dt = _dt.bool if op.result == "bool" else cdt.component if op.real else cdt
    cdts = [_dt.bool] + [cdt] * (op.arity - 1) if op.condition else None
    if name in COMPARISONS and sorted(d.kind for d in op_dts) in (["f", "i"], ["f", "u"]):
        cdts = list(op_dts)  # each operand in its own type: the kernel compares an integer and a float exactly
    needs = tuple(d for d in {cdt, out_dt, *op_dts} if d.feature is not None)
    return op, scalar_dts, cdt, cdts, out_dt, needs


def _plan(name: str, args: Sequence[Any]):
    """Operands, compute dtype(s), result dtype, shape and device for an elementwise op."""
    op = EW_OPS[name]
    if len(args) != op.arity:
        raise TypeError(f"{name} takes {op.arity} arrays, got {len(args)}")
    args, dev = _operands(args)
    key = (name, *[a.dtype if isinstance(a, Array) else type(a) for a in args])
    decision = _DECISIONS.get(key)
    if decision is None:
        decision = _DECISIONS[key] = _decide(name, key[1:])
    op, scalar_dts, cdt, cdts, out_dt, needs = decision
    for d in needs:
        check_supported(d, dev)
    operands = [a if sd is None else scalar_for(a, sd) for a, sd in zip(args, scalar_dts)]
    shape = broadcast_shapes(name, [a.shape for a in args if isinstance(a, Array)])
    return op, operands, cdt, cdts, out_dt, shape, dev


_PY_SCALARS = (int, float, bool, complex)

# Fusion's hook (``ops/fusion.py`` sets it): records the op into a trace when an operand is a traced value, or
# into a deferred expression inside ``wg.lazy()`` (then ``LAZY`` is non-zero and the fast path steps aside).
# It returns NotImplemented for an op it leaves to the eager path.
DEFER = None
LAZY = 0


def elementwise(name: str, *args, dtype: DType | None = None) -> Array:
    """A new array holding op(args); ``dtype`` overrides the result dtype (clip keeps x's dtype)."""
    if name in COMPARISONS:
        out = _compare_special(name, args)
        if out is not None:
            return out
    if dtype is None:
        out = elementwise_fast(name, args)
        if out is not None:
            return out
    if DEFER is not None:
        out = DEFER(name, args, dtype)
        if out is not NotImplemented:
            return out
    op, operands, cdt, cdts, out_dt, shape, dev = _plan(name, args)
    out = new_array(shape, out_dt if dtype is None else dtype, dev)
    _ew.run(dev, op, operands, out, cdt, cdts)
    return out


def elementwise_fast(name: str, args) -> Array | None:
    """The common case on the hot path: Arrays of one open device and Python scalars, dtype decisions already
    cached.  Returns None to defer to the general path (which also raises the errors)."""
    if len(args) == 2 and type(args[0]) is Array is type(args[1]):  # the commonest: two arrays
        return binary(name, args[0], args[1])
    return _fast(name, args, None)


def binary(name: str, a: Array, b: Array) -> Array | None:
    """``elementwise_fast`` of two Arrays (binary operators call it directly): a recipe's launch when the device
    has one for these layouts, else the fast path that records one."""
    ma, mb = a.mirror, b.mirror
    dev = ma.device
    rkey = (_RECIPE, name, ma.dtype, ma.size, a.shape, a.strides, a.offset, mb.dtype, mb.size, b.shape, b.strides,
            b.offset, ma is mb)
    recipe = dev.plans.get(rkey)
    if recipe is None or LAZY or mb.device is not dev or dev.stream.closed:
        return _fast(name, (a, b), rkey)
    kernel, prefix, grid, work, out_dt, shape, size = recipe
    m = Mirror(out_dt, size, dev)
    out = Array._contiguous(m, shape)
    buffers = [ma.buffer(), m.buffer_for_write(True)] if ma is mb else [ma.buffer(), mb.buffer(),
                                                                          m.buffer_for_write(True)]
    launch.dispatch(dev, kernel, buffers, prefix, grid=grid, work=work)
    return out


def _fast(name: str, args, rkey: tuple | None) -> Array | None:
    """``elementwise_fast`` without a recipe; ``rkey``: the recipe key of two Arrays, recorded after the launch."""
    if LAZY:
        return None
    if rkey is not None:
        a, b = args
        ma, mb = a.mirror, b.mirror
        dev = ma.device
        decision = _DECISIONS.get((name, ma.dtype, mb.dtype))
        if decision is None or mb.device is not dev:
            return None
        shape = a.shape
        if b.shape != shape:
            shape = broadcast_shapes(name, [shape, b.shape])
        operands = args  # no scalar operands to convert
    else:
        key, dev, shape, same_shape = _fast_key(name, args)
        if key is None or name in COMPARISONS:  # comparisons with scalars: by value (_compare_special)
            return None
        decision = _DECISIONS.get(key)
        if dev is None or decision is None:
            return None
        if not same_shape:
            shape = broadcast_shapes(name, [a.shape for a in args if type(a) is Array])
        operands = None
    op, scalar_dts, cdt, cdts, out_dt, needs = decision
    if dev.stream.closed or needs and any(d.feature not in dev.features for d in needs):
        return None
    if operands is None:
        operands = args if not any(scalar_dts) else [
            a if sd is None else scalar_for(a, sd) for a, sd in zip(args, scalar_dts)]
    size = math.prod(shape)
    if not 0 < size <= _FITS_ANY_DEVICE and not (
            0 < size * out_dt.device_itemsize <= dev.properties.limits.max_buffer_size):
        return None  # too large, or empty (the general path checks the shape)
    out = Array._contiguous(Mirror(out_dt, size, dev), shape)
    plan = _ew.run(dev, op, operands, out, cdt, cdts)
    if rkey is not None and plan is not None and not (plan.chunks or plan.scalar_order) and plan.out_whole == (True,):
        dev.plans[rkey] = (plan.kernel, plan.prefix, plan.grid, plan.work, out_dt, shape, size)
    return out


# A recipe: all of a repeated two-array op on one device (``c = a + b`` in a loop), keyed by the op's name and both
# operands' dtypes and layouts (and whether they share a base): the result's dtype, shape and size and the plan
# that ``kernels.elementwise.run`` made for them.  A hit skips the dtype decision, the broadcast and run's plan key
# (a layout tuple per operand and output, about half of the op's Python); what is left per op is the result array,
# its pooled block and the dispatch.  Kept only for one-launch plans with no scalar operand and a fresh output
# written whole, in the device's plan cache (cleared with it; a recipe's key starts with this marker, run's keys
# with an op name).
_RECIPE = object()

# elements that fit one buffer on every device: WebGPU guarantees 256 MiB buffers, elements take at most 16 bytes
_FITS_ANY_DEVICE = (256 << 20) // 16


# x OP v  <=>  v SWAP[OP] x
_SWAP = {"equal": "equal", "not_equal": "not_equal", "less": "greater", "less_equal": "greater_equal",
         "greater": "less", "greater_equal": "less_equal"}


def _compare_special(name: str, args) -> Array | None:
    """Comparisons numpy 2 answers by value, not by a cast: ``x == None`` (elementwise False; ``!=`` True), and an
    integer array against a Python or numpy scalar (int out of the dtype's range, float with a fraction, NaN or
    inf), answered from the scalar's exact value.  None when the ordinary kernel gives the exact answer."""
    if len(args) != 2:
        return None
    a, b = args
    if a is None or b is None:
        other = b if a is None else a
        if name not in ("equal", "not_equal") or other is None:
            return None
        x = other if isinstance(other, Array) else _operands([other])[0][0]
        return _constant(name == "not_equal", x.shape, x.device)
    if isinstance(a, Array) and isinstance(b, SCALARS):
        x, v = a, b
    elif isinstance(b, Array) and isinstance(a, SCALARS):
        x, v, name = b, a, _SWAP[name]
    else:
        return None
    if x.dtype.kind not in "iu" or isinstance(v, (bool, np.bool_)):
        return None
    lo, hi = (int(t) for t in (np.iinfo(x.dtype.numpy).min, np.iinfo(x.dtype.numpy).max))
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if math.isnan(f):
            return _constant(name == "not_equal", x.shape, x.device)
        if math.isinf(f):
            below = f > 0  # every integer is below +inf
            return _constant({"equal": False, "not_equal": True, "less": below, "less_equal": below,
                              "greater": not below, "greater_equal": not below}[name], x.shape, x.device)
        if f != int(f):
            if name in ("equal", "not_equal"):
                return _constant(name == "not_equal", x.shape, x.device)
            # x < f <=> x < ceil(f);  x <= f <=> x <= floor(f);  x > f <=> x > floor(f);  x >= f <=> x >= ceil(f)
            c = math.ceil(f) if name in ("less", "greater_equal") else math.floor(f)
        else:
            c = int(f)
    else:
        c = int(v)
    if lo <= c <= hi:
        return None if isinstance(v, (int, np.integer)) else elementwise(name, x, c)
    above = c > hi  # the bound lies beyond every value of x on one side: every element answers alike
    answer = {"equal": False, "not_equal": True, "less": above, "less_equal": above,
              "greater": not above, "greater_equal": not above}[name]
    return _constant(answer, x.shape, x.device)


def _constant(value: bool, shape, dev) -> Array:
    out = new_array(shape, _dt.bool, dev)
    fill(out, value)
    return out


def _fast_key(name: str, args):
    """(decision key, device, shape of the first array, whether all arrays share it) for arrays of one device and
    Python scalars; (None, ...) for anything else."""
    key = [name]
    dev = None
    shape = None
    same_shape = True
    for a in args:
        t = type(a)
        if t is Array:
            m = a.mirror
            if dev is None:
                dev, shape = m.device, a.shape
            elif m.device is not dev:
                return None, None, None, False
            elif a.shape != shape:
                same_shape = False
            key.append(m.dtype)
        elif t in _PY_SCALARS:
            key.append(t)
        else:
            return None, None, None, False
    return tuple(key), dev, shape, same_shape


def inplace(name: str, target: Array, other) -> None:
    op, operands, cdt, cdts, out_dt, shape, dev = _plan(name, [target, other])
    if not np.can_cast(out_dt.numpy, target.dtype.numpy, casting="same_kind"):
        raise TypeError(f"cannot store the {out_dt.name} result of {name} in a {target.dtype.name} array in place")
    if shape != target.shape:
        raise ValueError(f"non-broadcastable output operand with shape {target.shape} doesn't match the "
                         f"broadcast shape {shape}")
    _ew.run(dev, op, unalias(operands, target), target, cdt, cdts)
