"""A device's description as one typed, frozen object, built once from the adapter."""
from __future__ import annotations

from dataclasses import dataclass

from .. import dtypes as _dt


@dataclass(frozen=True)
class Limits:
    """The adapter limits wgarray plans with."""

    max_buffer_size: int
    max_storage_buffer_binding_size: int
    max_compute_workgroups_per_dimension: int
    max_compute_invocations_per_workgroup: int
    max_compute_workgroup_storage_size: int
    max_storage_buffers_per_shader_stage: int
    min_uniform_buffer_offset_alignment: int
    min_storage_buffer_offset_alignment: int

    @classmethod
    def from_wgpu(cls, limits) -> "Limits":
        return cls(**{name: int(limits[name.replace("_", "-")]) for name in cls.__dataclass_fields__})


@dataclass(frozen=True)
class DeviceProperties:
    name: str
    vendor: str
    backend: str
    adapter_type: str
    driver: str
    limits: Limits
    features: frozenset[str]
    dtypes: tuple[str, ...]

    @classmethod
    def from_adapter(cls, adapter) -> "DeviceProperties":
        info = adapter.info
        features = frozenset(str(f) for f in adapter.features)
        supported = tuple(d.name for d in _dt.ALL_DTYPES if d.feature is None or d.feature in features)
        return cls(
            name=str(info.get("device", "")),
            vendor=str(info.get("vendor", "")),
            backend=str(info.get("backend_type", "")),
            adapter_type=str(info.get("adapter_type", "")),
            driver=str(info.get("description", "")),
            limits=Limits.from_wgpu(adapter.limits),
            features=features,
            dtypes=supported,
        )

    @classmethod
    def from_device(cls, props: "DeviceProperties", device) -> "DeviceProperties":
        """The same description with the limits the opened device actually has."""
        import dataclasses
        return dataclasses.replace(props, limits=Limits.from_wgpu(device.limits))

    def with_binding_limit(self, nbytes: int) -> "DeviceProperties":
        """The same description with a lower storage binding limit (what ``open_device(binding_limit=)`` asks)."""
        import dataclasses
        if isinstance(nbytes, bool) or not isinstance(nbytes, int):
            raise TypeError(f"binding_limit must be an int, got {type(nbytes).__name__}")
        have = self.limits.max_storage_buffer_binding_size
        if nbytes < 4096 or nbytes % 256 or nbytes > have:
            raise ValueError(f"binding_limit must be a multiple of 256 in [4096, {have}], got {nbytes}")
        return dataclasses.replace(self, limits=dataclasses.replace(self.limits, max_storage_buffer_binding_size=nbytes))

    def __repr__(self) -> str:
        lim = self.limits
        return (f"DeviceProperties(name={self.name!r}, vendor={self.vendor!r}, backend={self.backend!r}, "
                f"adapter_type={self.adapter_type!r}, driver={self.driver!r}, "
                f"max_buffer={lim.max_buffer_size >> 20} MiB, "
                f"max_storage_binding={lim.max_storage_buffer_binding_size >> 20} MiB, "
                f"dtypes={list(self.dtypes)}, features={len(self.features)})")
