"""wgarray as a Dask chunk type (``dask.array`` over wgarray chunks, one device a worker).

Dask treats CuPy as a chunk type through NEP 13/18 plus a few registrations; wgarray does the same rather than
grow a scheduler of its own.  Importing this module (``import wgarray.dask``; done automatically when wgarray is
imported into a process that has already loaded Dask, as a Dask worker has) registers:

* **dispatch tables** of ``dask.array.dispatch`` for ``wgarray.Array``: concatenate, take, tensordot, einsum,
  empty, divide, percentile, numel/nannumel (results stay wgarray arrays) and ``to_numpy_dispatch`` (the one
  explicit download) / ``to_wgarray_dispatch`` (numpy chunks -> wgarray chunks);
* ``dask.sizeof``: a chunk's bytes (device side, plus the host side when it holds a copy), which the distributed
  scheduler weighs when it balances memory;
* the **array backend** ``"wgarray"`` (also an entry point of the ``dask.array.backends`` group):
  ``dask.config.set({"array.backend": "wgarray"})`` makes ``da.ones/zeros/empty/full/arange`` and
  ``da.random.default_rng`` produce wgarray chunks;
* **serialisation** for ``dask.distributed`` (when installed): a chunk that moves between workers travels as its
  host bytes (dtype name, shape, C-order bytes: one download on the sender) and arrives as a host-resident array on
  the receiver's default device (one upload at its first use there), both counted by the devices' ``stats()``.
  This is the same rule as pickling by host bytes: a device buffer never crosses a process boundary;
* :class:`DevicePlugin`, a ``distributed`` worker plugin that opens each worker's device on its own adapter (one
  GPU a worker on a multi-GPU host).

Chunks stay device-resident between tasks of one worker: a task's result is the wgarray array itself, so dask
hands it to the next task on that worker without touching the host.
"""
from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np
from dask.array import backends as _backends, dispatch as _dispatch
from dask.array.backends import ArrayBackendEntrypoint
from dask.sizeof import sizeof as _sizeof

from .. import device as _device, dtypes as _dt
from .._array import Array
from . import creation, linalg, numpy_extras

__all__ = ["WgarrayBackendEntrypoint", "DevicePlugin", "to_wgarray", "serialize", "deserialize",
           "worker_adapter", "register"]


# ==== dispatch tables ==========================================================================================
def _concatenate(arrays, axis=0):
    return numpy_extras.concatenate(list(arrays), axis=axis)


def _take(a, indices, axis=None):
    return a.take(indices, axis=axis)


def _tensordot(a, b, axes=2):
    return linalg.tensordot(a, b, axes=axes)


def _einsum(*operands, **kwargs):
    for unsupported in ("casting", "order", "optimize"):  # dask passes numpy's keywords; the plan is ours
        kwargs.pop(unsupported, None)
    return numpy_extras.einsum(*operands, **kwargs)


def _empty(shape, dtype=None, **kwargs):
    return creation.empty(shape, dtype=_as_wg_dtype(dtype))


def _divide(x, y, dtype=None):
    out = x / y
    return out if dtype is None else out.astype(_as_wg_dtype(dtype))


def _percentile(a, q, method="linear"):
    """dask's per-chunk percentile: the chunk's percentiles at ``q`` (0..100) and the chunk's length, as dask's
    numpy version returns them."""
    n = len(a)
    if not n:
        return None, n
    if method != "linear":
        raise NotImplementedError(f"wgarray chunks compute percentiles by linear interpolation, not {method!r}")
    return numpy_extras.percentile(a, q), n


def _numel(x, **kwargs):
    """Elements a reduction counts, as a wgarray array (dask's mean/var divide chunk sums by it)."""
    axis = kwargs.get("axis")
    keepdims = kwargs.get("keepdims", False)
    dtype = _as_wg_dtype(kwargs.get("dtype", None)) if kwargs.get("dtype") is not None else _dt.default_float
    axes = tuple(range(x.ndim)) if axis is None else ((axis,) if isinstance(axis, int) else tuple(axis))
    axes = tuple(a % x.ndim for a in axes) if x.ndim else ()
    count = 1
    for a in axes:
        count *= x.shape[a]
    shape = tuple((1 if i in axes else n) for i, n in enumerate(x.shape)) if keepdims else \
        tuple(n for i, n in enumerate(x.shape) if i not in axes)
    return creation.full(shape, count, dtype=dtype, device=x.device)


def _nannumel(x, **kwargs):
    from . import elementwise, statistical
    kwargs = {k: v for k, v in kwargs.items() if k in ("axis", "keepdims", "dtype")}
    dtype = kwargs.pop("dtype", None)
    counts = statistical.sum(elementwise.logical_not(elementwise.isnan(x)).astype(_dt.default_int), **kwargs)
    return counts if dtype is None else counts.astype(_as_wg_dtype(dtype))


def _to_numpy(data, **kwargs):
    return data.numpy()


def to_wgarray(data, **kwargs) -> Array:
    """numpy (or any array-like) chunk -> wgarray chunk on the default device (``map_blocks(wg.asarray)``)."""
    return creation.asarray(data, **kwargs)


to_wgarray_dispatch = _dispatch.to_cupy_dispatch.__class__("to_wgarray_dispatch")
to_wgarray_dispatch.register(np.ndarray, to_wgarray)
to_wgarray_dispatch.register(Array, lambda data, **kwargs: data)


def _as_wg_dtype(dtype) -> _dt.DType | None:
    if dtype is None:
        return None
    return _dt.as_dtype(np.dtype(dtype) if not isinstance(dtype, _dt.DType) else dtype)


def chunk_nbytes(x: Array) -> int:
    """What a chunk holds: its base's device bytes, plus the host copy when the mirror keeps one (on the host
    the two are the same memory pool for a CPU adapter, and dask's memory manager watches host memory)."""
    m = x.mirror
    return (m.device_nbytes if m.has_device_block() else 0) + (m.host_nbytes if m.host_valid else 0)


def _register_dispatch() -> None:
    d = _dispatch
    d.concatenate_lookup.register(Array, _concatenate)
    d.take_lookup.register(Array, _take)
    d.tensordot_lookup.register(Array, _tensordot)
    d.einsum_lookup.register(Array, _einsum)
    d.empty_lookup.register(Array, _empty)
    d.divide_lookup.register(Array, _divide)
    d.percentile_lookup.register(Array, _percentile)
    d.numel_lookup.register(Array, _numel)
    d.nannumel_lookup.register(Array, _nannumel)
    d.to_numpy_dispatch.register(Array, _to_numpy)
    _sizeof.register(Array, chunk_nbytes)


# ==== the array backend ========================================================================================
def _with_wgarray_meta(name: str, *args, meta=None, **kwargs):
    import dask
    import dask.array as da
    dtype = kwargs.get("dtype")
    meta = creation.empty((0,), dtype=_as_wg_dtype(dtype) or _dt.default_float) if meta is None else meta
    with dask.config.set({"array.backend": "numpy"}):
        return getattr(da, name)(*args, meta=meta, **kwargs)


class WgarrayBackendEntrypoint(ArrayBackendEntrypoint):
    """``dask.config.set({"array.backend": "wgarray"})``: dask's creation functions make wgarray chunks.

    Each creation function is dask's own with a wgarray ``meta``; dask builds the chunks by calling numpy's
    function with ``like=meta`` where it takes one (NEP 35) or ``np.*_like(meta, shape=...)``, which NEP 18 routes
    to wgarray's kernels, so no chunk is made on the host."""

    def __init__(self) -> None:
        _register_dispatch()

    @classmethod
    def to_backend_dispatch(cls):
        return to_wgarray_dispatch

    @classmethod
    def to_backend(cls, data, **kwargs):
        if isinstance(data._meta, Array):
            return data
        return data.map_blocks(cls.to_backend_dispatch(), **kwargs)

    @property
    def RandomState(self):
        raise NotImplementedError("wgarray has no legacy RandomState: use da.random.default_rng(seed)")

    @property
    def default_bit_generator(self):
        return _bit_generator_class()

    @staticmethod
    def ones(*args, **kwargs):
        return _with_wgarray_meta("ones", *args, **kwargs)

    @staticmethod
    def zeros(*args, **kwargs):
        return _with_wgarray_meta("zeros", *args, **kwargs)

    @staticmethod
    def empty(*args, **kwargs):
        return _with_wgarray_meta("empty", *args, **kwargs)

    @staticmethod
    def full(*args, **kwargs):
        return _with_wgarray_meta("full", *args, **kwargs)

    @staticmethod
    def arange(*args, like=None, **kwargs):
        import dask
        import dask.array as da
        like = creation.empty((0,)) if like is None else like
        with dask.config.set({"array.backend": "numpy"}):
            return da.arange(*args, like=like, **kwargs)


_BITGEN: Any = None


def _bit_generator_class():
    """Dask's ``Generator`` spawns one bit generator a chunk through ``bitgen._seed_seq`` and rebuilds it by
    ``type(bitgen)(seed_sequence)``; its chunks come from ``wgarray.random.default_rng(bitgen)``."""
    global _BITGEN
    random = sys.modules.get("wgarray.random") or getattr(sys.modules["wgarray"], "random", None)
    if random is None:
        raise NotImplementedError("da.random on wgarray chunks needs wgarray.random (Philox4x32-10 on the device)")
    if _BITGEN is None:
        class Philox(random.Philox):
            __module__ = "wgarray.random"

            @property
            def _seed_seq(self):
                return self.seed_seq

        _BITGEN = Philox
    return _BITGEN


# ==== distributed: serialisation and one device a worker =====================================================
SENT = {"arrays": 0, "bytes": 0}  # what this process serialised (the chunks dask moved out of it), for worker_stats


def serialize(x: Array) -> tuple[dict, list]:
    """A chunk -> (header, frames): its dtype name, shape and C-order host bytes (one download when only the
    device side is valid).  The receiver makes a host-resident array, uploaded at its first use there."""
    host = np.ascontiguousarray(x.numpy())
    SENT["arrays"] += 1
    SENT["bytes"] += host.nbytes
    header = {"dtype": x.dtype.name, "shape": list(x.shape)}
    return header, [memoryview(host.reshape(-1).view(np.uint8))]


def deserialize(header: dict, frames: list) -> Array:
    dtype = _dt.as_dtype(header["dtype"])
    data = b"".join(bytes(f) for f in frames) if len(frames) != 1 else frames[0]
    host = np.frombuffer(data, dtype=dtype.numpy).reshape(tuple(header["shape"]))
    if not host.flags.writeable:  # the frame may be read-only bytes: the array's host side must be its own
        host = host.copy()
    return creation.asarray(host)


def _register_distributed() -> None:
    from distributed.protocol import dask_deserialize, dask_serialize
    dask_serialize.register(Array)(serialize)
    dask_deserialize.register(Array)(deserialize)


def worker_adapter(index: int, adapters=None) -> int:
    """The adapter for worker number ``index``: the adapters of the kind wgarray would pick by default (the best
    backend and adapter type), taken round robin, so worker i of a host with n GPUs gets GPU i mod n."""
    infos = _device.adapters() if adapters is None else adapters
    if not infos:
        raise RuntimeError("no WebGPU adapter found")
    backend = os.environ.get("WGARRAY_BACKEND")
    if backend:
        infos = [i for i in infos if i.backend.lower() == backend.lower()] or infos
    best = min((_device._BACKEND_RANK.get(i.backend, 2), _device._TYPE_RANK.get(i.adapter_type, 4)) for i in infos)
    same = [i for i in infos
            if (_device._BACKEND_RANK.get(i.backend, 2), _device._TYPE_RANK.get(i.adapter_type, 4)) == best]
    return same[index % len(same)].index


try:
    from distributed import WorkerPlugin as _WorkerPlugin
except ImportError:  # dask without distributed: the threaded scheduler needs no plugin
    _WorkerPlugin = object  # type: ignore[assignment,misc]


class DevicePlugin(_WorkerPlugin):  # type: ignore[misc,valid-type]
    """Opens each worker's default device on its own adapter: ``client.register_plugin(DevicePlugin())``.

    ``adapter``: an index or a name substring for every worker (``WGARRAY_ADAPTER``'s forms), a list indexed by
    the worker's number, or None for one adapter a worker chosen round robin by :func:`worker_adapter` (worker
    names of a ``LocalCluster`` are 0, 1, ...; other names count in the order the workers join).  Setting
    ``WGARRAY_ADAPTER`` in each worker's environment does the same without a plugin."""

    name = "wgarray-device"

    def __init__(self, adapter: int | str | list | None = None) -> None:
        self.adapter = adapter

    def setup(self, worker) -> None:
        spec = self.adapter
        number = worker.name if isinstance(worker.name, int) else _join_order(worker)
        if isinstance(spec, (list, tuple)):
            spec = spec[number % len(spec)]
        if spec is None:
            spec = worker_adapter(number)
        os.environ["WGARRAY_ADAPTER"] = str(spec)
        dev = _device.default_device()
        want = _device._choose_adapter(spec)
        if dev.adapter is not want:
            raise RuntimeError(f"worker {worker.name!r}: the default device was opened before DevicePlugin ran, on "
                               f"another adapter than {spec!r}; register the plugin before the first task")
        worker.wgarray_device = dev


def _join_order(worker) -> int:
    try:
        return sorted(worker.scheduler_info()["workers"]).index(worker.address)  # pragma: no cover
    except Exception:
        return 0


def worker_stats() -> dict:
    """This process's default device's counters as a dict (``client.run(wgarray.dask.worker_stats)``)."""
    from dataclasses import asdict
    dev = _device.default_device()
    return {"device": str(dev), **asdict(dev.stats()), "serialized_arrays": SENT["arrays"],
            "serialized_bytes": SENT["bytes"]}


# ==== registration =============================================================================================
_REGISTERED = False


def register() -> None:
    """Register wgarray with dask (idempotent; done on import)."""
    global _REGISTERED
    if _REGISTERED:
        return
    _REGISTERED = True
    _register_dispatch()
    _backends.array_creation_dispatch.register_backend("wgarray", WgarrayBackendEntrypoint())
    if "distributed" in sys.modules or _importable("distributed"):
        _register_distributed()


def _importable(name: str) -> bool:
    import importlib.util
    return importlib.util.find_spec(name) is not None


register()


# ==== the reference pipeline (tests and the benchmark) ========================================================
def pipeline(x, k: int = 4, centers=None):
    """Standardise a row-chunked (n × d) Dask array, its Gram matrix XᵀX and one k-means step (the first ``k``
    rows as the initial centres unless given): ``(z, gram, new_centres, counts)`` as lazy Dask arrays.  Every
    step is a blockwise op or a tree reduction over row chunks, so only (d × d) and (k × d) partials move."""
    mu = x.mean(axis=0)
    sd = x.std(axis=0)
    z = (x - mu) / sd
    gram = z.T @ z
    c = z[:k] if centers is None else centers
    # nearest centre: argmin over c of |z - c|² = |z|² - 2 z·c + |c|², and |z|² is the same for every c of a row
    label = ((c * c).sum(axis=1)[None, :] - 2 * (z @ c.T)).argmin(axis=1)
    onehot = (label[:, None] == np.arange(k, dtype=np.int32)[None, :]).astype(z.dtype)
    counts = onehot.sum(axis=0)
    new_centres = (onehot.T @ z) / counts[:, None]
    return z, gram, new_centres, counts
