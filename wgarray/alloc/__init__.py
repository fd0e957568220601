"""Allocators (each knows its device as ``dev``; the host's is ``None``) and the Mirror that sits above them."""
from .base import Allocator, Block
from .gpu import DeviceBlock, GPUAllocator
from .host import HOST, HostAllocator
from .mirror import Mirror

__all__ = ["Allocator", "Block", "HostAllocator", "HOST", "GPUAllocator", "DeviceBlock", "Mirror"]
