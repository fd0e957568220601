"""Devices: one ``Device`` per wgpu device, with its properties, stream, allocator, pipelines and counters.

Adapter choice: ``WGARRAY_BACKEND`` (vulkan, metal, d3d12, opengl) narrows the backends tried, and
``WGARRAY_ADAPTER`` picks an adapter by index in ``adapters()`` or by a substring of its name.  Without them the
first discrete GPU, then integrated, then virtual, then CPU adapter wins, preferring native backends over OpenGL.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Callable

import wgpu

from .alloc.gpu import GPUAllocator
from .runtime.properties import DeviceProperties
from .runtime.stats import Counters, Stats
from .runtime.stream import Stream

_WANTED_FEATURES = ("shader-f64", "shader-int64", "subgroup")  # subgroup: the LU tournament's argmax (TSLU_SUBGROUP)
_WANTED_LIMITS = ("max-buffer-size", "max-storage-buffer-binding-size", "max-compute-workgroup-storage-size",
                  "max-storage-buffers-per-shader-stage", "max-compute-invocations-per-workgroup",
                  "max-compute-workgroup-size-x", "max-compute-workgroup-size-y")
_TYPE_RANK = {"DiscreteGPU": 0, "IntegratedGPU": 1, "VirtualGPU": 2, "CPU": 3}
_BACKEND_RANK = {"Vulkan": 0, "Metal": 0, "D3D12": 0, "OpenGL": 1}


@dataclass(frozen=True)
class AdapterInfo:
    index: int
    name: str
    vendor: str
    backend: str
    adapter_type: str
    driver: str

    def __str__(self) -> str:
        return f"[{self.index}] {self.name} ({self.backend}, {self.adapter_type})"


_adapters_lock = threading.Lock()
_adapter_cache: list | None = None


def _raw_adapters() -> list:
    global _adapter_cache
    with _adapters_lock:
        if _adapter_cache is None:
            _adapter_cache = list(wgpu.gpu.enumerate_adapters_sync())
        return _adapter_cache


def adapters() -> list[AdapterInfo]:
    """Every adapter wgpu can see, in the order ``WGARRAY_ADAPTER`` indexes them."""
    out = []
    for i, a in enumerate(_raw_adapters()):
        info = a.info
        out.append(AdapterInfo(i, str(info.get("device", "")), str(info.get("vendor", "")),
                               str(info.get("backend_type", "")), str(info.get("adapter_type", "")),
                               str(info.get("description", ""))))
    return out


def adapter_properties(adapter: int | AdapterInfo) -> DeviceProperties:
    """The typed properties of an adapter, without opening a device on it."""
    index = adapter.index if isinstance(adapter, AdapterInfo) else int(adapter)
    return DeviceProperties.from_adapter(_raw_adapters()[index])


def _choose_adapter(spec: int | str | AdapterInfo | None):
    raw = _raw_adapters()
    infos = adapters()
    if not raw:
        raise RuntimeError("no WebGPU adapter found: install a Vulkan driver (on Debian: mesa-vulkan-drivers), "
                           "or Metal/D3D12 on macOS/Windows")
    if isinstance(spec, AdapterInfo):
        spec = spec.index
    if spec is None:
        spec = os.environ.get("WGARRAY_ADAPTER") or None
        if spec is not None and spec.isdigit():
            spec = int(spec)
    if isinstance(spec, int):
        if not 0 <= spec < len(raw):
            raise ValueError(f"adapter index {spec} out of range: {len(raw)} adapters")
        return raw[spec]
    candidates = list(zip(infos, raw))
    backend = os.environ.get("WGARRAY_BACKEND")
    if backend:
        candidates = [c for c in candidates if c[0].backend.lower() == backend.lower()]
        if not candidates:
            raise RuntimeError(f"no adapter with backend {backend!r}: have {[str(i) for i in infos]}")
    if isinstance(spec, str):
        candidates = [c for c in candidates if spec.lower() in c[0].name.lower()]
        if not candidates:
            raise ValueError(f"no adapter named like {spec!r}: have {[str(i) for i in infos]}")
    candidates.sort(key=lambda c: (_BACKEND_RANK.get(c[0].backend, 2), _TYPE_RANK.get(c[0].adapter_type, 4)))
    return candidates[0][1]


class Device:
    """One WebGPU device: where arrays live and kernels run."""

    # set by wgarray.kernels.codec (a layer above): makes the device-side widen/narrow kernels of narrow dtypes
    codec_factory = None

    def __init__(self, adapter=None, *, label: str | None = None, binding_limit: int | None = None) -> None:
        adapter = adapter if isinstance(adapter, wgpu.GPUAdapter) else _choose_adapter(adapter)
        self.adapter = adapter
        self.properties = DeviceProperties.from_adapter(adapter)
        features = [f for f in _WANTED_FEATURES if f in self.properties.features]
        limits = {k: adapter.limits[k] for k in _WANTED_LIMITS if k in adapter.limits}
        try:
            self.wgpu_device = adapter.request_device_sync(required_features=features, required_limits=limits)
        except Exception:  # some backends (OpenGL) refuse their own reported limits: take the defaults
            try:
                self.wgpu_device = adapter.request_device_sync(required_features=features)
            except Exception as e:
                raise RuntimeError(f"the adapter {self.properties.name} ({self.properties.backend}) refused to "
                                   f"open a device: {e}") from None
            self.properties = DeviceProperties.from_device(self.properties, self.wgpu_device)
        if binding_limit is not None:
            self.properties = self.properties.with_binding_limit(binding_limit)
        self.features = frozenset(features)
        self.counters = Counters()
        lim = self.properties.limits
        self.stream = Stream(self.wgpu_device, self.counters, lim.min_uniform_buffer_offset_alignment,
                             lim.max_storage_buffer_binding_size, spin=self.properties.adapter_type != "CPU")
        self.allocator = GPUAllocator(self)
        self._pipelines: dict[tuple, tuple] = {}
        info = adapter.info  # (min, max) subgroup size, 0: unknown (wgpu-py 0.32 reports no real sizes: its
        # "stackgroup_*" keys are fixed placeholders, 4 and 128, whatever the adapter, so they are not read)
        self.subgroup_sizes = tuple(int(info.get(f"subgroup_{m}_size") or 0) for m in ("min", "max"))
        # compiled pipelines by what was compiled: kernels with different cache keys can generate the same WGSL
        self._compiled: dict[tuple, tuple] = {}
        self._flushes: bool | None = None
        self._codec = None
        self.plans: dict[tuple, object] = {}  # kernels' launch plans (layout-dependent, value-independent)
        self._layouts: dict[tuple[bool, ...], wgpu.GPUBindGroupLayout] = {}
        self._label = label or f"{self.properties.name} ({self.properties.backend})"
        self.index = -1

    # -- public ------------------------------------------------------------------------------------------------
    def __repr__(self) -> str:
        return f"Device({self.index}: {self._label}{', ' + self.stream.ended if self.closed else ''})"

    @property
    def closed(self) -> bool:
        return self.stream.closed

    def stats(self) -> Stats:
        """A frozen snapshot of this device's counters; ``after - before`` gives the work in between."""
        return self.counters.snapshot()

    def synchronize(self) -> None:
        """Wait until everything recorded on this device so far has finished."""
        self.stream.synchronize()

    @property
    def codec(self):
        """The device half of the dtype codec (widen after upload, narrow before download), or None."""
        if self._codec is None and Device.codec_factory is not None:
            self._codec = Device.codec_factory(self)
        return self._codec

    @property
    def flushes_subnormals(self) -> bool:
        """Whether f32 arithmetic on this device flushes subnormal values to zero (measured once with a
        one-element kernel: NVIDIA's Vulkan driver does, lavapipe does not).  wgarray's bit-for-bit results
        hold on such a device except where a subnormal is an input or result of arithmetic."""
        if self._flushes is None:
            self._flushes = self._probe_subnormals()
        return self._flushes

    def _probe_subnormals(self) -> bool:
        import struct
        from importlib import resources

        import numpy as np
        d = self.wgpu_device
        BU = wgpu.BufferUsage
        buf = d.create_buffer_with_data(data=np.array([1e-40, 3.0, 1.0, 0.0], np.float32).tobytes(),
                                        usage=BU.STORAGE | BU.COPY_SRC)
        code = resources.files("wgarray.shaders").joinpath("probe_subnormal.wgsl").read_text(encoding="utf-8")
        pipe = d.create_compute_pipeline(layout="auto", compute={"module": d.create_shader_module(code=code),
                                                                   "entry_point": "main"})
        group = d.create_bind_group(layout=pipe.get_bind_group_layout(0),
                                    entries=[{"binding": 0, "resource": {"buffer": buf, "offset": 0, "size": 16}}])
        enc = d.create_command_encoder()
        cpass = enc.begin_compute_pass()
        cpass.set_pipeline(pipe)
        cpass.set_bind_group(0, group)
        cpass.dispatch_workgroups(1)
        cpass.end()
        self.stream.submit(enc)
        value = struct.unpack("<f", bytes(self.stream.read(buf, 8, 4)))[0]
        buf.destroy()
        return value == 0.0

    def supports(self, dtype) -> bool:
        return dtype.feature is None or dtype.feature in self.features

    def close(self) -> None:
        """Finish pending work and release the device; its arrays become unusable, other devices are unaffected."""
        if self.closed:
            return
        self.stream.close()
        self.allocator.trim()
        self._pipelines.clear()
        self._compiled.clear()
        self.plans.clear()
        _forget(self)

    # -- pipelines -------------------------------------------------------------------------------------------
    def pipeline(self, key: tuple, build: Callable[[], tuple], entry_point: str = "main", checks: bool = True):
        """The compiled pipeline for ``key``; ``build()`` gives (WGSL source, read-only flag per binding, *facts);
        the cache holds (pipeline, bind group layout, *facts), facts being what the caller needs at launch.
        ``entry_point`` names the compute function (wgarray's kernels call theirs ``main``; user kernels choose).
        ``checks=False``: the module is made without naga's runtime checks (``shader_module_unchecked``), for a
        kernel whose every index is in range by construction (its pipeline is cached apart from a checked one of the
        same key)."""
        if not checks:
            key = (*key, "unchecked")
        hit = self._pipelines.get(key)
        if hit is not None:
            return hit
        with self.stream.lock:
            hit = self._pipelines.get(key)
            if hit is not None:
                return hit
            source, readonly, *facts = build()
            what = (source, tuple(readonly), entry_point, checks)
            compiled = self._compiled.get(what)
            if compiled is None:  # (a compile costs ~0.1-0.5 s on lavapipe: the same shader is compiled once)
                with self.stream.guard():
                    layout = self._layout(tuple(readonly))
                    module = (self.wgpu_device.create_shader_module(code=source) if checks else
                              shader_module_unchecked(self.wgpu_device, source))
                    playout = self.wgpu_device.create_pipeline_layout(
                        bind_group_layouts=[layout, self.stream.params_layout])
                    pipe = self.wgpu_device.create_compute_pipeline(
                        layout=playout, compute={"module": module, "entry_point": entry_point})
                self.counters.pipelines_compiled += 1
                self._compiled[what] = compiled = (pipe, layout)
            self._pipelines[key] = hit = (*compiled, *facts)
            return hit

    def _layout(self, readonly: tuple[bool, ...]) -> wgpu.GPUBindGroupLayout:
        layout = self._layouts.get(readonly)
        if layout is None:
            BT = wgpu.BufferBindingType
            layout = self.wgpu_device.create_bind_group_layout(entries=[
                {"binding": i, "visibility": wgpu.ShaderStage.COMPUTE,
                 "buffer": {"type": BT.read_only_storage if ro else BT.storage}} for i, ro in enumerate(readonly)])
            self._layouts[readonly] = layout
        return layout


def unchecked_available() -> bool:
    """Whether wgpu-native offers ``wgpuDeviceCreateShaderModuleTrusted`` (wgpu-py has no method for it)."""
    try:
        from wgpu.backends.wgpu_native._ffi import lib
        return hasattr(lib, "wgpuDeviceCreateShaderModuleTrusted")
    except ImportError:  # another backend
        return False


def shader_module_unchecked(wgpu_device, code: str):
    """A WGSL shader module without naga's runtime checks (wgpu-core's ``create_shader_module_trusted`` with
    ``ShaderRuntimeChecks`` none): no clamping of dynamic indices into workgroup/private arrays (naga's Vulkan
    default is ``Restrict``: a ``min(i, len - 1)`` per access) and no forced loop bounding (a counter in every
    loop).  The shader must keep its indices in range itself.  Falls back to the checked module where the
    library lacks the entry point."""
    if not unchecked_available():
        return wgpu_device.create_shader_module(code=code)
    from wgpu.backends.wgpu_native import _api
    from wgpu.backends.wgpu_native._ffi import ffi, lib
    data = ffi.new("char []", code.encode())
    src = ffi.new("WGPUShaderSourceWGSL *")
    src.chain.next = ffi.NULL
    src.chain.sType = lib.WGPUSType_ShaderSourceWGSL
    src.code.data = data
    src.code.length = len(data) - 1
    desc = ffi.new("WGPUShaderModuleDescriptor *")
    desc.nextInChain = ffi.cast("WGPUChainedStruct *", src)
    desc.label = _api.to_c_string_view("")
    handle = _api.libf.wgpuDeviceCreateShaderModuleTrusted(wgpu_device._internal, desc, 0)  # 0: no runtime checks
    if handle == ffi.NULL:
        raise RuntimeError("shader module creation failed")
    return _api.GPUShaderModule("", handle, wgpu_device)


# -- the registry of open devices -------------------------------------------------------------------------------
_registry_lock = threading.Lock()
_devices: list[Device] = []
_default: Device | None = None


def _forget(dev: Device) -> None:
    global _default
    with _registry_lock:
        if dev in _devices:
            _devices.remove(dev)
        if _default is dev:
            _default = None


def open_device(adapter: int | str | AdapterInfo | None = None, *, binding_limit: int | None = None) -> Device:
    """Open a new, independent device (default adapter when none is given).

    ``binding_limit`` lowers the bytes wgarray binds to one kernel argument below the device's own limit (a multiple
    of 256, at least 4096): a large device then takes the paths a small one takes for arrays beyond one binding."""
    dev = Device(adapter, binding_limit=binding_limit)
    with _registry_lock:
        dev.index = max((d.index for d in _devices), default=-1) + 1
        _devices.append(dev)
    return dev


def default_device() -> Device:
    """The device arrays are created on when none is named; opened on first use."""
    global _default
    with _registry_lock:
        if _default is not None:
            return _default
    dev = open_device()
    with _registry_lock:
        if _default is None:
            _default = dev
        return _default


def devices() -> list[Device]:
    """The open devices, the default first."""
    default_device()
    with _registry_lock:
        return sorted(_devices, key=lambda d: (d is not _default, d.index))
