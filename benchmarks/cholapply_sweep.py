"""Cholesky's diagonal block and its apply in one launch a block (``kernels.linalg_factor.CHOL_INV_FUSE_APPLY``:
``cholesky_inv_apply``) against the two launches (``cholesky_inv`` + ``cholesky_apply``), next to torch and numpy:
``benchmarks.linbig_sweep``'s cholesky rows for these variants.

    python -m benchmarks.cholapply_sweep            # H100/H200: n = 4096 and 1024 (well under 150 s)
    python -m benchmarks.cholapply_sweep --small    # lavapipe: n = 256 and 128

Same as ``python -m benchmarks.linbig_sweep --sizes 4096 1024 --ops cholesky --variants default fuse_apply
chol_inv_all chol_inv_all+fuse_apply chol_rec chol_rec+fuse_apply --phases-of fuse_apply chol_inv_all+fuse_apply``
(other arguments are passed on).  How to read it: ``fuse_apply`` against ``default`` at 4096 (CHOL_INV's path
there on GPUs): faster -> ``CHOL_INV_FUSE_APPLY = None`` (on GPUs) in kernels/linalg_factor.py; its phases show
``factor:cholesky_inv_apply`` (one launch a 64-wide block) in place of ``factor:cholesky_inv`` +
``factor:cholesky_apply``.  At 1024 the default is the fused panel (CHOL_FUSED): ``chol_inv_all+fuse_apply`` faster
than ``default`` there too -> also consider ``CHOL_INV = True`` below factor.BIG_N (``chol_inv``'s None rule), a
separate decision.  ``chol_rec+fuse_apply`` against ``chol_rec``: the same for factor.CHOL_RECURSIVE (off by
default) at 4096.  The ``resid`` column is each variant's backward error (BAD above 1e-3).
"""
from __future__ import annotations

import sys

from . import linbig_sweep

VARIANTS = ["default", "fuse_apply", "chol_inv_all", "chol_inv_all+fuse_apply", "chol_rec", "chol_rec+fuse_apply"]


def main() -> None:
    args = sys.argv[1:]
    small = "--small" in args
    args = [a for a in args if a != "--small"]
    sizes = ["256", "128"] if small else ["4096", "1024"]
    linbig_sweep.main(["--sizes", *sizes, "--ops", "cholesky", "--variants", *VARIANTS,
                       "--phases-of", "fuse_apply", "chol_inv_all+fuse_apply"]
                      + ["--max-seconds", "600"] * small + args)


if __name__ == "__main__":
    main()
