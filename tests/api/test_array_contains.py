"""Issue 11, item 9: ``v in x`` is one comparison and one reduction with a single small read, for any ndim."""
from __future__ import annotations

import numpy as np
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import wgarray as wg


@given(hnp.arrays(np.int32, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5),
                  elements=st.integers(-3, 3)), st.integers(-4, 4))
def test_contains_matches_numpy(a, v):
    assert (v in wg.asarray(a)) == (v in a)


def test_contains_moves_one_small_read():
    dev = wg.default_device()
    x = wg.arange(2000, dtype=wg.float32) * 1.0  # device-resident
    c = dev.counters
    before = (c.downloads, c.bytes_downloaded)
    assert 1999.0 in x and -1.0 not in x
    assert c.downloads - before[0] == 2  # one 4-byte read per membership test, not one per element
    assert c.bytes_downloaded - before[1] <= 2 * 4
    x2 = wg.reshape(x, (40, 50))
    assert 7.0 in x2 and wg.asarray(7.0) in x2
