"""Random indexing keys and random views for indexing properties (shared by test_defects_indexing and
test_fuzz_keys): mixed ints, slices with negative steps, None, ``...``, integer arrays, boolean arrays (0-d too)
and Python bools, drawn for a view of a given shape; plus views (transposed, strided, reversed) of a base."""
from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

import wgarray as wg


@st.composite
def base_and_view(draw, max_dims=4, max_side=4):
    """(numpy base, the basic key that makes the view, a function applying it to a wgarray base)."""
    ndim = draw(st.integers(0, max_dims))
    shape = tuple(draw(st.lists(st.integers(0, max_side), min_size=ndim, max_size=ndim)))
    base = np.asarray(np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) - 3.5)
    how = draw(st.sampled_from(["plain", "strided", "reversed", "transposed"]))
    if how == "plain" or ndim == 0 or (how == "transposed" and ndim < 2):
        key = Ellipsis
    elif how == "transposed":
        key = "T"
    else:
        key = tuple(slice(None, None, -1) if how == "reversed" else
                    slice(draw(st.integers(0, 1)), None, draw(st.sampled_from([1, 2, -1, -2]))) for _ in shape)
    return base, key


def apply_view(base, key):
    if key == "T":
        return np.swapaxes(base, -1, -2) if isinstance(base, np.ndarray) else base.mT
    return base[key]


@st.composite
def key_for(draw, shape, device_arrays=True):
    """A key for an array of ``shape``: returns (numpy key, wgarray key)."""
    dims = list(shape)
    nk: list = []
    wk: list = []
    bshape = tuple(draw(st.lists(st.integers(0, 3), max_size=2)))
    ellipsis_used = False

    def arr(np_value):
        kind = draw(st.sampled_from(["np", "wg", "list"])) if device_arrays else "np"
        if kind == "wg":
            return wg.asarray(np_value)
        if kind == "list" and np_value.ndim >= 1 and np_value.size:
            return np_value.tolist()
        return np_value

    def extra():
        k = draw(st.sampled_from(["none", "true", "false", "b0", "nothing", "nothing", "nothing"]))
        if k == "none":
            nk.append(None)
            wk.append(None)
        elif k in ("true", "false"):
            nk.append(k == "true")
            wk.append(k == "true")
        elif k == "b0":
            v = np.array(draw(st.booleans()))
            nk.append(v)
            wk.append(arr(v))

    i = 0
    while i < len(dims):
        extra()
        if not ellipsis_used and draw(st.integers(0, 5)) == 0:
            span = draw(st.integers(0, len(dims) - i))
            nk.append(Ellipsis)
            wk.append(Ellipsis)
            ellipsis_used = True
            i += span
            continue
        n = dims[i]
        kind = draw(st.sampled_from(["int", "slice", "slice", "iarr", "barr", "stop"]))
        if kind == "stop":
            break
        if kind == "int" and n:
            v = draw(st.integers(-n, n - 1))
            nk.append(v)
            wk.append(v)
        elif kind == "iarr" and n:
            sub = tuple(draw(st.sampled_from([1, m])) for m in bshape[draw(st.integers(0, len(bshape))):])
            size = int(np.prod(sub))
            v = np.array(draw(st.lists(st.integers(-n, n - 1), min_size=size, max_size=size)), np.int64).reshape(sub)
            if draw(st.booleans()):
                v = v % n  # non-negative: any integer dtype
                v = v.astype(draw(st.sampled_from([np.int32, np.int64, np.uint8, np.uint32])))
            nk.append(v)
            wk.append(arr(v))
        elif kind == "barr":
            k = draw(st.integers(1, min(2, len(dims) - i)))
            m = np.array(draw(st.lists(st.booleans(), min_size=int(np.prod(dims[i:i + k])),
                                       max_size=int(np.prod(dims[i:i + k]))))).reshape(dims[i:i + k])
            nk.append(m)
            wk.append(arr(m))
            i += k
            continue
        else:
            start = draw(st.none() | st.integers(-n - 2, n + 2))
            stop = draw(st.none() | st.integers(-n - 2, n + 2))
            step = draw(st.none() | st.sampled_from([1, 2, 3, -1, -2, -3]))
            nk.append(slice(start, stop, step))
            wk.append(slice(start, stop, step))
        i += 1
    extra()
    if not ellipsis_used and draw(st.integers(0, 3)) == 0:
        at = draw(st.integers(0, len(nk)))
        nk.insert(at, Ellipsis)
        wk.insert(at, Ellipsis)
    if len(nk) == 1 and draw(st.booleans()):
        return nk[0], wk[0]
    return tuple(nk), tuple(wk)


def numpy_result(fn):
    """(value, None) or (None, exception class) of calling fn."""
    try:
        return fn(), None
    except (IndexError, ValueError, TypeError) as e:
        return None, type(e)
