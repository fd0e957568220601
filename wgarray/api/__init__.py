"""The namespace (layer 7): one module per section of the Array API standard, in the standard's order.

    constants.py     e, inf, nan, newaxis, pi
    creation.py      arange, asarray, empty, eye, full, linspace, meshgrid, ones, tril, triu, zeros, *_like, ...
    data_types.py    astype, can_cast, finfo, iinfo, isdtype, result_type (the dtypes are ``wgarray/dtypes.py``)
    elementwise.py   one function per row of ``kernels/ewtable.py``, and clip
    indexing.py      take, take_along_axis (``x[key]`` itself is ``ops/indexing.py``)
    inspection.py    __array_namespace_info__
    linalg.py        the linalg extension (``wg.linalg``); matmul, matrix_transpose, tensordot, vecdot are also
                     in the main namespace
    manipulation.py  broadcast_*, concat, expand_dims, flip, moveaxis, permute_dims, repeat, reshape, roll, ...
    searching.py     argmax, argmin, count_nonzero, nonzero, searchsorted, where
    set.py           unique_all, unique_counts, unique_inverse, unique_values
    sorting.py       argsort, sort
    statistical.py   cumulative_prod, cumulative_sum, max, mean, min, prod, std, sum, var
    utility.py       all, any, diff (and wgarray's synchronize, stats)

    numpy_extras.py  numpy's everyday functions beyond the standard, with numpy's signatures (concatenate,
                     vstack, split, pad, einsum, dot, median, percentile, nan*, histogram, bincount, ...)
    interop.py       numpy's protocols: ``__array_ufunc__`` (NEP 13) and ``__array_function__`` (NEP 18) tables

Every public function is defined in its section's module, on top of the operations layer (``wgarray/ops``) and,
for kernels of their own (sort, scans, gathers, unique), ``wgarray/kernels``.  ``wgarray/__init__.py`` imports
each name explicitly, section by section.

**Extension modules** (``linalg`` now; ``fft`` and ``random`` next) live here too; ``wgarray/__init__.py`` makes
each one the attribute ``wg.<name>`` and registers it in ``sys.modules`` as ``wgarray.<name>``, so that
``import wgarray.linalg`` and ``from wgarray.linalg import vector_norm`` give this same module object.

Groups that are coming get a module each in this folder: ``fft.py``, ``random.py``, ``kernels.py`` (user kernels)
and ``fusion.py``.
"""
