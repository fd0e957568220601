"""The small path's solve / inv, old kernel against the register kernel (``kernels.linalg_factor.SMALL_LU_REG``)
and its split settings, next to torch: ``benchmarks.linalg_small``'s solve (16 right-hand sides) and inv rows once
per setting.

    python -m benchmarks.smalllu_sweep            # H100/H200: 1,000 x 16^2, 32^2, one 64^2, 1,000 x 64^2;
                                                  # off, on, split1, split2
    python -m benchmarks.smalllu_sweep --small    # lavapipe: batches of 100, 16^2 and one 32^2 only

Same as ``python -m benchmarks.linalg_small --ops solve inv --sizes 1000x16 1000x32 64 1000x64 --small-lu-reg off
on split1 split2`` (other arguments are passed on).  Read the ``nan x20`` column (a stream of 20 "nan" calls and one
sync, a call) and its ratio to ``torch x20``: the rows that decide are 1000x32^2 and 64^2 (one matrix) against
``off``; the setting with the best ratio there, not slower than ``off`` at 16^2, should become the default
(linalg_small's closing line says where).  Every row checks its answer against numpy (max rel err < 1e-3).
"""
from __future__ import annotations

import sys

from . import linalg_small


def main() -> None:
    args = sys.argv[1:]
    small = "--small" in args
    args = [a for a in args if a != "--small"]
    sizes = ["1000x16", "32"] if small else ["1000x16", "1000x32", "64", "1000x64"]
    sys.argv = [sys.argv[0], "--ops", "solve", "inv", "--sizes", *sizes, "--small-lu-reg", "off", "on", "split1",
                "split2"] + ["--quick", "--repeat", "5"] * small + args
    linalg_small.main()


if __name__ == "__main__":
    main()
