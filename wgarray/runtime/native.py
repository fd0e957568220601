"""Thin wrappers over wgpu-native's C entry points for what the stream records and submits on every batch.

wgpu-py's methods (``create_command_encoder``, ``begin_compute_pass``, ``end``, ``finish``, ``queue.submit``,
``copy_buffer_to_buffer``, ``write_buffer``) each build a descriptor struct, wrap the new handle in a Python object
and capture errors around the call; on a small read that is a dozen such calls.  Here the descriptors are built
once, handles stay bare cffi pointers that the stream owns and releases itself (``release_*``; wgpu-native keeps
what a recorded command uses alive by its own reference counts, so no Python references are needed), and errors are
captured once around the calls that can report them (ending the pass, finishing and submitting: wgpu-native defers
a bad command's error to these), raised as the same wgpu error classes wgpu-py raises.

``available`` is False where wgpu-py's internals differ from 0.32's; the stream then uses the public API.
"""
from __future__ import annotations

from typing import Any

try:
    from wgpu.backends.wgpu_native._api import error_handler as _errors, ffi, lib
    from wgpu.backends.wgpu_native._helpers import ERROR_TYPES as _ERROR_TYPES
    (_create_encoder, _begin_pass, _end_pass, _copy, _finish, _submit, _write, _mapped_range, _unmap, release_pass,
     release_encoder, _release_commands) = (getattr(lib, "wgpu" + name) for name in (
        "DeviceCreateCommandEncoder", "CommandEncoderBeginComputePass", "ComputePassEncoderEnd",
        "CommandEncoderCopyBufferToBuffer", "CommandEncoderFinish", "QueueSubmit", "QueueWriteBuffer",
        "BufferGetConstMappedRange", "BufferUnmap", "ComputePassEncoderRelease", "CommandEncoderRelease",
        "CommandBufferRelease"))
    _memmove = ffi.memmove
    # descriptors with no label and no chained struct, shared by every call (wgpu-native only reads them)
    _ENCODER_DESC = ffi.new("WGPUCommandEncoderDescriptor *")
    _PASS_DESC = ffi.new("WGPUComputePassDescriptor *")
    _FINISH_DESC = ffi.new("WGPUCommandBufferDescriptor *")
    _ERROR_TYPES["Validation"], _errors.capture, _errors.release  # noqa: B018 (fail here, not mid-flush)
    available = True
except (ImportError, AttributeError, KeyError):  # another wgpu-py layout
    available = False

_NAME = "wgarray.stream.submit"  # the name errors are captured under (wgpu-py matches capture and release by name)


def new_encoder(device: Any) -> Any:
    """A new command encoder of the wgpu device ``device`` (its handle)."""
    return _create_encoder(device._internal, _ENCODER_DESC)


def begin_pass(encoder: Any) -> Any:
    """A new compute pass of ``encoder`` (its handle)."""
    return _begin_pass(encoder, _PASS_DESC)


def copy(encoder: Any, src: Any, src_offset: int, dst: Any, dst_offset: int, size: int) -> None:
    """Record a copy between two wgpu-py buffers (an error makes the encoder invalid; ``submit`` raises it)."""
    _copy(encoder, src._internal, src_offset, dst._internal, dst_offset, size)


def end_pass(cpass: Any) -> None:
    """End and release the compute pass ``cpass``; raises what wgpu-native reports (as wgpu-py's ``end`` does)."""
    _errors.capture(_NAME)
    try:
        _end_pass(cpass)
    finally:
        release_pass(cpass)
        _raise(_errors.release(_NAME))


def write(queue: Any, buffer: Any, offset: int, data: memoryview) -> None:
    """``queue.write_buffer(buffer, offset, data)`` (``data``: a contiguous byte view), with its range check."""
    size = len(data)
    if offset < 0 or offset + size > buffer.size:
        raise ValueError(f"a {size}-byte write at {offset} does not fit a {buffer.size}-byte buffer")
    _errors.capture(_NAME)
    try:
        _write(queue._internal, buffer._internal, offset, ffi.from_buffer(data), size)
    finally:
        _raise(_errors.release(_NAME))


def submit(queue: Any, encoder: Any, cpass: Any = None, ring: Any = None, ring_bytes: int = 0,
           copy_: tuple | None = None) -> None:
    """End ``cpass`` (if given), record the copy ``copy_`` (if given: ``(src, src_offset, dst, dst_offset, size)``,
    wgpu-py buffers), write ``ring_bytes`` of the host buffer ``ring`` (a ``(wgpu buffer, cffi pointer)`` pair) into
    the wgpu buffer, finish ``encoder`` and submit it to the wgpu-py queue ``queue``.  Releases the pass, the encoder
    and the command buffer whatever happens, and raises the first error wgpu-native reported (nothing is submitted
    then), as the wgpu error class that wgpu-py would raise."""
    commands = None
    try:
        _errors.capture(_NAME)
        try:
            if cpass is not None:
                _end_pass(cpass)
            if copy_ is not None:
                src, src_offset, dst, dst_offset, size = copy_
                _copy(encoder, src._internal, src_offset, dst._internal, dst_offset, size)
            if ring_bytes:
                _write(queue._internal, ring[0]._internal, 0, ring[1], ring_bytes)
            commands = ffi.new("WGPUCommandBuffer[1]")
            commands[0] = _finish(encoder, _FINISH_DESC)
        finally:
            _raise(_errors.release(_NAME))
        _errors.capture(_NAME)
        try:
            _submit(queue._internal, 1, commands)
        finally:
            _raise(_errors.release(_NAME))
    finally:
        if cpass is not None:
            release_pass(cpass)
        release_encoder(encoder)
        if commands is not None and commands[0] != ffi.NULL:
            _release_commands(commands[0])


def _raise(error: tuple[str, str] | None) -> None:
    """Raise what wgpu-py's error capture returned (``(type, message)``, or None: nothing to raise)."""
    if error is not None:
        kind, message = error
        raise _ERROR_TYPES.get(kind, _ERROR_TYPES[""])(message)


def read_mapped(buffer: Any, size: int, dest: Any) -> None:
    """Copy the first ``size`` bytes of the mapped wgpu-py buffer ``buffer`` into the writable buffer ``dest``,
    then unmap it.  For a buffer mapped through wgpu-native directly (the stream's ``_map`` with ``track=False``):
    wgpu-py's own view of the buffer never left "unmapped"."""
    try:
        _memmove(dest, _mapped_range(buffer._internal, 0, _round4(size)), size)
    finally:
        _unmap(buffer._internal)


def _round4(n: int) -> int:
    return (n + 3) & ~3
