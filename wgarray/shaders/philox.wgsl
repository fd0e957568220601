// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC11) in plain u32 arithmetic,
// plus the integer draws built on it.  A block is a pure function of (key, counter), so element e of a call
// draws from block (counter base + e / per_block): the same bits on every device, for any launch shape.
// WGSL has no mulhi: wg_philox_mulwide / wg_philox_mulhi use the native 64-bit product in kernels that have u64
// (philox_mulhi64.wgsl: one wide multiply on a GPU), else assembled from 16-bit halves (philox_mulhi32.wgsl);
// both are exact, so the bits do not depend on which one a kernel got (kernels/source.py's helpers() picks).
// Helper-file rules apply: only functions, each starting at column 0 with `fn wg_`.

fn wg_philox_round(c: vec4<u32>, k: vec2<u32>) -> vec4<u32> {
    let m0 = 0xD2511F53u;
    let m1 = 0xCD9E8D57u;
    let p0 = wg_philox_mulwide(m0, c.x);  // (low, high): one wide multiply gives both words
    let p1 = wg_philox_mulwide(m1, c.z);
    return vec4<u32>(p1.y ^ c.y ^ k.x, p1.x, p0.y ^ c.w ^ k.y, p0.x);
}

// Philox4x32 with 10 rounds, written out: round r uses key + r * (0x9E3779B9, 0xBB67AE85) (mod 2^32), the
// schedule as constants (no loop, no round test: H100 2026-12-06, float32 normals 2^26 0.329 -> 0.206 ms against
// the loop, the same bits).
fn wg_philox4x32(ctr: vec4<u32>, key: vec2<u32>) -> vec4<u32> {
    var c = wg_philox_round(ctr, key);
    c = wg_philox_round(c, key + vec2<u32>(0x9E3779B9u, 0xBB67AE85u));
    c = wg_philox_round(c, key + vec2<u32>(0x3C6EF372u, 0x76CF5D0Au));
    c = wg_philox_round(c, key + vec2<u32>(0xDAA66D2Bu, 0x32370B8Fu));
    c = wg_philox_round(c, key + vec2<u32>(0x78DDE6E4u, 0xED9EBA14u));
    c = wg_philox_round(c, key + vec2<u32>(0x1715609Du, 0xA9066899u));
    c = wg_philox_round(c, key + vec2<u32>(0xB54CDA56u, 0x646E171Eu));
    c = wg_philox_round(c, key + vec2<u32>(0x5384540Fu, 0x1FD5C5A3u));
    c = wg_philox_round(c, key + vec2<u32>(0xF1BBCDC8u, 0xDB3D7428u));
    return wg_philox_round(c, key + vec2<u32>(0x8FF34781u, 0x96A522ADu));
}

// Block `b` of a stream whose 128-bit counter starts at (c0, c1, c2, c3) (little-endian words), words above
// c3 ignored; `plane` is added to the top word (draws that reject use planes 1, 2, ... of the same block).
fn wg_philox_block(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, b: u32, plane: u32) -> vec4<u32> {
    return wg_philox4x32(wg_philox_counter(c0, c1, c2, c3, b, plane), vec2<u32>(k0, k1));
}

// That block's 128-bit counter: (c0, c1, c2, c3) + b, plus plane in the top word.
fn wg_philox_counter(c0: u32, c1: u32, c2: u32, c3: u32, b: u32, plane: u32) -> vec4<u32> {
    let w0 = c0 + b;
    let carry0 = select(0u, 1u, w0 < b);
    let w1 = c1 + carry0;
    let carry1 = select(0u, 1u, w1 < carry0);
    let w2 = c2 + carry1;
    let carry2 = select(0u, 1u, w2 < carry1);
    return vec4<u32>(w0, w1, w2, c3 + carry2 + plane);
}

// 32 random bits for element e: four elements a block.
fn wg_rand_bits(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, e: u32) -> u32 {
    let w = wg_philox_block(k0, k1, c0, c1, c2, c3, e / 4u, 0u);
    return w[e % 4u];
}

// (carry, sum) of a + b + cin, cin 0 or 1.
fn wg_rand_addc(a: u32, b: u32, cin: u32) -> vec2<u32> {
    let s = a + b;
    let s2 = s + cin;
    return vec2<u32>(select(0u, 1u, s < a) + select(0u, 1u, s2 < s), s2);
}

// Lemire's multiply-shift on x = (x1 x0) and r = (r1 r0): the top 64 bits of the 128-bit product x * r as (hi, lo),
// and 1 when it is accepted (its low 64 bits are at least t = 2^64 mod r), else 0.  r = 0 stands for 2^64: x itself.
fn wg_rand_lemire(x1: u32, x0: u32, r1: u32, r0: u32, t1: u32, t0: u32) -> vec3<u32> {
    if (r1 == 0u && r0 == 0u) {
        return vec3<u32>(x1, x0, 1u);
    }
    let l00 = x0 * r0;
    let h00 = wg_philox_mulhi(x0, r0);
    if (r1 == 0u) {  // r < 2^32 (a uniform branch): the product is (x1 r0) 2^32 + x0 r0, two mulhi
        let s1 = wg_rand_addc(h00, x1 * r0, 0u);
        let w2 = wg_philox_mulhi(x1, r0) + s1.x;
        return vec3<u32>(0u, w2, select(0u, 1u, s1.y > t1 || (s1.y == t1 && l00 >= t0)));
    }
    // 128-bit product (w3 w2 w1 w0) of (x1 x0) and (r1 r0)
    let l01 = x0 * r1;
    let h01 = wg_philox_mulhi(x0, r1);
    let l10 = x1 * r0;
    let h10 = wg_philox_mulhi(x1, r0);
    let l11 = x1 * r1;
    let h11 = wg_philox_mulhi(x1, r1);
    let a1 = wg_rand_addc(h00, l01, 0u);
    let b1 = wg_rand_addc(a1.y, l10, 0u);
    let carry1 = a1.x + b1.x;
    let a2 = wg_rand_addc(h01, h10, 0u);
    let b2 = wg_rand_addc(a2.y, l11, 0u);
    let d2 = wg_rand_addc(b2.y, carry1, 0u);
    let w3 = h11 + a2.x + b2.x + d2.x;
    let w1 = b1.y;
    let w0 = l00;
    return vec3<u32>(w3, d2.y, select(0u, 1u, w1 > t1 || (w1 == t1 && w0 >= t0)));
}

// An unbiased integer in [0, r) as (hi, lo) words, for element e (two elements a block, 64 bits each), by
// Lemire's multiply-shift with rejection (wg_rand_lemire; t = 2^64 mod r is computed on the host).  Retries draw
// the same block index from counter planes 1, 2, ... (the chance a try rejects is t / 2^64 < min(r, 2^64 - r) /
// 2^64), so the result is still a pure function of (key, counter, e).  After 64 rejected tries (chance below
// 2^-64) the last product is kept.
fn wg_rand_below(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, e: u32,
                 r1: u32, r0: u32, t1: u32, t0: u32) -> vec2<u32> {
    var res = vec2<u32>(0u, 0u);
    for (var plane = 0u; plane < 64u; plane = plane + 1u) {
        let w = wg_philox_block(k0, k1, c0, c1, c2, c3, e / 2u, plane);
        let j = (e % 2u) * 2u;
        let l = wg_rand_lemire(w[j], w[j + 1u], r1, r0, t1, t0);
        res = l.xy;
        if (l.z == 1u) {
            return res;
        }
    }
    return res;
}

// Elements 4b .. 4b + 3 of wg_rand_int32 at once: blocks 2b and 2b + 1 (one Philox call each) give the four
// first tries; only when one is rejected (for r <= 2^32, chance below 2^-32 a try) are the four redone by
// wg_rand_below, which starts over at plane 0 (the same results), in one loop: one copy of the retry code, not four.
fn wg_rand_int32x4(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, b: u32,
                   low: u32, r1: u32, r0: u32, t1: u32, t0: u32) -> vec4<u32> {
    let wa = wg_philox_block(k0, k1, c0, c1, c2, c3, 2u * b, 0u);
    let wb = wg_philox_block(k0, k1, c0, c1, c2, c3, 2u * b + 1u, 0u);
    let l0 = wg_rand_lemire(wa.x, wa.y, r1, r0, t1, t0);
    let l1 = wg_rand_lemire(wa.z, wa.w, r1, r0, t1, t0);
    let l2 = wg_rand_lemire(wb.x, wb.y, r1, r0, t1, t0);
    let l3 = wg_rand_lemire(wb.z, wb.w, r1, r0, t1, t0);
    var out = vec4<u32>(l0.y, l1.y, l2.y, l3.y);
    if ((l0.z & l1.z & l2.z & l3.z) == 0u) {
        for (var j = 0u; j < 4u; j = j + 1u) {
            out[j] = wg_rand_below(k0, k1, c0, c1, c2, c3, 4u * b + j, r1, r0, t1, t0).y;
        }
    }
    return out + vec4<u32>(low);
}

// low + an unbiased integer in [0, r), as the low 32 bits (the result of a dtype of 32 bits or fewer).
fn wg_rand_int32(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, e: u32,
                 low: u32, r1: u32, r0: u32, t1: u32, t0: u32) -> u32 {
    return low + wg_rand_below(k0, k1, c0, c1, c2, c3, e, r1, r0, t1, t0).y;
}
