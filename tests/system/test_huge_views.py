"""Issue 11, item 10: every kernel launcher given a broadcast view of more than 2**31 - 1 elements either computes
the exact answer (reductions over the repeated axes where that is exact) or raises MemoryError naming the limit;
none raises OverflowError (a Python int that does not fit, per the README's error table) or returns a wrapped
answer.  Two sizes: 2**40 (beyond 32-bit parameters) and 3 * 2**30 (fits a u32 parameter, not an i32 index)."""
from __future__ import annotations

import re

import numpy as np
import pytest

import wgarray as wg

SIZES = [2**40, 3 * 2**30]


def view(shape, dtype=wg.float32, value=1):
    return wg.broadcast_to(wg.full((1,) * len(shape), value, dtype=dtype), shape)


def wrapped(n: int, dtype) -> int:
    return int(np.array([n % 2**64], np.uint64).view(np.int64).astype(dtype.numpy)[0])


# name -> (call on N, the exact answer as numpy computes it, or None: MemoryError expected)
CASES = {
    "sum_int": (lambda n: wg.sum(view((n,), wg.int32)), lambda n: wrapped(n, wg.int32)),
    "sum_int64_axis": (lambda n: wg.sum(view((2, n), wg.int64, 3), axis=1), lambda n: [3 * n, 3 * n]),
    "sum_bool": (lambda n: wg.sum(view((n,), wg.bool, True)), lambda n: wrapped(n, wg.int32)),
    "sum_uint8_dtype": (lambda n: wg.sum(view((n,), wg.uint8, 7), dtype=wg.uint64), lambda n: 7 * n),
    "mean": (lambda n: wg.mean(view((n,), wg.float32, 0.1)), lambda n: np.float32(0.1)),
    "mean_int": (lambda n: wg.mean(view((n,), wg.int16, -3)), lambda n: -3.0),
    "max": (lambda n: wg.max(view((n,), wg.float32, -0.5)), lambda n: -0.5),
    "min_axis0": (lambda n: wg.min(wg.broadcast_to(wg.asarray([[2, -7]]), (n, 2)), axis=0), lambda n: [2, -7]),
    "argmax": (lambda n: wg.argmax(view((n,))), lambda n: 0),
    "argmin_axis": (lambda n: wg.argmin(view((n, 2)), axis=0), lambda n: [0, 0]),
    "any": (lambda n: wg.any(view((n,), wg.bool, False)), lambda n: False),
    "all": (lambda n: wg.all(view((n,), wg.bool, True)), lambda n: True),
    "sum_float": (lambda n: wg.sum(view((n,))), None),
    "prod": (lambda n: wg.prod(view((n,))), None),
    "std": (lambda n: wg.std(view((n,))), None),
    "argmax_mixed": (lambda n: wg.argmax(wg.broadcast_to(wg.asarray([[1.0], [2.0]]), (2, n // 2))), None),
    "cumulative_sum": (lambda n: wg.cumulative_sum(view((n,))), None),
    "sort": (lambda n: wg.sort(view((n,))), None),
    "argsort": (lambda n: wg.argsort(view((n,))), None),
    "unique_values": (lambda n: wg.unique_values(view((n,))), None),
    "matmul": (lambda n: wg.matmul(view((1, n)), view((n, 1))), None),
    "vecdot": (lambda n: wg.vecdot(view((n,)), view((n,))), None),
    "add": (lambda n: view((n,)) + 1, None),
    "astype": (lambda n: wg.astype(view((n,)), wg.int32), None),
    "take": (lambda n: wg.take(view((n,)), wg.asarray([0, 5])), None),
    "nonzero": (lambda n: wg.nonzero(view((n,))), None),
    "count_nonzero": (lambda n: wg.count_nonzero(view((n,))), None),
    "searchsorted": (lambda n: wg.searchsorted(view((n,)), wg.asarray([1.0, 2.0])), None),
    "fft": (lambda n: wg.fft.fft(view((n,), wg.complex64)), None),
    "linalg_inv": (lambda n: wg.linalg.inv(view((n // 2**30, 2**15, 2**15))), None),
    "vector_norm": (lambda n: wg.linalg.vector_norm(view((n,))), None),
}


@pytest.mark.parametrize("n", SIZES, ids=["2^40", "3*2^30"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_huge_broadcast_views(name, n):
    call, expected = CASES[name]
    if expected is None:
        with pytest.raises(MemoryError, match=r"2\*\*31 - 1|limit|bytes"):
            call(n)
        return
    got = call(n).numpy()
    want = np.asarray(expected(n))
    np.testing.assert_array_equal(got, want.astype(got.dtype))
    assert got.shape == want.shape


def test_limit_is_named():
    """The kernels' own limit appears in the message where a parameter or an operand is too large."""
    for call in (lambda: wg.take(view((2**40,)), wg.asarray([0])),
                 lambda: wg.matmul(view((1, 3 * 2**30)), view((3 * 2**30, 1)))):
        with pytest.raises(MemoryError) as e:
            call()
        assert re.search(r"2147483647 \(2\*\*31 - 1\) elements", str(e.value))
    x = wg.asarray([1.0, 2.0])  # the device stays usable
    assert float(wg.sum(x)) == 3.0
