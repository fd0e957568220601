"""Allocators (each knows its device as ``dev``; the host's is ``None``) and the Mirror that sits above them."""
from .base import Allocator, Block
from .host import HostAllocator, HOST
from .gpu import GPUAllocator, DeviceBlock
from .mirror import Mirror

__all__ = ["Allocator", "Block", "HostAllocator", "HOST", "GPUAllocator", "DeviceBlock", "Mirror"]
