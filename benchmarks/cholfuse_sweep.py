"""cholfuse: cholesky (float32) with ``factor.CHOL_LEFT`` (a panel's diagonal blocks left-looking inside it: no update
launch between them) against the default, next to torch and numpy, at n = 4096 and 2048: ``benchmarks.linbig_sweep``
with the cholfuse variants only (its ``VARIANTS`` table says what each sets).

    python -m benchmarks.cholfuse_sweep            # n = 4096 and 2048 (the GPU run, <= 150 s on an H100/H200)
    python -m benchmarks.cholfuse_sweep --small    # n = 256 and 128 (lavapipe: the variants forced below BIG_N)

Each variant's line: best synchronised ms, ratio to torch and numpy (> 1: wgarray faster), dispatches a call, the
host's issue time and the backward error ||L L^T - A|| / ||A|| ("BAD" above 1e-3); the default's phases follow.
How to read it: a chol_left* variant faster than "default" at 4096 (and not slower at 2048) -> ``CHOL_LEFT = True``
in wgarray/api/linalg/factor.py with that variant's widths (``CHOL_BLOCK_BIG`` there; ``CHOL_INV_INNER_BIG``,
``CHOL_APPLY_ROWS``, ``CHOL_LEFT_KC``, ``CHOL_LEFT_KC_INV`` in wgarray/kernels/linalg_factor.py).  ``chol_inv+b256``
is the 256-wide panel's control without CHOL_LEFT.
"""
from __future__ import annotations

import argparse

from benchmarks import linbig_sweep

# most wanted first (linbig_sweep's time guard skips the last ones if the run runs long)
VARIANTS = ("default", "chol_left", "chol_left+b256", "chol_left+b512", "chol_left+b256+r32", "chol_left+b256+i32",
            "chol_left+b256+kci32", "chol_left+b256+kc32", "chol_inv+b256")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", action="store_true", help="n = 256 and 128 (lavapipe)")
    ap.add_argument("--sizes", type=int, nargs="+")
    ap.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    ap.add_argument("--max-seconds", type=float, default=125.0)
    args = ap.parse_args(argv)
    sizes = args.sizes or ([256, 128] if args.small else [4096, 2048])
    linbig_sweep.main(["--sizes", *map(str, sizes), "--ops", "cholesky", "--variants", *args.variants,
                       "--max-seconds", str(args.max_seconds)])


if __name__ == "__main__":
    main()
