// Radix sort pass, step 3: each workgroup moves its block's elements to their slots, tile by tile (${TILE}
// elements).  A tile is first sorted stably by its 8-bit digit in workgroup memory (two counting sorts by 4-bit
// halves; an invocation counts and ranks ${ITEMS} consecutive elements, so ranks follow the original order), which
// gives each element its rank among the tile's equal digits; its slot is the running offset of its digit for
// this block (the scanned counts, advanced by each tile) plus that rank.  Sorting the tile also makes the
// writes of equal digits consecutive.  Elements of ``keys_in``/``idx_in`` go to ``keys_out``/``idx_out``; the
// keys only where a later pass still reads them (write_keys).  A plan's payload copy copies the block in place.
${BINDINGS}

${DIGIT}
${WGSCAN}

// two tiles of (digit << 16 | position in tile): the input of a counting sort and its output
var<workgroup> tile: array<u32, ${TILE2}>;
// counts, then first ranks, of (4-bit digit d, invocation t) at d * ${WG} + t
var<workgroup> cnt: array<u32, ${CNT}>;
// the next free output slot of each digit for this block
var<workgroup> run: array<u32, 256>;
// where each digit's elements start in the sorted tile
var<workgroup> tstart: array<u32, 256>;

// Stable counting sort of tile[src .. src + ${TILE}) by bits sh..sh+3 into tile[dst ..).
fn rx_split(lid: u32, src: u32, dst: u32, sh: u32) {
    for (var d = 0u; d < 16u; d = d + 1u) {
        cnt[d * ${WG}u + lid] = 0u;
    }
    for (var i = 0u; i < ${ITEMS}u; i = i + 1u) {
        let d = (tile[src + lid * ${ITEMS}u + i] >> sh) & 15u;
        cnt[d * ${WG}u + lid] = cnt[d * ${WG}u + lid] + 1u;
    }
    workgroupBarrier();
    var s = 0u;
    for (var i = 0u; i < 16u; i = i + 1u) {
        s = s + cnt[lid * 16u + i];
    }
    var acc = rx_exscan(lid, s);
    for (var i = 0u; i < 16u; i = i + 1u) {
        let c = cnt[lid * 16u + i];
        cnt[lid * 16u + i] = acc;
        acc = acc + c;
    }
    workgroupBarrier();
    for (var i = 0u; i < ${ITEMS}u; i = i + 1u) {
        let v = tile[src + lid * ${ITEMS}u + i];
        let d = (v >> sh) & 15u;
        let r = cnt[d * ${WG}u + lid];
        cnt[d * ${WG}u + lid] = r + 1u;
        tile[dst + r] = v;
    }
    workgroupBarrier();
}

${ENTRY}
${BEGIN}
    for (var t0 = bstart; t0 < bstop; t0 = t0 + ${TILE}u) {
        let valid = min(${TILE}u, bstop - t0);
        for (var k = 0u; k < ${ITEMS}u; k = k + 1u) {
            let j = k * ${WG}u + lid;
            var v = (0xffu << 16u) | j;  // padding sorts after every element (digit 255, later position)
            if (j < valid) {
                v = (rx_digit(t0 + j) << 16u) | j;
            }
            tile[j] = v;
        }
        workgroupBarrier();
        rx_split(lid, 0u, ${TILE}u, 16u);
        rx_split(lid, ${TILE}u, 0u, 20u);
        for (var k = 0u; k < ${ITEMS}u; k = k + 1u) {
            let i = k * ${WG}u + lid;
            if (i < valid) {
                let d = tile[i] >> 16u;
                if (i == 0u || (tile[i - 1u] >> 16u) != d) {
                    tstart[d] = i;
                }
            }
        }
        workgroupBarrier();
        for (var k = 0u; k < ${ITEMS}u; k = k + 1u) {
            let i = k * ${WG}u + lid;
            if (i < valid) {
                let v = tile[i];
                let d = v >> 16u;
                let at = t0 + (v & 0xffffu);
                let dest = run[d] + i - tstart[d];
                idx_out[dest] = rx_payload(at);
                if (rx_write_keys) {
                    keys_out[dest] = keys_in[at];
                }
            }
        }
        workgroupBarrier();
        for (var k = 0u; k < ${ITEMS}u; k = k + 1u) {
            let i = k * ${WG}u + lid;
            if (i < valid) {
                let d = tile[i] >> 16u;
                if (i + 1u == valid || (tile[i + 1u] >> 16u) != d) {
                    run[d] = run[d] + i + 1u - tstart[d];
                }
            }
        }
        workgroupBarrier();
    }
}
