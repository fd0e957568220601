"""scikit-learn estimators on wgarray data (array API dispatch) against the same estimators on numpy data.

These are the clients issue 12 exists for: PCA (full, covariance_eigh, randomized) needs svd/eigh/qr, Ridge (svd:
scikit-learn's array-API path refuses the other solvers itself), LinearDiscriminantAnalysis (svd) and
GaussianMixture (cholesky and triangular solves).  Tolerances: float64
throughout, results within 1e-8 relative (the estimators' own arithmetic differs from numpy's only by rounding).
"""
from __future__ import annotations

import importlib.util
import os

os.environ["SCIPY_ARRAY_API"] = "1"  # before scipy/sklearn are imported

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import wgarray as wg  # noqa: E402

# scikit-learn (with SciPy) takes ~2 s to import: each xdist worker collects every file, so the import happens in the
# tests (the worker that runs this file), not at collection; the tests skip where any of the three is missing
_MISSING = [m for m in ("sklearn", "array_api_compat", "scipy") if importlib.util.find_spec(m) is None]
pytestmark = pytest.mark.skipif(bool(_MISSING), reason=f"not installed: {_MISSING}")

RTOL = 1e-8


def _data(n=60, d=5, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d)) @ rng.standard_normal((d, d))
    y = x @ rng.standard_normal(d) + 0.1 * rng.standard_normal(n)
    return x, y


def _np(a):
    return a.numpy() if isinstance(a, wg.Array) else np.asarray(a)


def _fit_both(make, fit_args, attrs):
    import sklearn

    ref = make().fit(*fit_args)
    with sklearn.config_context(array_api_dispatch=True):
        got = make().fit(*[wg.asarray(a) for a in fit_args])
    for attr in attrs:
        r, g = getattr(ref, attr), _np(getattr(got, attr))
        yield attr, r, g


def _signs(r, g):
    """Components are unique up to sign per row: align g's rows to r's."""
    s = np.sign(np.sum(r * g, axis=-1, keepdims=True))
    return g * np.where(s == 0, 1, s)


@pytest.mark.parametrize("solver", ["full", "covariance_eigh", "randomized"])
def test_pca(solver):
    from sklearn.decomposition import PCA
    x, _ = _data()
    for attr, r, g in _fit_both(lambda: PCA(n_components=3, svd_solver=solver, random_state=0), [x],
                                ["explained_variance_", "singular_values_", "components_", "mean_"]):
        if attr == "components_":
            g = _signs(r, g)
        np.testing.assert_allclose(g, r, rtol=RTOL if solver != "randomized" else 1e-6, atol=1e-10, err_msg=attr)


@pytest.mark.parametrize("solver", ["svd"])  # scikit-learn 1.9: "array API dispatch ... only supports solver 'svd'"
def test_ridge(solver):
    from sklearn.linear_model import Ridge
    x, y = _data()
    for attr, r, g in _fit_both(lambda: Ridge(alpha=0.5, solver=solver), [x, y], ["coef_", "intercept_"]):
        np.testing.assert_allclose(g, r, rtol=RTOL, atol=1e-12, err_msg=attr)


def test_lda():
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    x, _ = _data(90)
    y = (np.arange(90) % 3).astype(np.int64)
    x = x + y[:, None]
    for attr, r, g in _fit_both(lambda: LinearDiscriminantAnalysis(solver="svd"), [x, y],
                                ["means_", "explained_variance_ratio_"]):
        np.testing.assert_allclose(g, r, rtol=RTOL, atol=1e-12, err_msg=attr)


def test_gaussian_mixture():
    """GaussianMixture's array-API path factors each covariance with linalg.cholesky (and solves triangles)."""
    from sklearn.mixture import GaussianMixture
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.standard_normal((40, 3)), rng.standard_normal((40, 3)) + 4])
    for attr, r, g in _fit_both(lambda: GaussianMixture(2, random_state=0, init_params="random_from_data"), [x],
                                ["means_", "weights_", "covariances_"]):
        np.testing.assert_allclose(g, r, rtol=1e-6, atol=1e-10, err_msg=attr)
