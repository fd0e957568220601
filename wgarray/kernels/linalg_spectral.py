"""Device kernels of the spectral/orthogonal linalg functions (qr, eigh, svd): Householder QR
(``shaders/linalg_qr.wgsl``), parallel-order Jacobi rotations (``shaders/linalg_jacobi.wgsl``: one-sided for the
svd, two-sided for eigh) and the ordering of eigen/singular values with their vectors
(``shaders/linalg_spectral_order.wgsl``).

Every kernel works on a batch of matrices in global memory, column-major (``a[b*m*n + col*m + row]``, which is
the C-order copy of ``x.mT``), so a column is contiguous for the column rotations and reflector products that
dominate the work.  Each step that needs the results of all workgroups before it (one reflector, one rotation set)
is one dispatch; the host issues the dispatches and reads one 4-byte flag a Jacobi sweep (converged or not).
Host-side bookkeeping only: these functions take and fill device buffers of arrays the caller allocated.
"""
from __future__ import annotations

import functools
import math
import struct
from dataclasses import dataclass

from ..dtypes import DType
from . import launch, layout, source

MAX_WG = 256  # WebGPU's floor of invocations a workgroup (the elementwise-style phases)
REDUCE_WG = 64  # workgroups that reduce with barriers: more threads cost more barrier time than they save (lavapipe)


def workgroup_for(rows: int) -> int:
    """Threads a workgroup for work along vectors of ``rows`` elements: the next power of two, 8 to REDUCE_WG
    (small matrices in big batches then keep their lanes busy)."""
    return min(REDUCE_WG, max(8, 1 << max(0, rows - 1).bit_length()))


def element_constants(dt: DType) -> dict[str, str]:
    """The substitutions every spectral shader (and linalg_factor's complex LU) takes: T the real type of the
    elements, S the element type (T, or vec2<T> for complex matrices), SCALAR the element helpers for S
    (linalg_scalar_real/complex.wgsl) and the real type's constants.  Rendered once a type (every dispatch asks,
    also when its pipeline is cached: eigh 1024 makes ~1,100 block dispatches)."""
    return dict(_constants_of(source.ctype(dt.component), dt.kind == "c"))


@functools.lru_cache(maxsize=None)
def _constants_of(t: str, cplx: bool) -> dict[str, str]:
    c = (dict(T="f64", EPS="2.220446049250313e-16", TINY="2.2250738585072014e-308", BIG="1e150") if t == "f64" else
         dict(T="f32", EPS="1.1920928955078125e-07", TINY="1.1754943508222875e-38", BIG="1e18"))
    return dict(c, S=f"vec2<{t}>" if cplx else t,
                SCALAR=source.render("linalg_scalar_complex.wgsl" if cplx else "linalg_scalar_real.wgsl", T=t))


def _with_rotation(c: dict[str, str]) -> dict[str, str]:
    """The substitutions of the Jacobi shaders: the constants and the shared rotation (linalg_rotation.wgsl),
    rendered once a set of constants."""
    return dict(c, ROTATION=_rotation(c["T"], c["BIG"], c["TINY"]))


@functools.lru_cache(maxsize=None)
def _rotation(t: str, big: str, tiny: str) -> str:  # the template's placeholders
    return source.render("linalg_rotation.wgsl", T=t, BIG=big, TINY=tiny)


def _dispatch(device, key: tuple, shader: str, bindings: list[launch.Binding], subs: dict, wg: int,
              arrays: list, params: layout.Params, workgroups: int) -> None:
    """Compile (cached under ``key``) and record one dispatch of ``workgroups`` workgroups of ``wg`` threads over
    ``arrays``' device buffers, in ``bindings``' order."""
    kernel = launch.compile(device, key, lambda: launch.Kernel(shader, tuple(bindings), subs, wg))
    buffers = [a.mirror.buffer() if b.access == "read" else a.mirror.buffer_for_write()
               for a, b in zip(arrays, bindings)]
    launch.dispatch(device, kernel, buffers, params.bytes(), workgroups=workgroups)


# -- Jacobi ---------------------------------------------------------------------------------------------------
def _jacobi(device, phase: int, a, v, cs, flag, batch: int, m: int, n: int, step: int, sweep: int, flags: int,
            wg: int, workgroups: int) -> None:
    c = element_constants(a.dtype)
    t = c["S"]
    bindings = [launch.write("a", f"array<{t}>"), launch.write("v", f"array<{t}>"),
                launch.write("rot_cs", f"array<{t}>"), launch.write("flag", "array<atomic<u32>>")]
    nn = n + (n & 1)
    params = layout.Params().u32(batch, m, n, nn // 2, step, nn, sweep, flags)
    _dispatch(device, ("linalg_jacobi", t, phase, wg), "linalg_jacobi.wgsl", bindings,
              dict(_with_rotation(c), PHASE=phase, LOGWG=int(math.log2(wg))), wg, [a, v, cs, flag], params,
              workgroups)


def jacobi_init(device, a, v, batch: int, n: int, cs, flag, symmetrise: bool) -> None:
    """V <- I (n x n per matrix); with ``symmetrise`` A's upper triangle <- its lower."""
    total = batch * n * n
    _jacobi(device, 3, a, v, cs, flag, batch, n, n, 0, 0, 2 if symmetrise else 0, MAX_WG,
            math.ceil(total / MAX_WG))


def jacobi_sweep(device, a, v, cs, flag, batch: int, m: int, n: int, sweep: int, two_sided: bool,
                 want_v: bool = True) -> None:
    """One sweep (nn - 1 rotation sets) over every pair of columns: one-sided on G (m x n) or two-sided on the
    symmetric A (n x n); ``flag[sweep]`` becomes 1 when some rotation was applied."""
    nn = n + (n & 1)
    npairs = nn // 2
    wg = workgroup_for(n if two_sided else m)
    for step in range(nn - 1):
        if two_sided:
            _jacobi(device, 1, a, v, cs, flag, batch, n, n, step, sweep, 0, wg, batch * npairs)
            _jacobi(device, 2, a, v, cs, flag, batch, n, n, step, sweep, 0, wg, batch * npairs)
        else:
            _jacobi(device, 0, a, v, cs, flag, batch, m, n, step, sweep, int(want_v), wg, batch * npairs)


# -- ordering -------------------------------------------------------------------------------------------------
def _order_parts(c: dict[str, str], phase: int) -> tuple[list[launch.Binding], dict[str, str]]:
    """linalg_spectral_order.wgsl's bindings and substitutions for ``phase``: out holds real values in PHASE 0 (the
    sorted keys: eigvalsh's / svdvals' output in their real dtype, no complex buffer and copy), elements in PHASE 1."""
    s, t = c["S"], c["T"]
    o = t if phase == 0 else s
    bindings = [launch.read("src", f"array<{s}>"), launch.write("keys", f"array<{t}>"),
                launch.write("out", f"array<{o}>"), launch.write("perm", "array<u32>")]
    return bindings, dict(c, PHASE=phase, O=o, OUT_OF_KEY="x" if phase == 0 else "sc_from(x)",
                          OUT_OF_ELEM="sc_re(v)" if phase == 0 else "v")


def order(device, src, keys, vals, perm, batch: int, m: int, n: int, ascending_diagonal: bool) -> None:
    """vals (real: src's real dtype), perm (batch x n) <- the diagonal of src (n x n, ascending; its real parts) or
    its column norms (m x n, descending), sorted, and the permutation that sorts them."""
    c = element_constants(src.dtype)
    wg = workgroup_for(n)
    params = layout.Params().u32(batch, m, n, 0, int(ascending_diagonal), 0, 0, 0)
    bindings, subs = _order_parts(c, 0)
    _dispatch(device, ("linalg_order", c["S"], 0, wg), "linalg_spectral_order.wgsl", bindings, subs, wg,
              [src, keys, vals, perm], params, batch)


def permute_columns(device, src, perm, out, dummy, batch: int, n: int, length: int, transpose: bool) -> None:
    """out <- the n columns (each ``length`` long) of the column-major src in perm's order, as the rows of a
    row-major (n x length) matrix, or as the columns of a row-major (length x n) one with ``transpose``."""
    c = element_constants(src.dtype)
    total = batch * n * length
    params = layout.Params().u32(batch, 0, n, length, 2 if transpose else 0, 0, 0, 0)
    bindings, subs = _order_parts(c, 1)
    _dispatch(device, ("linalg_order", c["S"], 1, MAX_WG), "linalg_spectral_order.wgsl", bindings, subs, MAX_WG,
              [src, dummy, out, perm], params, math.ceil(total / MAX_WG))


# -- Householder QR -------------------------------------------------------------------------------------------
def _qr(device, phase: int, a, tau, q, r, batch: int, m: int, n: int, k: int, qc: int, kr: int, cnt: int,
        wg: int, workgroups: int) -> None:
    c = element_constants(a.dtype)
    t = c["S"]
    bindings = [launch.write(name, f"array<{t}>") for name in ("a", "tau", "q", "r")]
    params = layout.Params().u32(batch, m, n, k, qc, kr, min(m, n), cnt)
    _dispatch(device, ("linalg_qr", t, phase, wg), "linalg_qr.wgsl", bindings, dict(c, PHASE=phase), wg,
              [a, tau, q, r], params, workgroups)


def qr_factor(device, a, tau, dummy, batch: int, m: int, n: int) -> None:
    """a (column-major m x n per matrix) <- its Householder factored form; tau (batch x min(m, n))."""
    wg = workgroup_for(m)
    for k in range(min(m, n)):
        _qr(device, 0, a, tau, dummy, dummy, batch, m, n, k, 0, 0, 1, wg, batch)
        if n - k - 1 > 0:
            _qr(device, 1, a, tau, dummy, dummy, batch, m, n, k, 0, 0, n - k - 1, wg, batch * (n - k - 1))


def qr_form_q(device, a, tau, q, dummy, batch: int, m: int, n: int, qc: int, fix_signs: bool = False) -> None:
    """q (row-major m x qc per matrix) <- the first qc columns of H_0 ... H_{K-1}; with ``fix_signs`` column c
    negated where R_cc < 0."""
    wg = workgroup_for(m)
    total = batch * m * qc
    _qr(device, 3, a, tau, q, dummy, batch, m, n, 0, qc, 0, 1, MAX_WG, math.ceil(total / MAX_WG))
    for k in reversed(range(min(m, n))):
        if qc - k > 0:
            _qr(device, 2, a, tau, q, dummy, batch, m, n, k, qc, 0, qc - k, wg, batch * (qc - k))
    if fix_signs:
        _qr(device, 5, a, tau, q, dummy, batch, m, n, 0, qc, 0, 1, MAX_WG, math.ceil(total / MAX_WG))


def qr_extract_r(device, a, tau, r, dummy, batch: int, m: int, n: int, kr: int) -> None:
    """r (row-major kr x n per matrix) <- the upper triangle of the factored a."""
    total = batch * kr * n
    _qr(device, 4, a, tau, dummy, r, batch, m, n, 0, 0, kr, 1, MAX_WG, math.ceil(total / MAX_WG))


# -- block Jacobi (large n: the rotations applied by the tuned matmul) ----------------------------------------
BLOCK_CANDIDATES = (32, 24, 16, 8)  # b: the 2b x 2b subproblem lives in workgroup memory
# The subproblem's own sweeps a step: INNER_SWEEPS from n = CONVERGE_BELOW on (the outer sweeps' test decides
# convergence), INNER_CAP below (solved to convergence: it converges quadratically, 4-8 seen; with one or two pairs a
# step the outer sweeps, each a flag read, are what a fixed count would multiply).  The H100 (2026-12-06,
# gpu_results/s24): one inner sweep at b = 32 took eigh 1024 from 274 to 165 ms, the svd from 392 to 272.
INNER_SWEEPS = 1
INNER_CAP = 30
CONVERGE_BELOW = 256


def inner_sweeps(n: int) -> int:
    return INNER_SWEEPS if n >= CONVERGE_BELOW else INNER_CAP


# The accumulated rotation J in workgroup memory with rows of W + J_PAD (W = 2b): at J_PAD = 0 the update of a
# column pair (one invocation a row, a warp 32 consecutive rows) hits one bank 32 times (a row of 64 or 32 words),
# a 32-way conflict on every J access; 1 spreads the rows over all banks (H100, n = 1024: the solve 98.6 us a step
# from 266.6, eigh 91.1 ms from 152.2, the svd 136.9 from 193.2).
J_PAD = 1


def block_bytes(b: int, d: DType) -> int:
    """Workgroup memory of the subproblem solver for blocks of b: the packed lower triangle of the 2b x 2b
    subproblem, its 2b x 2b accumulated rotation (rows padded by J_PAD) and b rotation pairs."""
    w = 2 * b
    return (w * (w + 1) // 2 + w * (w + J_PAD) + w) * d.device_itemsize + 8


def block_size(device, d: DType) -> int:
    """The largest candidate block whose solver fits the device's workgroup memory (b = 32 for float32 on
    lavapipe's 32 KiB and an H200's 48 KiB; 24 for float64 on 32 KiB; 16 at WebGPU's 16 KiB floor)."""
    limit = device.properties.limits.max_compute_workgroup_storage_size
    for b in BLOCK_CANDIDATES:
        if block_bytes(b, d) <= limit:
            return b
    return 2


_BLOCK_BINDINGS = ("am", "vm", "subp", "ao", "vo", "jo", "subo", "flag")


@dataclass(frozen=True)
class BlockShape:
    """The sizes of one block Jacobi run: ``batch`` matrices, n real columns, padded to ``npad`` = 2kb, A/G^T rows
    of ``length`` (eigh: npad; svd: the column length L) in working rows of ``rl`` (length + n with V, rounded up
    to 4 for the matmul's vector loads), blocks of ``b``."""

    batch: int
    n: int
    npad: int
    length: int
    rl: int
    b: int

    @property
    def k(self) -> int:
        return self.npad // (2 * self.b)


def block_phase(device, phase: int, two_sided: bool, shape: BlockShape, arrays: dict, spare: list, *, step: int,
                threads: int, sweep: int = 0, flags: int = 0, tol: float = 0.0, sg: int = 0,
                astr: int = 0) -> None:
    """One dispatch of linalg_blockjac.wgsl's ``phase`` (its header says what each does) over the ``arrays`` named
    by binding (am vm subp ao vo jo subo flag); the bindings not named get distinct arrays from ``spare``.
    ``sg`` subproblem workgroups come first, then ``threads`` elementwise invocations."""
    spares = iter(spare)
    bound = [arrays[nm] if nm in arrays else next(spares) for nm in _BLOCK_BINDINGS]
    wg = block_workgroup(device, shape.b)
    t, bindings, subs = _block_parts(bound[0].dtype, phase, two_sided, shape.b, J_PAD)
    tolbits = struct.unpack("<I", struct.pack("<f", tol))[0]
    params = layout.Params().u32(shape.batch, shape.n, shape.npad, shape.length, shape.b, shape.k, step, sweep,
                                 flags, tolbits, sg, inner_sweeps(shape.n), shape.rl, astr, 0, 0)
    key = ("linalg_blockjac", t, phase, two_sided, shape.b, wg, J_PAD)
    groups = math.ceil(threads / wg)
    _dispatch(device, key, "linalg_blockjac.wgsl", bindings, subs, wg, bound, params, sg + groups)


@functools.lru_cache(maxsize=None)
def _block_parts(dt: DType, phase: int, two_sided: bool, b: int, jpad: int) -> tuple[str, list, dict]:
    """block_phase's bindings and substitutions, made once a setting (~1,100 block dispatches an eigh at n = 1024
    would otherwise build them each time, also when the pipeline is cached)."""
    c = element_constants(dt)
    t = c["T"]
    bindings = [launch.read(nm, f"array<{t}>") if i < 3 else launch.write(nm, f"array<{t}>")
                for i, nm in enumerate(_BLOCK_BINDINGS[:-1])] + [launch.write("flag", "array<atomic<u32>>")]
    w = 2 * b
    subs = dict(_with_rotation(c), PHASE=phase, W=w, HALF=b, TRI=w * (w + 1) // 2, JS=w + jpad,
                JLEN=w * (w + jpad), TWO_SIDED="true" if two_sided else "false")
    return t, bindings, subs


def block_workgroup(device, b: int) -> int:
    """Invocations of the block phases' workgroups: one a 2 x 2 block of the subproblem (b^2), a power of two from
    64 to the device's limit (1024 on lavapipe and NVIDIA), so the solver's barriers wait for few updates each."""
    limit = min(1024, device.properties.limits.max_compute_invocations_per_workgroup)
    return max(64, min(limit, 1 << max(0, b * b - 1).bit_length()))
