// Radix sort pass, step 3, the GPU scatter's register ranker (kernels/radix.py generates the straight-line
// parts): each workgroup moves its block's elements to their slots, tile by tile (${TILE} elements = ${WG}
// invocations x ${ITEMS}).  A tile is loaded coalesced (invocation lid reads elements k * ${WG} + lid) as codes
// (digit << 16 | position) into workgroup memory, then sorted stably by its 8-bit digit with two counting sorts
// by 4-bit halves in which invocation lid ranks the ${ITEMS} consecutive codes lid * ${ITEMS} .. (so ranks follow
// the original order): its 16 digit counters are bytes of one vec4<u32> in registers (no private array, no
// workgroup counter per key), the workgroup's exclusive scan of them runs over 8 words an invocation (digits w
// and w + 8 as 16-bit halves of word w, the words stored w-major: one flat scan gives every (digit, invocation)
// its base).  Workgroup arrays are padded by one word in 32 (rx_pad), so that strided and consecutive accesses
// both avoid bank conflicts.  The sorted tile is then written out in order (consecutive invocations write
// consecutive slots of a digit), each element's slot the running offset of its digit for this block (the scanned
// counts, advanced by each tile) plus its rank among the tile's equal digits.  Elements of keys_in/idx_in go to
// keys_out/idx_out; the keys only where a later pass still reads them (write_keys), gathered from global memory
// (a tile's elements are still in the cache).
${BINDINGS}

${DIGIT}
${WGSCAN}

// the tile's codes (digit << 16 | position in tile) before, between and after the two counting sorts
var<workgroup> ta: array<u32, ${TP}>;
var<workgroup> tb: array<u32, ${TP}>;
// the counting sorts' counters, 8 words an invocation, word-major, then their exclusive scan
var<workgroup> sc: array<u32, ${SP}>;
// the next free output slot of each digit for this block
var<workgroup> run: array<u32, 256>;
// each digit's output slot minus its first position in the sorted tile (wrapping): an element's slot is this
// plus its position
var<workgroup> tstart: array<u32, 256>;

const rx_q = vec4<u32>(0u, 1u, 2u, 3u);

fn rx_pad(j: u32) -> u32 {
    return j + (j >> 5u);
}

${ENTRY}
${BEGIN}
${PRELOAD}
    for (var t0 = bstart; t0 < bstop; t0 = t0 + ${TILE}u) {
        let valid = min(${TILE}u, bstop - t0);
        // load: padding sorts after every element (digit 255, later position)
${LOAD}
        workgroupBarrier();
${SPLIT_LO}
${SPLIT_HI}
        // the digits' first positions in the sorted tile, against their next output slots; whether an element
        // ends its digit's run (the tile's last read of ta); Shape.stage: the payload into tb, free until the next
        // tile's first counting sort (and 32-bit keys into sc, likewise)
${STARTS}
        workgroupBarrier();
        // write out in sorted order; the last element of a digit's run gives its next slot (no barrier before
        // the next tile: its load writes ta, read here no more, and its starts read run and write tstart after
        // its barriers)
${WRITE}
${ADVANCE}
    }
}
