// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC11) in plain u32 arithmetic,
// plus the integer draws built on it.  A block is a pure function of (key, counter), so element e of a call
// draws from block (counter base + e / per_block): the same bits on every device, for any launch shape.
// WGSL has no mulhi: wg_philox_mulhi is the native 64-bit product's high word in kernels that have u64
// (philox_mulhi64.wgsl: one wide multiply on a GPU), else assembled from 16-bit halves (philox_mulhi32.wgsl);
// both are exact, so the bits do not depend on which one a kernel got (kernels/source.py's helpers() picks).
// Helper-file rules apply: only functions, each starting at column 0 with `fn wg_`.

fn wg_philox_round(c: vec4<u32>, k: vec2<u32>) -> vec4<u32> {
    let m0 = 0xD2511F53u;
    let m1 = 0xCD9E8D57u;
    let hi0 = wg_philox_mulhi(m0, c.x);
    let hi1 = wg_philox_mulhi(m1, c.z);
    return vec4<u32>(hi1 ^ c.y ^ k.x, m1 * c.z, hi0 ^ c.w ^ k.y, m0 * c.x);
}

// Philox4x32 with 10 rounds; the key is bumped by the Weyl constants between rounds.
fn wg_philox4x32(ctr: vec4<u32>, key: vec2<u32>) -> vec4<u32> {
    var c = ctr;
    var k = key;
    for (var r = 0u; r < 10u; r = r + 1u) {
        if (r > 0u) {
            k = k + vec2<u32>(0x9E3779B9u, 0xBB67AE85u);
        }
        c = wg_philox_round(c, k);
    }
    return c;
}

// Block `b` of a stream whose 128-bit counter starts at (c0, c1, c2, c3) (little-endian words), words above
// c3 ignored; `plane` is added to the top word (draws that reject use planes 1, 2, ... of the same block).
fn wg_philox_block(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, b: u32, plane: u32) -> vec4<u32> {
    let w0 = c0 + b;
    let carry0 = select(0u, 1u, w0 < b);
    let w1 = c1 + carry0;
    let carry1 = select(0u, 1u, w1 < carry0);
    let w2 = c2 + carry1;
    let carry2 = select(0u, 1u, w2 < carry1);
    return wg_philox4x32(vec4<u32>(w0, w1, w2, c3 + carry2 + plane), vec2<u32>(k0, k1));
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

// An unbiased integer in [0, r) as (hi, lo) words, for element e (two elements a block, 64 bits each), by
// Lemire's multiply-shift with rejection: x * r is a 128-bit product whose top 64 bits are the result; it is
// rejected when its low 64 bits are below t = 2^64 mod r (computed on the host).  Retries draw the same block
// index from counter planes 1, 2, ... (the chance a try rejects is t / 2^64 < min(r, 2^64 - r) / 2^64), so the
// result is still a pure function of (key, counter, e).  r = 0 stands for 2^64 (every 64-bit value).  After 64
// rejected tries (chance below 2^-64) the last product is kept.
fn wg_rand_below(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, e: u32,
                 r1: u32, r0: u32, t1: u32, t0: u32) -> vec2<u32> {
    var res = vec2<u32>(0u, 0u);
    for (var plane = 0u; plane < 64u; plane = plane + 1u) {
        let w = wg_philox_block(k0, k1, c0, c1, c2, c3, e / 2u, plane);
        let j = (e % 2u) * 2u;
        let x1 = w[j];
        let x0 = w[j + 1u];
        if (r1 == 0u && r0 == 0u) {
            return vec2<u32>(x1, x0);
        }
        // 128-bit product (w3 w2 w1 w0) of (x1 x0) and (r1 r0)
        let l00 = x0 * r0;
        let h00 = wg_philox_mulhi(x0, r0);
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
        res = vec2<u32>(w3, d2.y);
        let w1 = b1.y;
        let w0 = l00;
        if (w1 > t1 || (w1 == t1 && w0 >= t0)) {
            return res;
        }
    }
    return res;
}

// low + an unbiased integer in [0, r), as the low 32 bits (the result of a dtype of 32 bits or fewer).
fn wg_rand_int32(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, e: u32,
                 low: u32, r1: u32, r0: u32, t1: u32, t0: u32) -> u32 {
    return low + wg_rand_below(k0, k1, c0, c1, c2, c3, e, r1, r0, t1, t0).y;
}
