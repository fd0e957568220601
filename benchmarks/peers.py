"""The optional peers: torch (CUDA only) and cupy, found at run time; nothing here is required.

Each peer is given with how to wait for its device (``torch.cuda.synchronize()``,
``cupy.cuda.Device().synchronize()``), or ``None`` with the reason it is skipped.
"""
from __future__ import annotations

import platform
import sys
from dataclasses import dataclass
from typing import Any, Callable


@dataclass
class Peer:
    name: str
    module: Any  # the imported module, or None when skipped
    sync: Callable[[], None]
    device_name: str = ""
    version: str = ""
    reason: str = ""  # why it is skipped

    @property
    def available(self) -> bool:
        return self.module is not None


def _skip(name: str, reason: str, version: str = "") -> Peer:
    return Peer(name, None, lambda: None, version=version, reason=reason)


def find_torch() -> Peer:
    try:
        import torch
    except Exception as e:  # not installed, or a broken install
        return _skip("torch", f"not importable ({type(e).__name__})")
    version = str(torch.__version__)
    try:
        if not torch.cuda.is_available():
            return _skip("torch", "no CUDA device", version)
        torch.backends.cuda.matmul.allow_tf32 = False  # full float32 matmuls, like the other peers
        torch.backends.cudnn.allow_tf32 = False
        name = torch.cuda.get_device_name(0)
    except Exception as e:
        return _skip("torch", f"CUDA unusable ({e})", version)
    return Peer("torch", torch, torch.cuda.synchronize, name, version)


def find_cupy() -> Peer:
    try:
        import cupy
    except Exception as e:
        return _skip("cupy", f"not importable ({type(e).__name__})")
    version = str(cupy.__version__)
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            return _skip("cupy", "no CUDA device", version)
        dev = cupy.cuda.Device(0)
        props = cupy.cuda.runtime.getDeviceProperties(0)
        name = props["name"].decode() if isinstance(props.get("name"), bytes) else str(props.get("name", ""))
    except Exception as e:
        return _skip("cupy", f"CUDA unusable ({e})", version)
    return Peer("cupy", cupy, dev.synchronize, name, version)


def versions() -> dict[str, str | None]:
    """Versions of everything the suite touches (None: not installed)."""
    out: dict[str, str | None] = {"python": sys.version.split()[0], "platform": platform.platform()}
    for mod in ("wgpu", "numpy", "torch", "cupy", "matplotlib"):
        try:
            m = __import__(mod)
            out[mod] = str(getattr(m, "__version__", "?"))
        except Exception:
            out[mod] = None
    try:
        import wgarray
        out["wgarray"] = wgarray.__version__
    except Exception:
        out["wgarray"] = None
    try:
        import numpy as np
        cfg = np.show_config(mode="dicts")  # numpy >= 1.26
        blas = cfg.get("Build Dependencies", {}).get("blas", {})
        out["numpy_blas"] = f"{blas.get('name', '?')} {blas.get('version', '')}".strip()
    except Exception:
        pass
    return out
