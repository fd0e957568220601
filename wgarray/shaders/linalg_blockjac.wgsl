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
//          J's rows in workgroup memory are JS = W + J_PAD long (J_PAD = 1: no bank conflict on its columns).
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
const JS: u32 = ${JS}u;  // J's row stride in workgroup memory
const TRI: u32 = ${TRI}u;

var<workgroup> sa: array<${T}, TRI>;  // the packed lower triangle of the subproblem
var<workgroup> sj: array<${T}, ${JLEN}>;
var<workgroup> wcs: array<vec2<${T}>, ${HALF}>;
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
    for (var e = lid; e < W * W; e = e + WG) {
        let l1 = e / W;
        let l2 = e % W;
        if (l1 >= l2) {
            if (TWO_SIDED) {
                sa[tri(l1, l2)] = sym_at(mb, prev_pos(2u * i * p.b + l1), prev_pos(2u * i * p.b + l2));
            } else {
                sa[tri(l1, l2)] = am[(mb * p.k + i) * W * W + l1 * W + l2];
            }
        }
        sj[l1 * JS + l2] = select(${T}(0.0), ${T}(1.0), l1 == l2);
    }
}

// the rotation of inner pair q at inner step st: identity when the pair is not rotated
fn pair_rotation(q: u32, st: u32, tol: ${T}) -> vec2<${T}> {
    let pq = inner_pair(q, st);
    let app = sa[tri(pq.x, pq.x)];
    let aqq = sa[tri(pq.y, pq.y)];
    let apq = sa[tri(pq.x, pq.y)];
    if (wants(app, aqq, apq, tol)) {
        return rotation(app, aqq, apq);
    }
    return vec2<${T}>(${T}(1.0), ${T}(0.0));
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

// the solved subproblem out: J^T to jo, the subproblem to subo (eigh), any rotation to flag[p.sweep]
fn store_solution(mb: u32, i: u32, lid: u32, any_rot: u32) {
    workgroupBarrier();
    let base = (mb * p.k + i) * W * W;
    for (var e = lid; e < W * W; e = e + WG) {  // jo[e] = J^T's entry (e / W, e % W) = J's (e % W, e / W)
        jo[base + e] = sj[(e % W) * JS + e / W];
        if (TWO_SIDED) {
            subo[base + e] = sa[tri(e / W, e % W)];
        }
    }
    if (lid == 0u && any_rot != 0u) {
        atomicMax(&flag[p.sweep], 1u);
    }
}

// Cyclic Jacobi of pair (matrix mb, i)'s 2b x 2b subproblem in workgroup memory: J^T to jo, the solved subproblem
// to subo (eigh).  An inner step rotates the W/2 disjoint inner pairs: H invocations compute the rotations into wcs,
// then (after a barrier) an invocation updates a 2 x 2 block of the lower triangle (R1^T X R2) and rows of J.
fn solve(mb: u32, i: u32, lid: u32) {
    let tol = ${T}(bitcast<f32>(p.tolbits));
    load_subproblem(mb, i, lid);
    if (lid == 0u) {
        atomicStore(&wrot, 0u);  // workgroup memory may hold an earlier dispatch's bytes (no zero-init relied on)
    }
    var any_rot = 0u;
    for (var sw = 0u; sw < p.inner; sw = sw + 1u) {
        workgroupBarrier();
        for (var st = 0u; st < W - 1u; st = st + 1u) {
            if (lid < H) {
                let cs = pair_rotation(lid, st, tol);
                if (cs.y != ${T}(0.0)) {
                    atomicStore(&wrot, 1u);
                }
                wcs[lid] = cs;
            }
            workgroupBarrier();
            for (var e = lid; e < H * H; e = e + WG) {
                let bp = e / H;
                let bq = e % H;
                if (bp < bq) {
                    continue;
                }
                let r1 = wcs[bp];
                let r2 = wcs[bq];
                if (r1.y == ${T}(0.0) && r2.y == ${T}(0.0)) {
                    continue;
                }
                let u = inner_pair(bp, st);
                let w = inner_pair(bq, st);
                let i00 = tri(u.x, w.x);
                let i01 = tri(u.x, w.y);
                let i10 = tri(u.y, w.x);
                let i11 = tri(u.y, w.y);
                if (bp == bq) {  // the pair's own 2 x 2 block: i01 = i10 (packed)
                    let t = r1.y / r1.x;
                    let axy = sa[i10];
                    sa[i00] = sa[i00] - t * axy;
                    sa[i11] = sa[i11] + t * axy;
                    sa[i10] = ${T}(0.0);
                    continue;
                }
                let x00 = sa[i00];
                let x01 = sa[i01];
                let x10 = sa[i10];
                let x11 = sa[i11];
                // Y = X R2, then R1^T Y (R = [[c, s], [-s, c]])
                let y00 = r2.x * x00 - r2.y * x01;
                let y01 = r2.y * x00 + r2.x * x01;
                let y10 = r2.x * x10 - r2.y * x11;
                let y11 = r2.y * x10 + r2.x * x11;
                sa[i00] = r1.x * y00 - r1.y * y10;
                sa[i01] = r1.x * y01 - r1.y * y11;
                sa[i10] = r1.y * y00 + r1.x * y10;
                sa[i11] = r1.y * y01 + r1.x * y11;
            }
            for (var e = lid; e < W * H; e = e + WG) {
                let q = e / W;
                let cs = wcs[q];
                if (cs.y == ${T}(0.0)) {
                    continue;
                }
                rotate_j(e % W, inner_pair(q, st), cs);
            }
            workgroupBarrier();
        }
        let again = sweep_rotated(lid);
        any_rot = any_rot | again;
        if (again == 0u) {
            break;
        }
    }
    store_solution(mb, i, lid, any_rot);
}

${ENTRY}
    let gi = group_index;
    let n = p.n;
    let np = p.npad;
    if (PHASE == 1u && gi < p.sg) {
        solve(gi / p.k, gi % p.k, lid);
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
