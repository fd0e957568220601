// 64-bit integer draws (devices with shader-int64); the arithmetic is the u32 path of philox.wgsl, so results
// match every device bit for bit.  Helper-file rules: only functions.

// (low1 low0) + an unbiased integer in [0, r), as 64 bits.
fn wg_rand_int64(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, e: u32,
                 low1: u32, low0: u32, r1: u32, r0: u32, t1: u32, t0: u32) -> u64 {
    let v = wg_rand_below(k0, k1, c0, c1, c2, c3, e, r1, r0, t1, t0);
    return ((u64(low1) << 32u) | u64(low0)) + ((u64(v.x) << 32u) | u64(v.y));
}
