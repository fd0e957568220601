// Bitonic sort of (key, index) pairs in workgroup memory, one tile of ${TILE} pairs per workgroup.  Rows are
// padded to N = 2^logn pairs and laid out contiguously, so a tile holds whole rows (N <= ${TILE}) or a part of
// one row.  Pairs order by key, then by index (which makes the sort stable); padding has the largest key and
// index, so it ends up past every real element.  Runs the merge stages k = k_lo..k_hi (doubling), each with
// the steps j = min(k, ${TILE}) / 2 .. 1: from k = 2 when loading from the input (init), or one k > ${TILE}
// after the global steps (sort_global.wgsl) have handled the strides j >= ${TILE}.
${HELPERS}
${KEYFNS}
${ROWS_STRUCT}

struct Params {
    n_rows: u32,
    L: u32,
    logn: u32,
    total: u32,
    k_lo: u32,
    k_hi: u32,
    _pad0: u32,
    _pad1: u32,
    src: Rows,
}

${BINDINGS}

${ROWS_SRC}

var<workgroup> sk: array<${K}, ${TILE}>;
var<workgroup> si: array<u32, ${TILE}>;

${ENTRY}
    let g = group_index;
    let base = g * ${TILE}u;
    if (base >= p.total) {
        return;
    }
    let mask = (1u << p.logn) - 1u;
    for (var t = 0u; t < ${TILE}u; t = t + ${WG}u) {
        let l = lid + t;
        let f = base + l;
        var key: ${K} = ${MAXK};
        var idx: u32 = 0xffffffffu;
        if (f < p.total) {
${LOAD}
        }
        sk[l] = key;
        si[l] = idx;
    }
    workgroupBarrier();
    for (var k = p.k_lo; k <= p.k_hi; k = k << 1u) {
        for (var j = min(k, ${TILE}u) >> 1u; j > 0u; j = j >> 1u) {
            for (var t = 0u; t < ${TILE}u / 2u; t = t + ${WG}u) {
                let q = lid + t;
                let a = (q / j) * 2u * j + (q % j);
                let b = a + j;
                let asc = (((base + a) & mask) & k) == 0u;
                let ka = sk[a];
                let kb = sk[b];
                let ia = si[a];
                let ib = si[b];
                let gt = ka > kb || (ka == kb && ia > ib);
                if (gt == asc) {
                    sk[a] = kb;
                    sk[b] = ka;
                    si[a] = ib;
                    si[b] = ia;
                }
            }
            workgroupBarrier();
        }
    }
    for (var t = 0u; t < ${TILE}u; t = t + ${WG}u) {
        let l = lid + t;
        let f = base + l;
        if (f < p.total) {
            keys[f] = sk[l];
            idxs[f] = si[l];
        }
    }
}
