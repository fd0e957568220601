// Block Jacobi (eigh: two-sided; svd: one-sided) for large n: the host drives the block-pair sets, the tuned matmul
// applies the rotations, these phases do the rest.
// The N = 2 k b padded columns (rows for eigh too) are 2k blocks of b.  Step s of a sweep pairs the blocks by the
// round-robin (circle) schedule over 2k blocks (pair 0: (s mod r, r), pair i > 0: ((s+i) mod r, (s-i) mod r),
// r = 2k-1), and the working matrix is stored permuted into that step's "slot order": pair i occupies the
// contiguous rows [2ib, 2ib + 2b), so the k pair panels are one batched, single-strided matmul operand.
// The working matrix X (batch-major, C order, rows of p.rl): row x = [A row x (eigh, N wide, symmetric) or G^T row
// x (svd: a column of G, L wide) | V^T row x (n wide) | zeros up to p.rl], so one matmul J^T X rotates both.
// Padded rows/columns are zero (no rotation ever touches them: their off-diagonal / inner products are exactly 0).
// Sources: am with its A/G^T part in rows of p.astr (eigh after the first step: A' = (R J)^T alone, N x N), vm
// with its V^T part at column p.len of rows of p.rl (the previous step's J^T X).
// PHASE 0: init, one thread an element of X: A from the input's lower triangle (numpy's UPLO='L'; am column-major
//          n x n) or G^T (am: n x L), V^T the permuted identity, in the slot order of step p.step.
// PHASE 1: workgroups [0, p.sg): the 2b x 2b subproblem of pair (matrix, i) of step p.step, solved by cyclic
//          two-sided Jacobi in workgroup memory (lower triangle packed; at most p.inner sweeps, stopping at one that
//          rotates nothing), the accumulated rotation J written as J^T (the matmul's left operand) to jo, the
//          final subproblem to subo (eigh), any rotation setting flag[p.sweep].  eigh reads the subproblem from
//          the previous step's A' (am, in its slot order) and, within a previous pair, from that pair's solved
//          subproblem (subp, flags bit 0): the matmul recomputes those entries with rounding relative to the
//          diagonal, which the relative skip test would chase forever.  svd reads the pairs' Gram matrices (am).
//          Workgroups from p.sg on: X of this step from the previous step's sources (eigh: A' permuted in rows
//          and columns and symmetrised from its lower triangle; svd: rows permuted).
//          FUSED_GRAM (svd): the solver computes its pair's Gram matrix itself from the rows of G^T (am: the
//          previous step's J^T X with flags bit 2, else X in this step's order), so the permutation rides along
//          here and no Gram matmul is needed.  ONE_BARRIER: the solver variant with one barrier an inner step.
//          FULL_SUB: the subproblem kept whole (rows of W + 1) instead of packed; J's rows are JS = W + J_PAD long.
//          NEXT_ROT (with FULL_SUB): one barrier an inner step, the next step's rotations computed by the invocations
//          that produce their off-diagonal entries (solve_next).
//          TILE_PERMUTE: the permutation by b x b tiles, a workgroup a tile (permute_tile), instead of one thread an
//          element with its own index arithmetic.
// PHASE 2: extract, one thread an element: eigh the diagonal into ao (n x n column-major, only its diagonal read
//          later) and V (vo, column-major: v[b n n + j n + c]); svd G (ao, n x L) and V (vo, n x n), from the
//          slot order of step p.step.

struct Params {
    batch: u32,
    n: u32,
    npad: u32,
    len: u32,
    b: u32,
    k: u32,
    step: u32,
    sweep: u32,
    flags: u32,
    tolbits: u32,
    sg: u32,
    inner: u32,
    rl: u32,
    astr: u32,
    _pad0: u32,
    _pad1: u32,
}

${BINDINGS}

const PHASE: u32 = ${PHASE}u;
const WG: u32 = ${WG}u;
const W: u32 = ${W}u;
const H: u32 = ${HALF}u;
const TWO_SIDED: bool = ${TWO_SIDED};
const ONE_BARRIER: bool = ${ONE_BARRIER};
const FULL_SUB: bool = ${FULL_SUB};
const SS: u32 = W + 1u;  // FULL_SUB's row stride
const JS: u32 = ${JS}u;  // J's row stride in workgroup memory
const TILE_PERMUTE: bool = ${TILE_PERMUTE};
const NEXT_ROT: bool = ${NEXT_ROT};
const TRI: u32 = ${TRI}u;
const FUSED_GRAM: bool = ${FUSED_GRAM};
const GC: u32 = ${GC}u;
const GPT: u32 = ${GPT}u;

// ONE_BARRIER: sa holds two copies of the packed subproblem (read one, write the other a step: ping-pong)
var<workgroup> sa: array<${T}, ${SA_LEN}>;
var<workgroup> sj: array<${T}, ${JLEN}>;
var<workgroup> chunk: array<${T}, ${CHUNK_LEN}>;  // FUSED_GRAM's staged columns (W x GC)
var<workgroup> wcs: array<vec2<${T}>, ${HALF}>;
var<workgroup> wcs4: array<vec4<${T}>, ${WCS4}>;  // NEXT_ROT: two steps' rotations, (c, s, the new diagonal pair)
var<workgroup> wrot: atomic<u32>;
var<workgroup> wany: u32;

// the block in slot j at step s; the slot of block blk at step s
fn block_at(j: u32, s: u32) -> u32 {
    let r = 2u * p.k - 1u;
    let i = j / 2u;
    if (i == 0u) {
        return select(s % r, r, j == 1u);
    }
    return select((s + i) % r, (s + r - i) % r, (j & 1u) == 1u);
}

fn slot_of(blk: u32, s: u32) -> u32 {
    let r = 2u * p.k - 1u;
    if (blk == r) {
        return 1u;
    }
    let d = (blk + r - s % r) % r;
    if (d == 0u) {
        return 0u;
    }
    return select(2u * (r - d) + 1u, 2u * d, d < p.k);
}

// position -> original index, at step s; position at step s -> position at the previous step
fn orig_of(x: u32, s: u32) -> u32 {
    return block_at(x / p.b, s) * p.b + x % p.b;
}

fn prev_pos(x: u32) -> u32 {
    let r = 2u * p.k - 1u;
    return slot_of(block_at(x / p.b, p.step), (p.step + r - 1u) % r) * p.b + x % p.b;
}

fn tri(i: u32, j: u32) -> u32 {
    let hi = max(i, j);
    return hi * (hi + 1u) / 2u + min(i, j);
}

// where the subproblem's entry (i, j) = (j, i) is read: the packed lower triangle, or FULL_SUB's lower triangle
fn sidx(i: u32, j: u32) -> u32 {
    if (FULL_SUB) {
        return max(i, j) * SS + min(i, j);
    }
    return tri(i, j);
}

// entry (x, y) of matrix mb's symmetric A' in the slot order of the step that wrote it
fn sym_at(mb: u32, x: u32, y: u32) -> ${T} {
    let bw = x / W;
    if ((p.flags & 1u) != 0u && bw == y / W) {
        return subp[(mb * p.k + bw) * W * W + (x % W) * W + y % W];
    }
    return am[(mb * p.npad + max(x, y)) * p.astr + min(x, y)];
}

// the two local indices of inner pair q at inner step st (round-robin over W)
fn inner_pair(q: u32, st: u32) -> vec2<u32> {
    let r = W - 1u;
    if (q == 0u) {
        return vec2<u32>(st % r, r);
    }
    return vec2<u32>((st + q) % r, (st + r - q) % r);
}

${ROTATION}

// the packed lower triangle of pair (matrix mb, i)'s subproblem into sa[0..TRI), J <- I
fn load_subproblem(mb: u32, i: u32, lid: u32) {
    if (!TWO_SIDED && FUSED_GRAM) {
        gram_into_sa(mb, i, lid);
    }
    for (var e = lid; e < W * W; e = e + WG) {
        let l1 = e / W;
        let l2 = e % W;
        if (l1 >= l2 && (TWO_SIDED || !FUSED_GRAM)) {
            var v = ${T}(0.0);
            if (TWO_SIDED) {
                v = sym_at(mb, prev_pos(2u * i * p.b + l1), prev_pos(2u * i * p.b + l2));
            } else if (!FUSED_GRAM) {
                v = am[(mb * p.k + i) * W * W + l1 * W + l2];
            }
            if (FULL_SUB) {
                sa[l1 * SS + l2] = v;
                sa[l2 * SS + l1] = v;
            } else {
                sa[tri(l1, l2)] = v;
            }
        }
        sj[l1 * JS + l2] = select(${T}(0.0), ${T}(1.0), l1 == l2);
    }
}

// FUSED_GRAM (svd): the pair's Gram matrix P^T P computed here from its 2b rows of G^T (am, rows of p.astr; in the
// previous step's slot order with flags bit 2, else in this step's), in chunks of GC columns staged in workgroup
// memory; each invocation sums up to GPT entries of the packed lower triangle
fn gram_into_sa(mb: u32, i: u32, lid: u32) {
    var acc: array<${T}, GPT>;
    var l1s: array<u32, GPT>;
    var l2s: array<u32, GPT>;
    for (var g = 0u; g < GPT; g = g + 1u) {
        acc[g] = ${T}(0.0);
        let idx = min(lid + g * WG, TRI - 1u);
        var r = u32((sqrt(f32(8u * idx + 1u)) - 1.0) * 0.5);
        r = min(r, W - 1u);
        while (r > 0u && r * (r + 1u) / 2u > idx) {
            r = r - 1u;
        }
        while (r + 1u < W && (r + 1u) * (r + 2u) / 2u <= idx) {
            r = r + 1u;
        }
        l1s[g] = r;
        l2s[g] = idx - r * (r + 1u) / 2u;
    }
    for (var c0 = 0u; c0 < p.len; c0 = c0 + GC) {
        for (var e = lid; e < W * GC; e = e + WG) {
            let l = e / GC;
            let c = c0 + e % GC;
            var x = 2u * i * p.b + l;
            if ((p.flags & 4u) != 0u) {
                x = prev_pos(x);
            }
            var v = ${T}(0.0);
            if (c < p.len) {
                v = am[(mb * p.npad + x) * p.astr + c];
            }
            chunk[e] = v;
        }
        workgroupBarrier();
        for (var g = 0u; g < GPT; g = g + 1u) {
            let a1 = l1s[g] * GC;
            let a2 = l2s[g] * GC;
            var s = acc[g];
            for (var c = 0u; c < GC; c = c + 1u) {
                s = s + chunk[a1 + c] * chunk[a2 + c];
            }
            acc[g] = s;
        }
        workgroupBarrier();
    }
    for (var g = 0u; g < GPT; g = g + 1u) {
        let idx = lid + g * WG;
        if (idx < TRI) {
            if (FULL_SUB) {
                sa[l1s[g] * SS + l2s[g]] = acc[g];
                sa[l2s[g] * SS + l1s[g]] = acc[g];
            } else {
                sa[idx] = acc[g];
            }
        }
    }
}

// the rotation of inner pair q at inner step st from the copy of the subproblem at sa[src..]: identity when the
// pair is not rotated
fn pair_rotation(src: u32, q: u32, st: u32, tol: ${T}) -> vec2<${T}> {
    let pq = inner_pair(q, st);
    let app = sa[src + sidx(pq.x, pq.x)];
    let aqq = sa[src + sidx(pq.y, pq.y)];
    let apq = sa[src + sidx(pq.x, pq.y)];
    if (wants(app, aqq, apq, tol)) {
        return rotation(app, aqq, apq);
    }
    return vec2<${T}>(${T}(1.0), ${T}(0.0));
}

// the rotation of inner pair q at this inner step: computed by H invocations into wcs (two barriers a step), or
// with ONE_BARRIER by every invocation that needs it, from the step's source copy (the same inputs: the same
// rotation everywhere)
fn rotation_of(src: u32, q: u32, st: u32, tol: ${T}) -> vec2<${T}> {
    if (ONE_BARRIER) {
        return pair_rotation(src, q, st, tol);
    }
    return wcs[q];
}

// row `row` of J's column pair u rotated by cs
fn rotate_j(row: u32, u: vec2<u32>, cs: vec2<${T}>) {
    let jx = sj[row * JS + u.x];
    let jy = sj[row * JS + u.y];
    sj[row * JS + u.x] = cs.x * jx - cs.y * jy;
    sj[row * JS + u.y] = cs.y * jx + cs.x * jy;
}

// whether the inner sweep just ended rotated (wrot, reset for the next), the same in every invocation
fn sweep_rotated(lid: u32) -> u32 {
    if (lid == 0u) {
        wany = atomicLoad(&wrot);
        atomicStore(&wrot, 0u);
    }
    return workgroupUniformLoad(&wany);
}

// the solved subproblem out (sa[src..]): J^T to jo, the subproblem to subo (eigh), any rotation to flag[p.sweep]
fn store_solution(mb: u32, i: u32, lid: u32, src: u32, any_rot: u32) {
    workgroupBarrier();
    let base = (mb * p.k + i) * W * W;
    for (var e = lid; e < W * W; e = e + WG) {  // jo[e] = J^T's entry (e / W, e % W) = J's (e % W, e / W)
        jo[base + e] = sj[(e % W) * JS + e / W];
        if (TWO_SIDED) {
            subo[base + e] = sa[src + sidx(e / W, e % W)];
        }
    }
    if (lid == 0u && any_rot != 0u) {
        atomicMax(&flag[p.sweep], 1u);
    }
}

// Cyclic Jacobi of pair (matrix mb, i)'s 2b x 2b subproblem in workgroup memory: J^T to jo, the solved subproblem
// to subo (eigh).  An inner step rotates the W/2 disjoint inner pairs; an invocation updates a 2 x 2 block of the
// lower triangle (R1^T X R2) and rows of J.  ONE_BARRIER: the packed subproblem is kept twice (ping-pong), each
// step reads the copy at src and writes the other, so no invocation reads an entry another writes and one barrier a
// step suffices (the rotations are computed where they are needed, rotation_of).
fn solve(mb: u32, i: u32, lid: u32) {
    let tol = ${T}(bitcast<f32>(p.tolbits));
    load_subproblem(mb, i, lid);
    if (lid == 0u) {
        atomicStore(&wrot, 0u);  // workgroup memory may hold an earlier dispatch's bytes (no zero-init relied on)
    }
    var src = 0u;
    var any_rot = 0u;
    for (var sw = 0u; sw < p.inner; sw = sw + 1u) {
        workgroupBarrier();
        for (var st = 0u; st < W - 1u; st = st + 1u) {
            let dst = select(0u, TRI - src, ONE_BARRIER);
            if (!ONE_BARRIER) {
                if (lid < H) {
                    let cs = pair_rotation(0u, lid, st, tol);
                    if (cs.y != ${T}(0.0)) {
                        atomicStore(&wrot, 1u);
                    }
                    wcs[lid] = cs;
                }
                workgroupBarrier();
            }
            for (var e = lid; e < H * H; e = e + WG) {
                let bp = e / H;
                let bq = e % H;
                if (bp < bq && !FULL_SUB) {
                    continue;
                }
                let r1 = rotation_of(src, bp, st, tol);
                let r2 = select(rotation_of(src, bq, st, tol), r1, bp == bq);
                let u = inner_pair(bp, st);
                let w = inner_pair(bq, st);
                var i00 = tri(u.x, w.x);
                var i01 = tri(u.x, w.y);
                var i10 = tri(u.y, w.x);
                var i11 = tri(u.y, w.y);
                if (FULL_SUB) {  // the block's own entries (the packed indices fold (x, y) and (y, x) together)
                    i00 = u.x * SS + w.x;
                    i01 = u.x * SS + w.y;
                    i10 = u.y * SS + w.x;
                    i11 = u.y * SS + w.y;
                }
                if (r1.y == ${T}(0.0) && r2.y == ${T}(0.0)) {
                    if (ONE_BARRIER) {  // the other copy gets the unrotated entries
                        sa[dst + i00] = sa[src + i00];
                        sa[dst + i10] = sa[src + i10];
                        sa[dst + i11] = sa[src + i11];
                        sa[dst + i01] = sa[src + i01];
                    }
                    continue;
                }
                if (bp == bq) {  // the pair's own 2 x 2 block: i01 = i10 (packed)
                    let t = r1.y / r1.x;
                    let axy = sa[src + sidx(u.x, u.y)];
                    sa[dst + i00] = sa[src + i00] - t * axy;
                    sa[dst + i11] = sa[src + i11] + t * axy;
                    sa[dst + i10] = ${T}(0.0);
                    sa[dst + i01] = ${T}(0.0);
                    if (ONE_BARRIER) {
                        atomicStore(&wrot, 1u);
                    }
                    continue;
                }
                let x00 = sa[src + i00];
                let x01 = sa[src + i01];
                let x10 = sa[src + i10];
                let x11 = sa[src + i11];
                // Y = X R2, then R1^T Y (R = [[c, s], [-s, c]])
                let y00 = r2.x * x00 - r2.y * x01;
                let y01 = r2.y * x00 + r2.x * x01;
                let y10 = r2.x * x10 - r2.y * x11;
                let y11 = r2.y * x10 + r2.x * x11;
                sa[dst + i00] = r1.x * y00 - r1.y * y10;
                sa[dst + i01] = r1.x * y01 - r1.y * y11;
                sa[dst + i10] = r1.y * y00 + r1.x * y10;
                sa[dst + i11] = r1.y * y01 + r1.x * y11;
            }
            for (var e = lid; e < W * H; e = e + WG) {
                let q = e / W;
                let cs = rotation_of(src, q, st, tol);
                if (cs.y == ${T}(0.0)) {
                    continue;
                }
                rotate_j(e % W, inner_pair(q, st), cs.xy);
            }
            workgroupBarrier();
            src = dst;
        }
        let again = sweep_rotated(lid);
        any_rot = any_rot | again;
        if (again == 0u) {
            break;
        }
    }
    store_solution(mb, i, lid, src, any_rot);
}

// TILE_PERMUTE: tile `tile` of X of this step (b x b: rows [bx b, bx b + b) of matrix mb, columns [by b, by b + b)),
// one invocation an element.  A whole block of b positions comes from one block of the previous step's order
// (contiguous), so the source is a b x b tile too: read row-wise (coalesced) and, where eigh's symmetric A' is read
// from its lower triangle across the diagonal (the source tile above it), transposed through workgroup memory (sj,
// which the permuting workgroups do not otherwise use).
fn permute_tile(tile: u32, lid: u32) {
    let nb = p.npad / H;
    let tpr = (p.rl + H - 1u) / H;
    let mb = tile / (nb * tpr);
    let bx = (tile / tpr) % nb;
    let by = tile % tpr;
    let ty = lid / H;
    let tx = lid % H;
    let live = mb < p.batch && lid < H * H;
    let sx0 = prev_pos(bx * H);
    let y = by * H + tx;
    var trans = false;
    var sy0 = 0u;
    var v = ${T}(0.0);
    if (TWO_SIDED && by * H < p.len) {  // the A part (p.len = npad, a multiple of b: whole tiles)
        sy0 = prev_pos(by * H);
        let pair = sx0 / W == sy0 / W && (p.flags & 1u) != 0u;
        trans = !pair && sx0 < sy0;
        if (live) {
            if (trans) {  // the source's entry (sy0 + ty, sx0 + tx), stored for (tx, ty)
                v = am[(mb * p.npad + sy0 + ty) * p.astr + sx0 + tx];
            } else if (pair || sx0 == sy0) {
                v = sym_at(mb, sx0 + ty, sy0 + tx);
            } else {
                v = am[(mb * p.npad + sx0 + ty) * p.astr + sy0 + tx];
            }
        }
    } else if (live && y < p.rl) {
        if (y >= p.len) {
            v = vm[(mb * p.npad + sx0 + ty) * p.rl + y];
        } else {
            v = am[(mb * p.npad + sx0 + ty) * p.astr + y];
        }
    }
    if (TWO_SIDED) {
        if (live) {
            sj[ty * (H + 1u) + tx] = v;
        }
        workgroupBarrier();
        if (trans && live) {
            v = sj[tx * (H + 1u) + ty];
        }
    }
    if (live && y < p.rl) {
        ao[(mb * p.npad + bx * H + ty) * p.rl + y] = v;
    }
}

// NEXT_ROT: where index x of the subproblem sits at inner step st: (its pair, 0 for the pair's first member, 1 for
// its second), the inverse of inner_pair
fn pair_slot(x: u32, st: u32) -> vec2<u32> {
    let r = W - 1u;
    if (x == r) {
        return vec2<u32>(0u, 1u);
    }
    let d = (x + r - st % r) % r;
    if (d == 0u) {
        return vec2<u32>(0u, 0u);
    }
    if (d < H) {
        return vec2<u32>(d, 0u);
    }
    return vec2<u32>(r - d, 1u);
}

// the rotation of a pair with entries app, aqq, apq: (c, s, the pair's two diagonal entries after it)
fn rot4(app: ${T}, aqq: ${T}, apq: ${T}, tol: ${T}) -> vec4<${T}> {
    if (wants(app, aqq, apq, tol)) {
        let cs = rotation(app, aqq, apq);
        let t = cs.y / cs.x;
        return vec4<${T}>(cs.x, cs.y, app - t * apq, aqq + t * apq);
    }
    return vec4<${T}>(${T}(1.0), ${T}(0.0), app, aqq);
}

// row `row` of an inner step's new entries (xa in column w.x, xb in w.y), its new diagonal entry drow; r2 the
// step's rotation of pair w with w's new diagonal entries: where row is the first member of a pair of step nxt whose
// second member is w.x or w.y, that pair's rotation into wcs4[dst]
fn produce(row: u32, drow: ${T}, w: vec2<u32>, r2: vec4<${T}>, xa: ${T}, xb: ${T}, nxt: u32, dst: u32, tol: ${T}) {
    let a = pair_slot(row, nxt);
    if (a.y == 0u) {
        let partner = inner_pair(a.x, nxt).y;
        if (partner == w.x) {
            wcs4[dst + a.x] = rot4(drow, r2.z, xa, tol);
        } else if (partner == w.y) {
            wcs4[dst + a.x] = rot4(drow, r2.w, xb, tol);
        }
    }
}

// NEXT_ROT (the subproblem whole, FULL_SUB): solve's cyclic Jacobi with one barrier an inner step.  An inner step's
// rotations are in wcs4[par] before it starts; each invocation updates its 2 x 2 block with them and, where one of
// its new entries is the off-diagonal entry of a pair of the next step, computes that pair's rotation into
// wcs4[1 - par] from it and the two diagonal entries the current rotations left (carried in wcs4, the one source of
// the diagonal: the pairs' own blocks take theirs from there).  No entry is read by another invocation within a
// step, and wcs4[1 - par] was last read before the previous barrier.
fn solve_next(mb: u32, i: u32, lid: u32) {
    let tol = ${T}(bitcast<f32>(p.tolbits));
    load_subproblem(mb, i, lid);
    if (lid == 0u) {
        atomicStore(&wrot, 0u);
    }
    workgroupBarrier();
    if (lid < H) {
        let pq = inner_pair(lid, 0u);
        wcs4[lid] = rot4(sa[sidx(pq.x, pq.x)], sa[sidx(pq.y, pq.y)], sa[sidx(pq.x, pq.y)], tol);
    }
    var par = 0u;
    var any_rot = 0u;
    for (var sw = 0u; sw < p.inner; sw = sw + 1u) {
        var mine = false;
        for (var st = 0u; st < W - 1u; st = st + 1u) {
            workgroupBarrier();
            let nxt = (st + 1u) % (W - 1u);
            for (var e = lid; e < H * H; e = e + WG) {
                let bp = e / H;
                let bq = e % H;
                let r1 = wcs4[par * H + bp];
                let r2 = wcs4[par * H + bq];
                let u = inner_pair(bp, st);
                let w = inner_pair(bq, st);
                let i00 = u.x * SS + w.x;
                let i01 = u.x * SS + w.y;
                let i10 = u.y * SS + w.x;
                let i11 = u.y * SS + w.y;
                var x00 = sa[i00];
                var x01 = sa[i01];
                var x10 = sa[i10];
                var x11 = sa[i11];
                if (bp == bq) {
                    if (r1.y != ${T}(0.0)) {
                        mine = true;
                        sa[i00] = r1.z;
                        sa[i11] = r1.w;
                        sa[i01] = ${T}(0.0);
                        sa[i10] = ${T}(0.0);
                    }
                    continue;  // its entries are no pair of the next step
                }
                if (r1.y != ${T}(0.0) || r2.y != ${T}(0.0)) {
                    let y00 = r2.x * x00 - r2.y * x01;
                    let y01 = r2.y * x00 + r2.x * x01;
                    let y10 = r2.x * x10 - r2.y * x11;
                    let y11 = r2.y * x10 + r2.x * x11;
                    x00 = r1.x * y00 - r1.y * y10;
                    x01 = r1.x * y01 - r1.y * y11;
                    x10 = r1.y * y00 + r1.x * y10;
                    x11 = r1.y * y01 + r1.x * y11;
                    sa[i00] = x00;
                    sa[i01] = x01;
                    sa[i10] = x10;
                    sa[i11] = x11;
                }
                produce(u.x, r1.z, w, r2, x00, x01, nxt, (1u - par) * H, tol);
                produce(u.y, r1.w, w, r2, x10, x11, nxt, (1u - par) * H, tol);
            }
            for (var e = lid; e < W * H; e = e + WG) {
                let q = e / W;
                let cs = wcs4[par * H + q];
                if (cs.y == ${T}(0.0)) {
                    continue;
                }
                rotate_j(e % W, inner_pair(q, st), cs.xy);
            }
            par = 1u - par;
        }
        if (mine) {
            atomicStore(&wrot, 1u);
        }
        workgroupBarrier();
        let again = sweep_rotated(lid);
        any_rot = any_rot | again;
        if (again == 0u) {
            break;
        }
    }
    store_solution(mb, i, lid, 0u, any_rot);
}

${ENTRY}
    let gi = group_index;
    let n = p.n;
    let np = p.npad;
    if (PHASE == 1u && gi < p.sg) {
        if (NEXT_ROT) {
            solve_next(gi / p.k, gi % p.k, lid);
        } else {
            solve(gi / p.k, gi % p.k, lid);
        }
        return;
    }
    if (PHASE == 1u && TILE_PERMUTE) {
        permute_tile(gi - p.sg, lid);
        return;
    }
    var t = thread_index;
    if (PHASE == 1u) {
        t = t - p.sg * WG;
    }
    let rl = p.rl;
    let len = p.len;
    if (PHASE <= 1u) {
        if (t >= p.batch * np * rl) {
            return;
        }
        let mb = t / (np * rl);
        let xs = (t / rl) % np;
        let y = t % rl;
        if (PHASE == 0u) {
            let ox = orig_of(xs, p.step);
            var v = ${T}(0.0);
            if (y >= len) {
                v = select(${T}(0.0), ${T}(1.0), ox == y - len);
            } else if (TWO_SIDED) {
                let oy = orig_of(y, p.step);
                if (ox < n && oy < n) {
                    v = am[mb * n * n + min(ox, oy) * n + max(ox, oy)];
                }
            } else if (ox < n) {
                v = am[(mb * n + ox) * len + y];
            }
            ao[t] = v;
            return;
        }
        let x = prev_pos(xs);
        if (y >= len) {
            ao[t] = vm[(mb * np + x) * rl + y];
        } else if (TWO_SIDED) {
            ao[t] = sym_at(mb, x, prev_pos(y));
        } else {
            ao[t] = am[(mb * np + x) * p.astr + y];
        }
        return;
    }
    // PHASE 2: out position j (original index) <- slot position slot_of(j / b) * b + j % b of step p.step
    let te = p.batch * n * select(len, n, TWO_SIDED);
    if (t >= te) {
        return;
    }
    if (TWO_SIDED) {
        let mb = t / (n * n);
        let j = (t / n) % n;
        let c = t % n;
        let x = slot_of(j / p.b, p.step) * p.b + j % p.b;
        if (c == j) {
            ao[t] = sym_at(mb, x, x);
        }
        if ((p.flags & 2u) != 0u) {
            vo[t] = vm[(mb * np + x) * rl + len + c];
        }
        return;
    }
    let mb = t / (n * len);
    let j = (t / len) % n;
    let i = t % len;
    let x = slot_of(j / p.b, p.step) * p.b + j % p.b;
    ao[t] = am[(mb * np + x) * p.astr + i];
    if ((p.flags & 2u) != 0u && i < n) {
        vo[(mb * n + j) * n + i] = vm[(mb * np + x) * rl + len + i];
    }
}
