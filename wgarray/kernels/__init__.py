"""Kernels: WGSL templates specialised per dtype and layout, compiled once per device, launched via the stream."""
