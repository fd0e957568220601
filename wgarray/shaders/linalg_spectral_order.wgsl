// Ordering of eigenvalues (ascending) and singular values (descending) and the matching permutation of the
// vectors, on the device.
// PHASE 0: one workgroup per matrix: keys (flags bit 0: the diagonal of the n x n column-major A, ascending;
//          otherwise the norms of the n columns of the m x n column-major G, descending, each scaled by its
//          largest magnitude), then each key's rank = how many keys come before it (ties by index, so the ranks are
//          a permutation), vals[b*n + rank] = key, perm[b*n + rank] = index.
// PHASE 1: one thread per output element: out = the columns of the column-major src (n columns of length len)
//          in perm's order, written as rows (out[r*len + i]) or, with flags bit 1, transposed (out[i*n + r]).
// Complex matrices (S = vec2<T>): the keys are the diagonal's real parts / the columns' 2-norms.  out's element
// type O is the phase's: PHASE 0 writes the sorted values as they are (real, O = T: eigvalsh's / svdvals' output
// directly), PHASE 1 the permuted elements (O = S); out_of_key / out_of_elem turn either phase's stores into O (the
// other phase's code is dead in a module, but still typed).

struct Params {
    batch: u32,
    m: u32,
    n: u32,
    len: u32,
    flags: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

${BINDINGS}

const PHASE: u32 = ${PHASE}u;
const WG: u32 = ${WG}u;

${SCALAR}

fn out_of_key(x: ${T}) -> ${O} {
    return ${OUT_OF_KEY};
}

fn out_of_elem(v: ${S}) -> ${O} {
    return ${OUT_OF_ELEM};
}

fn before(x: ${T}, i: u32, y: ${T}, j: u32) -> bool {
    if ((p.flags & 1u) != 0u) {
        return x < y || (x == y && i < j);
    }
    return x > y || (x == y && i < j);
}

${ENTRY}
    let gi = group_index;
    let n = p.n;
    if (PHASE == 1u) {
        let t = gi * WG + lid;
        let len = p.len;
        if (t >= p.batch * n * len) {
            return;
        }
        let b = t / (n * len);
        let r = (t / len) % n;
        let i = t % len;
        let v = src[b * n * len + perm[b * n + r] * len + i];
        if ((p.flags & 2u) != 0u) {
            out[b * n * len + i * n + r] = out_of_elem(v);
        } else {
            out[t] = out_of_elem(v);
        }
        return;
    }
    if (gi >= p.batch) {
        return;
    }
    let b = gi;
    let m = p.m;
    for (var j = lid; j < n; j = j + WG) {
        var key: ${T};
        if ((p.flags & 1u) != 0u) {
            key = sc_re(src[b * n * n + j * n + j]);
        } else {
            let c = b * m * n + j * m;
            var mx = ${T}(0.0);
            for (var i = 0u; i < m; i = i + 1u) {
                mx = max(mx, sc_amax(src[c + i]));
            }
            var ss = ${T}(0.0);
            if (mx > ${T}(0.0)) {
                for (var i = 0u; i < m; i = i + 1u) {
                    let x = src[c + i] / mx;
                    ss = ss + sc_abs2(x);
                }
            }
            key = mx * sqrt(ss);
        }
        keys[b * n + j] = key;
    }
    storageBarrier();
    for (var j = lid; j < n; j = j + WG) {
        let kj = keys[b * n + j];
        var rank = 0u;
        for (var i = 0u; i < n; i = i + 1u) {
            if (before(keys[b * n + i], i, kj, j)) {
                rank = rank + 1u;
            }
        }
        out[b * n + rank] = out_of_key(kj);
        perm[b * n + rank] = j;
    }
}
