"""Issue 12's large factorisations (cholesky, solve with 16 right-hand sides, inv; float32, n = 1024 and 4096):
where the time goes, and every knob of ``wgarray/api/linalg/factor.py`` against the default, next to torch
(cuSOLVER, TF32 off) and numpy (LAPACK on the host's cores) in the same process.

    python -m benchmarks.linbig_sweep              # n = 4096 and 1024 (the GPU run, <= 150 s on an H100/H200)
    python -m benchmarks.linbig_sweep --small      # n = 256 and 128 with the same variants (lavapipe)
    python -m benchmarks.linbig_sweep --sizes 2048 --variants default no_replay

Two tables a size:

- phases (the default settings): one call recorded kernel launch by kernel launch (``kernels/linalg_factor.py``'s
  cholesky_block, trsm, tslu, lu_finish, update, swap, nanfill, chol_finish; "factor:" or "subst:" by where they run;
  "...:update_kK": the updates with k = K > 64: SUBST_OUTER's / FACTOR_OUTER's past an outer block, Cholesky's
  panels' trailing updates), then
  each phase's launches replayed alone at their real sizes, back to back in one synchronised sample (best of a
  few): the ms a call spends in that phase and its dispatches a call; "rest" is the whole call's time less the
  phases' sum (the input copy, eye, the status read, host issue and gaps).  Replays run on the call's own buffers
  (already factored data: the timings hold, the values are garbage).
- variants: the whole call for the default and every knob setting (name = setting), its best synchronised time,
  ratio to torch and to numpy (> 1: wgarray faster), dispatches a call, the host's time to issue one call
  (unsynchronised; near "ms": the call is bound by the host's launches), and the backward error of its answer
  (cholesky ||L L^T - A|| / ||A||, solve ||A x - b|| / (||A|| ||x||), inv ||A X - I|| / n; "BAD" above 1e-3).

How to read it: a variant that beats "default" at a size (for its ops) should become the default there: the knob
and the file are in ``VARIANTS`` below (e.g. ``tslu_reg+subst64`` faster at both sizes -> ``SUBST_BLOCK = 64`` in
api/linalg/factor.py).  The phases table is printed for the default and for the fastest variant of the op when that
is another one.  Cholesky's default (``kernels/linalg_factor.py`` CHOL_INV = None: the
diagonal block and its inverse in one launch, L21 = A21 W as a GEMM, on GPUs from BIG_N on) is timed against the
fused panel (``chol_fused``, the default below BIG_N) and other widths.  ``--ops cholesky`` times that operation only.
The subst_step* variants (``kernels/linalg_factor.py`` SUBST_STEP: one ``lu_subst`` launch a substitution block
instead of a trsm and a matmul update; phase "subst:lu_subst") time solve's and inv's
substitution: the fastest beating "default" for both ops at 4096 and 1024 -> ``SUBST_STEP = None`` (on GPUs) with its
settings (factor.SUBST_BLOCK, SUBST_COLS, factor.INV_TRI); faster for solve only -> also ``SUBST_STEP_MAX_K = 16``
(inv keeps the old path).
The invsub controls time the defaults of invsub phase 2 (on GPUs: factor.INV_TRI, factor.SUBST_OUTER = 256 rows with
factor.SUBST_OUTER_STEP for inv's substitution in two levels, factor.FACTOR_OUTER = 256 columns for LU's trailing update
from BIG_N on; phases "...:update_kK": their GEMMs with k = K > 64) against the old paths: inv_tri_off, subst_outer_off,
subst_outer_step_off, factor_outer_off, and outer_off (all of them off: the default before invsub).  A control faster
than "default" at a size -> that knob off there (FACTOR_OUTER is off below BIG_N already); subst_outer512 /
subst_outer128: another outer height (factor.SUBST_OUTER).
tslu_sg / tslu_sg_off: the tournament's argmax by subgroup operations forced on / off (``kernels/linalg_factor.py``
TSLU_SUBGROUP, on by default where the device has `subgroup`; the "tslu subgroup" line says whether the device takes
it): tslu_sg_off faster than "default" at both sizes -> ``TSLU_SUBGROUP = False``; tslu_sg_loop (the subgroups'
winners reduced by a loop, not subgroup operations) faster than default -> ``TSLU_SG_FINAL = False``.
"""
from __future__ import annotations

import argparse
import contextlib
import time

import numpy as np

from benchmarks.linalg_big import K as NRHS, _inputs, _residual, _time

OPS = ("cholesky", "solve", "inv")

# name -> (ops it concerns, {(module, attribute): value}); "F" = wgarray.api.linalg.factor, "K" =
# wgarray.kernels.linalg_factor.  Block settings apply at every size (BLOCK itself); to adopt one at 4096 only,
# set factor.BLOCK_BIG (used from factor.BIG_N = 2048 on).
REG = {("K", "TSLU_REG"): True}  # the GPUs' default since linbig phase 4 (forced: lavapipe runs the same path)
CHOL_LEAN = {("K", "CHOL_INV_RECIP"): True, ("K", "CHOL_INV_SQRT"): "fast", ("K", "CHOL_INV_FLAG"): True,
             ("K", "CHOL_INV_UNCHECKED"): True}  # cholsg: cholesky_inv's lean code (all but GJ)
def _upd(name: str):
    """A matmul override taking the variant ``name`` for the products with k > 64 (the usual choice for the rest)."""
    return lambda M, N, K, batch: name if K > 64 else None


VARIANTS: dict[str, tuple[tuple[str, ...], dict]] = {
    "default": (OPS, {}),  # on GPUs TRSM_REG = 64, LU_FINISH_REG, TSLU_REG, CHOL_INV / CHOL_FUSED, SUBST_STEP (<= 16 rhs),
    # REPLAY; LU panels LU_BLOCK = 32 wide
    "tslu_loop": (("solve", "inv"), {("K", "TSLU_REG"): False}),  # the default before linbig phase 4
    # the tournament's pivot search by subgroup operations (kernels/linalg_factor.py TSLU_SUBGROUP; None: on with the
    # register tournament where the device has 'subgroup'): forced on (CPU adapters: with the loop body) / off (the tree)
    "tslu_sg": (("solve", "inv"), {("K", "TSLU_SUBGROUP"): True}),
    "tslu_sg_off": (("solve", "inv"), {("K", "TSLU_SUBGROUP"): False}),
    "tslu_sg_final": (("solve", "inv"), {("K", "TSLU_SUBGROUP"): True, ("K", "TSLU_SG_FINAL"): True}),
    "tslu_sg_loop": (("solve", "inv"), {("K", "TSLU_SUBGROUP"): True, ("K", "TSLU_SG_FINAL"): False}),
    # linbig4: around the register tournament (a flat pivot search lost at 4096): the substitution's blocks, leaves, panel width
    "tslu_reg+subst64": (("solve", "inv"), {**REG, ("F", "SUBST_BLOCK"): 64}),
    "tslu_reg+leaf1024": (("solve", "inv"), {**REG, ("K", "tslu_rows"): 1024}),
    "tslu_reg+subst64+leaf1024": (("solve", "inv"), {**REG, ("F", "SUBST_BLOCK"): 64, ("K", "tslu_rows"): 1024}),
    # linchol: trsm as GEMM (the diagonal block and W = L11^-T in one launch, L21 = A21 W as an in-place GEMM); the
    # default since linchol phase 2: on GPUs from BIG_N = 2048 on with 128-wide panels of 32-wide blocks, fused below
    "chol_fused": (("cholesky",), {("K", "CHOL_INV"): False}),  # the fused panel at every size (the old default)
    "chol_inv+b128i64": (("cholesky",), {("K", "CHOL_INV_INNER_BIG"): 64}),  # 64-wide blocks from BIG_N on
    "chol_inv+b64": (("cholesky",), {("F", "CHOL_BLOCK_BIG"): None, ("K", "CHOL_INV_INNER_BIG"): 64}),
    "chol_inv+b256": (("cholesky",), {("F", "CHOL_BLOCK_BIG"): 256}),  # fewer, larger trailing updates (the default)
    "chol_inv_all": (("cholesky",), {("K", "CHOL_INV"): True}),  # also below BIG_N (64 / 64 there)
    "chol_inv_all+apply16": (("cholesky",), {("K", "CHOL_INV"): True, ("K", "CHOL_APPLY_ROWS"): 16}),
    # cholsg: cholesky_inv's code generator (kernels/linalg_factor.py CHOL_INV_*; benchmarks/cholsg_sweep.py times the
    # kernel alone): the inverse through the factor's steps (GJ), reciprocals, the device's sqrt + a Newton step, a
    # branch-free failure flag; chol_noinv / chol_invonly: one half of the kernel only (TIMING_ONLY: answers wrong)
    "chol_gj": (("cholesky",), {("K", "CHOL_INV_GJ"): True}),
    "chol_recip": (("cholesky",), {("K", "CHOL_INV_RECIP"): True}),
    "chol_fastsqrt": (("cholesky",), {("K", "CHOL_INV_SQRT"): "fast"}),
    "chol_flag": (("cholesky",), {("K", "CHOL_INV_FLAG"): True}),
    "chol_unchecked": (("cholesky",), {("K", "CHOL_INV_UNCHECKED"): True}),
    "chol_lean": (("cholesky",), CHOL_LEAN),  # recip + fastsqrt + flag + unchecked
    "chol_gj+lean": (("cholesky",), {("K", "CHOL_INV_GJ"): True, **CHOL_LEAN}),
    "chol_inv_all+gj+lean": (("cholesky",), {("K", "CHOL_INV"): True, ("K", "CHOL_INV_GJ"): True, **CHOL_LEAN}),
    "chol_split2+lean": (("cholesky",), {("K", "CHOL_INV_SPLIT"): 2, **CHOL_LEAN}),  # 2 / 4 invocations a row (GJ)
    "chol_split4+lean": (("cholesky",), {("K", "CHOL_INV_SPLIT"): 4, **CHOL_LEAN}),
    "chol_gj+lean+i64": (("cholesky",), {("K", "CHOL_INV_GJ"): True, **CHOL_LEAN, ("K", "CHOL_INV_INNER_BIG"): 64}),
    "chol_split4+lean+i64": (("cholesky",), {("K", "CHOL_INV_SPLIT"): 4, **CHOL_LEAN, ("K", "CHOL_INV_INNER_BIG"): 64}),
    # the fifth session's defaults (SPLIT = 4, the lean code, 64-wide blocks from BIG_N on): their controls
    "chol_i32": (("cholesky",), {("K", "CHOL_INV_INNER_BIG"): 32}),
    "chol_b128": (("cholesky",), {("F", "CHOL_BLOCK_BIG"): 128}),  # the panel width before the fifth session
    "chol_split2": (("cholesky",), {("K", "CHOL_INV_SPLIT"): 2}),
    "chol_split8": (("cholesky",), {("K", "CHOL_INV_SPLIT"): 8}),
    "chol_start": (("cholesky",), {("F", "CHOL_BLOCK_BIG"): 128, ("K", "CHOL_INV_INNER_BIG"): 32,
                                   ("K", "CHOL_INV_SPLIT"): 1,
                                   ("K", "CHOL_INV_RECIP"): False, ("K", "CHOL_INV_SQRT"): "cr",
                                   ("K", "CHOL_INV_FLAG"): False, ("K", "CHOL_INV_UNCHECKED"): False}),
    # cholapply: the diagonal block's factor and its apply (L21 = A21 W) in ONE launch a block (K.CHOL_INV_FUSE_APPLY:
    # cholesky_inv_apply; phase "factor:cholesky_inv_apply" in place of cholesky_inv + cholesky_apply): faster than
    # "default" at 4096 -> CHOL_INV_FUSE_APPLY = None (on GPUs) in kernels/linalg_factor.py; chol_inv_all+fuse_apply
    # against chol_inv_all: the same below BIG_N (and on lavapipe, where CHOL_INV is off by default)
    "fuse_apply": (("cholesky",), {("K", "CHOL_INV_FUSE_APPLY"): True}),
    "chol_inv_all+fuse_apply": (("cholesky",), {("K", "CHOL_INV"): True, ("K", "CHOL_INV_FUSE_APPLY"): True}),
    # the updates' matmul tile (the override hook, M = kernels/matmul.py; k > 64: the panels' trailing updates,
    # lower-tile-only GEMMs at ~17 TFLOP/s on the H100): H100 sixth session, cholesky 4096 default 3.62 ms, upd_64r
    # 3.69, upd_128x64r 3.72, upd_128r 3.81, upd_128w 3.83 (the heuristic's choice stays)
    "upd_64r": (("cholesky",), {("M", "override"): _upd("64x64_4x4_k16_r_db_u")}),
    "upd_128x64r": (("cholesky",), {("M", "override"): _upd("128x64_8x4_k16_r_db_u")}),
    "upd_128r": (("cholesky",), {("M", "override"): _upd("128x128_8x8_k16_r_db_u")}),
    "upd_128w": (("cholesky",), {("M", "override"): _upd("128x128_8x8_k8_w_db2_u")}),
    "chol_noinv": (("cholesky",), {("K", "CHOL_INV_PART"): "factor"}),
    "chol_invonly": (("cholesky",), {("K", "CHOL_INV_PART"): "inverse"}),
    # linchol phase 2: one launch a substitution block (K.SUBST_STEP: lu_subst, the target block's triangle solved in its
    # workgroup and the other rows' update, instead of a trsm and a matmul update); its block height, columns a
    # workgroup
    "subst_step": (("solve", "inv"), {("K", "SUBST_STEP"): True, ("K", "SUBST_STEP_MAX_K"): None}),  # inv's n rhs too
    "subst_off": (("solve", "inv"), {("K", "SUBST_STEP"): False}),  # the trsm and update launches (the control)
    "subst_step+s64": (("solve", "inv"), {("K", "SUBST_STEP"): True, ("F", "SUBST_BLOCK"): 64}),
    "subst_step+s16": (("solve", "inv"), {("K", "SUBST_STEP"): True, ("F", "SUBST_BLOCK"): 16}),
    "subst_step+cols64": (("inv",), {("K", "SUBST_STEP"): True, ("K", "SUBST_COLS"): 64}),
    # invsub: the controls of the two-level substitution (F.SUBST_OUTER, F.SUBST_OUTER_STEP; inv's), INV_TRI and the
    # two-level factorisation (F.FACTOR_OUTER, solve and inv; from BIG_N on), each off alone and all off
    "inv_tri_off": (("inv",), {("F", "INV_TRI"): False}),
    "subst_outer_off": (("inv",), {("F", "SUBST_OUTER"): 0}),
    "subst_outer_step_off": (("inv",), {("F", "SUBST_OUTER_STEP"): False}),
    "factor_outer_off": (("solve", "inv"), {("F", "FACTOR_OUTER"): 0}),
    "outer_off": (("solve", "inv"), {("F", "INV_TRI"): False, ("F", "SUBST_OUTER"): 0, ("F", "FACTOR_OUTER"): 0}),
    "subst_outer512": (("inv",), {("F", "SUBST_OUTER"): 512}),
    "subst_outer128": (("inv",), {("F", "SUBST_OUTER"): 128}),
    # the control of the default's recorded and replayed launches (factor.REPLAY: ~3x less host time a launch)
    "no_replay": (OPS, {("F", "REPLAY"): False}),
    # last: the 64-column register body is long to compile (lavapipe: minutes; the run's time guard skips it)
    "tslu_reg+lu64": (("solve", "inv"), {**REG, ("F", "LU_BLOCK"): 64}),
    "tslu_reg+lu64+subst64": (("solve", "inv"), {**REG, ("F", "LU_BLOCK"): 64, ("F", "SUBST_BLOCK"): 64}),
}
TIMING_ONLY = ("chol_noinv", "chol_invonly")  # answers wrong by design: their residual is not flagged BAD
PHASED = ("cholesky_block", "cholesky_panel", "cholesky_inv", "cholesky_apply", "cholesky_inv_apply", "trsm", "tslu",
          "lu_finish", "update", "swap", "nanfill", "chol_finish", "lu_subst")


def _modules():
    from wgarray.api.linalg import factor
    from wgarray.kernels import linalg_factor, matmul
    return {"F": factor, "K": linalg_factor, "M": matmul}


@contextlib.contextmanager
def knobs(settings: dict):
    """The knob settings in force inside the block (the old values back after)."""
    mods = _modules()
    saved = {key: getattr(mods[key[0]], key[1]) for key in settings}
    try:
        for (m, attr), v in settings.items():
            setattr(mods[m], attr, v)
        yield
    finally:
        for (m, attr), v in saved.items():
            setattr(mods[m], attr, v)


def _calls(inputs_wg):
    import wgarray as wg
    a, s, b = inputs_wg
    return {"cholesky": lambda: wg.linalg.cholesky(s), "solve": lambda: wg.linalg.solve(a, b),
            "inv": lambda: wg.linalg.inv(a)}


def record(dev, call) -> dict[str, list]:
    """One call of ``call`` with the phase kernels wrapped: {label: [(replay closure, dispatches)]}."""
    mods = _modules()
    F, K = mods["F"], mods["K"]
    out: dict[str, list] = {}
    where = ["factor"]
    replay, F.REPLAY = F.REPLAY, False  # the launches through the drivers, wrapped below (not a recipe's replay)
    originals = {name: getattr(K, name) for name in PHASED}
    lu_solve = F._lu_solve

    def wrap(name):
        orig = originals[name]

        def run(*args, **kw):
            s0 = dev.stats()
            orig(*args, **kw)
            k = args[2].shape[-1] if name == "update" else 0  # the GEMMs by k (SUBST_OUTER's, FACTOR_OUTER's,
            # Cholesky's panels': k > 64)
            out.setdefault(f"{where[0]}:{name}{f'_k{k}' * (k > 64)}", []).append(
                (lambda: orig(*args, **kw), dev.stats().dispatches - s0.dispatches))
        return run

    def subst(*args, **kw):
        where[0] = "subst"
        try:
            return lu_solve(*args, **kw)
        finally:
            where[0] = "factor"

    try:
        for name in PHASED:
            setattr(K, name, wrap(name))
        F._lu_solve = subst
        call().mirror.buffer()
        dev.synchronize()
    finally:
        for name, f in originals.items():
            setattr(K, name, f)
        F._lu_solve = lu_solve
        F.REPLAY = replay
    return out


def phases(dev, call, whole_ms: float, total_disp: int, reps: int) -> list[str]:
    rec = record(dev, call)
    lines = []
    summed = 0.0
    disp = 0
    for label, items in sorted(rec.items()):
        def replay(items=items):
            for f, _ in items:
                f()
        ms = _time(replay, dev.synchronize, reps, 2.0) * 1e3
        summed += ms
        d = sum(k for _, k in items)
        disp += d
        lines.append(f"    {label:22} {len(items):>6} {d:>6} {ms:>9.2f} {ms / len(items) * 1e3:>9.1f} "
                     f"{100 * ms / whole_ms:>6.1f}%")
    lines.append(f"    {'rest':22} {'':>6} {total_disp - disp:>6} {whole_ms - summed:>9.2f} {'':>9} "
                 f"{100 * (whole_ms - summed) / whole_ms:>6.1f}%")
    return lines


def peers(n: int, inputs, reps: int, budget: float, ops=OPS) -> dict:
    a, spd, b = inputs
    out = {}
    fns = {"cholesky": lambda: np.linalg.cholesky(spd), "solve": lambda: np.linalg.solve(a, b),
           "inv": lambda: np.linalg.inv(a)}
    for op in ops:
        out[("numpy", op)] = _time(fns[op], lambda: None, reps, budget) * 1e3
    try:
        import torch
        if not torch.cuda.is_available():
            return out
    except Exception:
        return out
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    ta, ts, tb = (torch.from_numpy(v).cuda() for v in (a, spd, b))
    tfn = {"cholesky": lambda: torch.linalg.cholesky(ts), "solve": lambda: torch.linalg.solve(ta, tb),
           "inv": lambda: torch.linalg.inv(ta)}
    for op in ops:
        out[("torch", op)] = _time(tfn[op], torch.cuda.synchronize, reps, budget) * 1e3
    return out


def _errors_nan():
    import wgarray as wg
    return wg.linalg.errors("nan")


def _variant(dev, f, settings: dict, op: str, inputs, args) -> tuple[float, int, float, float]:
    """(best ms, dispatches a call, backward error, host ms) of the call ``f`` under the knob ``settings``; host
    ms: the best time the host takes to issue one call (in the "nan" error mode: no status read, so the call
    returns before the device is done; near the whole time, the call is bound by the host's launches)."""
    with knobs(settings):
        res = _residual(op, f().numpy(), *inputs)
        s0 = dev.stats()
        f().mirror.buffer()
        dev.synchronize()
        disp = dev.stats().dispatches - s0.dispatches
        ms = _time(lambda: f().mirror.buffer(), dev.synchronize, args.reps, args.budget) * 1e3
        host = float("inf")
        with _errors_nan():  # no status read: the call returns once issued
            for _ in range(3):
                t = time.perf_counter()
                f().mirror.buffer()
                host = min(host, time.perf_counter() - t)
                dev.synchronize()
    return ms, disp, res, host * 1e3


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", action="store_true", help="n = 128 and 256 (lavapipe)")
    ap.add_argument("--sizes", type=int, nargs="+")
    ap.add_argument("--variants", nargs="+", choices=list(VARIANTS), help="default: all")
    ap.add_argument("--ops", nargs="+", choices=OPS, default=list(OPS), help="default: all")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--budget", type=float, default=1.0, help="seconds a timed row at most (after the warm-up)")
    ap.add_argument("--no-phases", action="store_true")
    ap.add_argument("--phases-of", nargs="+", default=[], choices=list(VARIANTS),
                    help="variants whose phases are printed too (besides the default's and the fastest's)")
    ap.add_argument("--max-seconds", type=float, default=130.0,
                    help="the run's time: each size gets a share in proportion to n; past its share, a size's "
                         "remaining variants and phases are skipped (and said so)")
    args = ap.parse_args(argv)
    sizes = args.sizes or ([256, 128] if args.small else [4096, 1024])
    names = args.variants or list(VARIANTS)
    import wgarray as wg
    dev = wg.default_device()
    print(f"device: {dev}")
    from wgarray.kernels import linalg_factor as lf
    reg = lf._reg_default(dev) if lf.TSLU_REG is None else bool(lf.TSLU_REG)
    print(f"tslu subgroup: feature {'subgroup' in dev.features}, sizes {dev.subgroup_sizes}, default "
          f"{'subgroup argmax' if lf.tslu_subgroup(dev, reg) else 'tree'} (register tournament {reg})")
    t_start = time.perf_counter()
    for i, n in enumerate(sizes):
        deadline = args.max_seconds * sum(sizes[:i + 1]) / sum(sizes)  # seconds from t_start
        inputs = _inputs(n)
        ref = peers(n, inputs, args.reps, args.budget, args.ops)
        calls = _calls(tuple(wg.asarray(v) for v in inputs))
        for op in args.ops:
            t_np, t_t = ref[("numpy", op)], ref.get(("torch", op))
            print(f"\n== {op} n={n}{f' ({NRHS} rhs)' if op == 'solve' else ''}: numpy {t_np:.2f} ms, torch "
                  + (f"{t_t:.2f} ms" if t_t else "-"))
            print(f"  {'variant':20} {'ms':>9} {'vs torch':>9} {'vs numpy':>9} {'disp':>6} {'host ms':>8} "
                  f"{'resid':>9}")
            default = None
            results = {}
            for name in names:
                ops, settings = VARIANTS[name]
                if op not in ops:
                    continue
                if time.perf_counter() - t_start > deadline and name != "default":
                    print(f"  {name:20} skipped (past this size's share of --max-seconds)")
                    continue
                try:
                    ms, disp, res, host = _variant(dev, calls[op], settings, op, inputs, args)
                except Exception as e:  # a variant that fails to build or run: say so, go on
                    print(f"  {name:20} FAILED {type(e).__name__}: {e}")
                    continue
                if name == "default":
                    default = (ms, disp)
                results[name] = (ms, disp)
                vt = f"{t_t / ms:>8.3f}x" if t_t else f"{'-':>9}"
                flag = " (timing only)" if name in TIMING_ONLY else " BAD" if not res < 1e-3 else ""
                print(f"  {name:20} {ms:>9.2f} {vt} {t_np / ms:>8.3f}x {disp:>6} {host:>8.2f} {res:>9.1e}{flag}")
            best = min((k for k in results if k not in TIMING_ONLY), key=lambda k: results[k][0], default=None)
            shown = ["default"] * bool(default) + [best] * (best is not None) + [v for v in args.phases_of if v in results]
            for name in dict.fromkeys(shown):
                if args.no_phases or time.perf_counter() - t_start > deadline:
                    break
                print(f"  phases of {name} ({'label':16} {'calls':>6} {'disp':>6} {'ms/call':>9} "
                      f"{'us/launch':>9} {'share':>7})")
                with knobs(VARIANTS[name][1]):
                    for line in phases(dev, calls[op], *results[name], max(2, args.reps // 2)):
                        print(line)
    print(f"\ntotal {time.perf_counter() - t_start:.1f} s; ratios: the peer's time over wgarray's (> 1: wgarray "
          "faster); resid: backward error")


if __name__ == "__main__":
    main()
