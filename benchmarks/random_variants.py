"""Where standard_normal's time goes: ``python -m benchmarks.random_gpu`` run on edited copies of the package
(``python -m benchmarks.random_variants``; ~10 s a variant on a GPU, copies under /tmp).

v0 the package as it is; v1 the opaque ORs (wg_rand_keep_f32) made identities; v2 the 16-bit-halves mulhi forced;
v3 WGSL's builtin log/sqrt/cos/sin in place of the device-independent ones; v4 v3 and v1; v5 an exactly rounded
u32 -> f32 conversion in the uniform.  v1, v3 and v4 give up the same-bits-on-every-device property: measurements
only, never a default."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHADER = "shaders/random_f32.wgsl"
MULHI = '"philox_mulhi64.wgsl" if types & {"i64", "u64"} else "philox_mulhi32.wgsl"'


def _body(src: str, name: str, new: str) -> str:
    """``src`` with the body of WGSL function ``name`` replaced by ``new``."""
    i = src.index(f"fn {name}(")
    j = src.index("\n}\n", i) + 3
    return src[:i] + src[i:src.index("{", i) + 1] + "\n" + new + "\n}\n" + src[j:]


def _identity_keep(s: str) -> str:
    return _body(s, "wg_rand_keep_f32", "    return x;")


def _builtins(s: str) -> str:
    s = _body(s, "wg_rand_ln_f32", "    return log(x);")
    s = _body(s, "wg_rand_sqrt_f32", "    return sqrt(x);")
    return _body(s, "wg_rand_cossin_f32",
                 "    let a = f32(m) * 3.745070282923929e-07;\n    return vec2<f32>(cos(a), sin(a));")


def _exact_conversion(s: str) -> str:
    return _body(s, "wg_rand_open_f32", "    let x = f32(w >> 16u) * 65536.0 + f32(w & 0xffffu);\n"
                                        "    return x * 2.3283064365386963e-10 + 1.1641532182693481e-10;")


VARIANTS = {
    "v0 current": [],
    "v1 keep=identity": [(SHADER, _identity_keep)],
    "v2 mulhi32 forced": [("kernels/source.py", lambda s: s.replace(MULHI, '"philox_mulhi32.wgsl"'))],
    "v3 builtins ln/sqrt/cossin": [(SHADER, _builtins)],
    "v4 builtins + keep=identity": [(SHADER, lambda s: _identity_keep(_builtins(s)))],
    "v5 exact u32->f32": [(SHADER, _exact_conversion)],
}


def main() -> None:
    for name, edits in VARIANTS.items():
        d = f"/tmp/random_variant_{name.split()[0]}"
        shutil.rmtree(d, ignore_errors=True)
        for part in ("wgarray", "benchmarks"):
            shutil.copytree(os.path.join(ROOT, part), os.path.join(d, part))
        for rel, edit in edits:
            path = os.path.join(d, "wgarray", rel)
            with open(path) as f:
                old = f.read()
            new = edit(old)
            assert new != old, (name, rel)
            with open(path, "w") as f:
                f.write(new)
        rest = os.environ.get("PYTHONPATH", "")
        env = dict(os.environ, PYTHONPATH=d + (os.pathsep + rest if rest else ""))
        r = subprocess.run([sys.executable, "-m", "benchmarks.random_gpu"], cwd=d, env=env, capture_output=True,
                           text=True, timeout=120)
        print(f"=== {name} (rc {r.returncode})", r.stderr[-400:] if r.returncode else "")
        print("\n".join(line for line in r.stdout.splitlines() if "GB/s" in line or "ratio" in line), flush=True)


if __name__ == "__main__":
    main()
