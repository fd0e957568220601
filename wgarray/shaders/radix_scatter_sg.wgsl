// (naga takes subgroup operations without `enable subgroups;`, which it rejects as not yet implemented.)
// Radix sort pass, step 3, with subgroup operations (kernels/radix.py, Shape.ranker "subgroup"): each workgroup
// moves its block's elements to their slots, tile by tile (${TILE} elements, ${ITEMS} an invocation, held in
// registers).  Warp-level multisplit: a subgroup of S invocations owns ${ITEMS} x S consecutive elements of the
// tile (element k * S + lane of its range for item k); for every item it takes 8 ballots, one per digit bit, and
// the AND of the ballots that match a key's digit (complemented where its bit is clear) is the mask of the
// subgroup's elements of that item with the same digit.  From the ballots of all its items an invocation counts
// the equal digits before each of its keys in the subgroup's range (earlier items, then lower lanes), and the
// digit's count there; the last of them stores that count in the (digit, subgroup) counter.  One exclusive scan of
// the counters in (digit, subgroup) order gives every key its rank among the tile's equal digits in element
// order (stable), and its slot is the block's running offset of its digit (the scanned block counts) plus that
// rank.  Only ballots and workgroup memory carry data between invocations (no lock-step assumption).
//
// Subgroups take consecutive slots of ${SMIN} invocations from a workgroup ticket (a subgroup of S takes
// S / ${SMIN}; its first slot holds its counters, the others stay zero), so any subgroup size that is a multiple
// of ${SMIN} (the device's smallest) is correct, whatever the layout of local indices over subgroups.
// STEPWISE (Shape.stepwise): instead, item by item with a workgroup barrier between, the first invocation of each
// digit in the subgroup reads the (digit, slot) counter (its peers' base, passed by subgroupShuffle) and adds
// their count: 9 ballots a key and no ballots kept, for ${ITEMS} barriers a tile.
// STAGED (Shape.staged): the keys are placed in workgroup memory in digit order first, so that the global
// writes of a subgroup go to consecutive slots.
// MASKT is u32 where subgroups have at most 32 invocations, else vec4<u32> (ballot's full mask).
${BINDINGS}

${DIGIT}
${WGSCAN}

const NSLOT: u32 = ${NSLOT}u;  // ${WG} / ${SMIN}
// (digit, slot) counters, digit-major: the subgroup's count of the digit, then its exclusive scan over the tile
var<workgroup> cnt: array<u32, ${NCNT}>;
// ATOMIC (Shape.atomic_totals): the (digit, slot) counts summed by atomics, so that an invocation looks at the
// ballots of its key's item and the earlier ones only (half the ballot work)
var<workgroup> acnt: array<atomic<u32>, ${NACNT}>;
// the next free output slot of each digit for this block
var<workgroup> run: array<u32, 256>;
var<workgroup> ticket: atomic<u32>;
// STAGED: the tile's (digit << 16 | position) in digit order
var<workgroup> stage: array<u32, ${NSTAGE}>;

${BALLOT}

// The digit of the tile's element j (0 past its ``valid`` elements: not counted, the ballot of validity excludes it).
fn rx_tile_digit(t0: u32, j: u32, valid: u32) -> u32 {
    if (j < valid) {
        return rx_digit(t0 + j);
    }
    return 0u;
}

${ENTRY}
${BEGIN}
    if (lid == 0u) {
        atomicStore(&ticket, 0u);
    }
    var s = 0u;
    for (var i = 0u; i < ${PER}u; i = i + 1u) {
        s = s + totals[lid * ${PER}u + i];
    }
    var acc = rx_exscan(lid, s);  // (its barriers also publish the ticket's reset)
    for (var i = 0u; i < ${PER}u; i = i + 1u) {
        let d = lid * ${PER}u + i;
        run[d] = acc + counts[d * p.nb + b];
        acc = acc + totals[d];
    }
    let lane = subgroupExclusiveAdd(1u);
    let S = subgroupAdd(1u);
    var t = 0u;
    if (lane == 0u) {
        t = atomicAdd(&ticket, S / ${SMIN}u);
    }
    let slot = subgroupBroadcastFirst(t);
    let first = slot * ${SMIN}u * ${ITEMS}u;  // the subgroup's range in the tile
    let below = rx_below(lane);
    let bstart = b * p.block;
    let bstop = min(bstart + p.block, p.n);
    var dig: array<u32, ${ITEMS}>;
    var bal: array<${MASKT}, ${NBAL}>;  // item k: bal[9k] the valid lanes, bal[9k + 1 + i] digit bit i set
    var pre: array<u32, ${ITEMS}>;
    for (var t0 = bstart; t0 < bstop; t0 = t0 + ${TILE}u) {
        let valid = min(${TILE}u, bstop - t0);
        for (var i = lid; i < ${NCNT}u; i = i + ${WG}u) {
            cnt[i] = 0u;
            if (${ATOMIC}) {
                atomicStore(&acnt[i], 0u);
            }
        }
        if (${STEPWISE}) {  // item by item, a barrier between: the counters so far are each item's base
            workgroupBarrier();  // cnt cleared
            for (var k = 0u; k < ${ITEMS}u; k = k + 1u) {
                let j = first + k * S + lane;
                let d = rx_tile_digit(t0, j, valid);
                dig[k] = d;
                let m = rx_peers(j < valid, d);
                let rank = rx_pop(m & below);
                var old = 0u;
                if (j < valid && rank == 0u) {  // the item's first of its digit: one (digit, slot) a subgroup
                    old = cnt[d * NSLOT + slot];
                    cnt[d * NSLOT + slot] = old + rx_pop(m);
                }
                pre[k] = subgroupShuffle(old, select(lane, rx_first(m), rx_pop(m) != 0u)) + rank;
                workgroupBarrier();
            }
        } else {
            for (var k = 0u; k < ${ITEMS}u; k = k + 1u) {
                let j = first + k * S + lane;
                let d = rx_tile_digit(t0, j, valid);
                dig[k] = d;
                bal[9u * k] = subgroupBallot(j < valid)${BX};
                for (var i = 0u; i < 8u; i = i + 1u) {
                    bal[9u * k + 1u + i] = subgroupBallot(((d >> i) & 1u) == 1u)${BX};
                }
            }
            workgroupBarrier();  // cnt cleared
            for (var k = 0u; k < ${ITEMS}u; k = k + 1u) {
                let d = dig[k];
                var before = 0u;
                var total = 0u;
                var rank = 0u;
                var own = 0u;
                for (var k2 = 0u; k2 < ${ITEMS}u; k2 = k2 + 1u) {
                    if (${ATOMIC} && k2 > k) {
                        break;
                    }
                    var m = bal[9u * k2];
                    for (var i = 0u; i < 8u; i = i + 1u) {
                        let bi = bal[9u * k2 + 1u + i];
                        m = m & select(~bi, bi, ((d >> i) & 1u) == 1u);
                    }
                    let c = rx_pop(m);
                    total = total + c;
                    if (k2 < k) {
                        before = before + c;
                    } else if (k2 == k) {
                        rank = rx_pop(m & below);
                        own = c;
                    }
                }
                pre[k] = before + rank;
                if (first + k * S + lane < valid) {
                    if (${ATOMIC}) {  // the item's first of its digit adds the item's count: sums commute
                        if (rank == 0u) {
                            atomicAdd(&acnt[d * NSLOT + slot], own);
                        }
                    } else if (before + rank + 1u == total) {  // the last of its digit stores the count
                        cnt[d * NSLOT + slot] = total;
                    }
                }
            }
            workgroupBarrier();
        }
        var cs = 0u;
        for (var i = 0u; i < ${CPER}u; i = i + 1u) {
            if (${ATOMIC}) {
                cnt[lid * ${CPER}u + i] = atomicLoad(&acnt[lid * ${CPER}u + i]);
            }
            cs = cs + cnt[lid * ${CPER}u + i];
        }
        var cacc = rx_exscan(lid, cs);
        for (var i = 0u; i < ${CPER}u; i = i + 1u) {
            let c = cnt[lid * ${CPER}u + i];
            cnt[lid * ${CPER}u + i] = cacc;
            cacc = cacc + c;
        }
        workgroupBarrier();
        if (${STAGED}) {  // the tile in digit order through workgroup memory: consecutive invocations write
            // consecutive slots (reads gather from the tile instead)
            for (var k = 0u; k < ${ITEMS}u; k = k + 1u) {
                let j = first + k * S + lane;
                if (j < valid) {
                    let d = dig[k];
                    stage[cnt[d * NSLOT + slot] + pre[k]] = (d << 16u) | j;
                }
            }
            workgroupBarrier();
            for (var i = lid; i < valid; i = i + ${WG}u) {
                let v = stage[i];
                let d = v >> 16u;
                let dest = run[d] + i - cnt[d * NSLOT];
                let at = t0 + (v & 0xffffu);
                idx_out[dest] = idx_in[at];
                if (rx_write_keys) {
                    keys_out[dest] = keys_in[at];
                }
            }
        } else {
            for (var k = 0u; k < ${ITEMS}u; k = k + 1u) {
                let j = first + k * S + lane;
                if (j < valid) {
                    let d = dig[k];
                    let dest = run[d] + cnt[d * NSLOT + slot] - cnt[d * NSLOT] + pre[k];
                    let at = t0 + j;
                    idx_out[dest] = idx_in[at];
                    if (rx_write_keys) {
                        keys_out[dest] = keys_in[at];
                    }
                }
            }
        }
        workgroupBarrier();
        for (var d = lid; d < 256u; d = d + ${WG}u) {
            var next = valid;
            if (d < 255u) {
                next = cnt[(d + 1u) * NSLOT];
            }
            run[d] = run[d] + next - cnt[d * NSLOT];
        }
        workgroupBarrier();
    }
}
