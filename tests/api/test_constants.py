"""The standard's constants: e, pi, inf, nan, newaxis."""
from __future__ import annotations

import math

import wgarray as wg


def test_constants():
    assert wg.e == math.e and wg.pi == math.pi and wg.inf == math.inf and math.isnan(wg.nan)
    assert wg.newaxis is None
    assert wg.ones((2,))[wg.newaxis].shape == (1, 2)
