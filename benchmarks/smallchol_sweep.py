"""The small path's Cholesky, old kernel against the register kernel (``kernels.linalg_factor.SMALL_CHOL_REG``)
and its split settings, next to torch: ``benchmarks.linalg_small``'s cholesky rows once per setting.

    python -m benchmarks.smallchol_sweep            # H100/H200: 1,000 x 16^2, 32^2, 64^2; off, on, split1, split2
    python -m benchmarks.smallchol_sweep --small    # lavapipe: batches of 100, 16^2 and 32^2 only

Same as ``python -m benchmarks.linalg_small --ops cholesky --sizes 1000x16 1000x32 1000x64 --small-chol-reg off on
split1 split2`` (other arguments are passed on).  Read the ``nan x20`` column (a stream of 20 "nan" calls and one
sync, a call) and its ratio to ``torch x20``: the setting with the best ratio at 1000x32^2, not slower than ``off``
at 16^2 and 64^2, should become the default (linalg_small's closing line says where).
"""
from __future__ import annotations

import sys

from . import linalg_small


def main() -> None:
    args = sys.argv[1:]
    small = "--small" in args
    args = [a for a in args if a != "--small"]
    sizes = ["1000x16", "1000x32"] if small else ["1000x16", "1000x32", "1000x64"]
    sys.argv = [sys.argv[0], "--ops", "cholesky", "--sizes", *sizes, "--small-chol-reg", "off", "on", "split1",
                "split2"] + ["--quick"] * small + args
    linalg_small.main()


if __name__ == "__main__":
    main()
