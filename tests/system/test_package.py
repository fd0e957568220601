"""The wheel is what users get: ``python -m build`` makes one that holds every shader and ``py.typed``; installed
into a fresh virtualenv, ``python -m wgarray`` runs from outside the source tree and its self-check reports ok.

Marked ``package`` (run by ``make package-test``): it builds, creates a virtualenv and installs wgpu and numpy into it.
"""
from __future__ import annotations

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.package


def _run(cmd, **kw) -> subprocess.CompletedProcess:
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)
    assert r.returncode == 0, (cmd, r.returncode, r.stdout[-4000:], r.stderr[-4000:])
    return r


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ROOT)])
    (whl,) = out.glob("wgarray-*.whl")
    return whl


def test_wheel_holds_every_shader_and_py_typed(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    shaders = {p.relative_to(ROOT).as_posix() for p in (ROOT / "wgarray").rglob("*.wgsl")}
    assert shaders, "no shaders found in the source tree"
    assert shaders <= names, sorted(shaders - names)
    assert "wgarray/py.typed" in names
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "wgarray").rglob("*.py")}
    assert modules <= names, sorted(modules - names)  # every subpackage is found


def test_installed_wheel_runs_its_self_check(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / ("Scripts" if os.name == "nt" else "bin") / "python"
    _run([str(py), "-m", "pip", "install", "-q", str(wheel)])
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.setdefault("XDG_RUNTIME_DIR", "/tmp")
    where = _run([str(py), "-c", "import wgarray; print(wgarray.__file__)"], cwd=tmp_path, env=env).stdout.strip()
    assert Path(where).resolve().is_relative_to(env_dir.resolve()), where  # the wheel, not the checkout
    out = _run([str(py), "-m", "wgarray"], cwd=tmp_path, env=env).stdout
    report = out.split("self-check against numpy:", 1)[1].split("\n\n", 1)[0]
    lines = [ln.strip() for ln in report.splitlines() if ln.strip()]
    assert lines and all(ln.startswith("ok") for ln in lines), out
