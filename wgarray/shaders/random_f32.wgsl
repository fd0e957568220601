// float32 distributions over Philox4x32-10 blocks (philox.wgsl): four elements a block.  The transcendental
// functions are the project's software ones (math_float.wgsl, correctly_rounded.wgsl), not WGSL's builtins,
// so results agree across devices to the ulps those functions promise.  Helper-file rules: only functions.

// [0, 1) from the top 24 bits: every float32 multiple of 2^-24.
fn wg_rand_uniform_f32(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, e: u32) -> f32 {
    return f32(wg_rand_bits(k0, k1, c0, c1, c2, c3, e) >> 8u) * 5.9604644775390625e-08;
}

// (w + 0.5) / 2^32 in (0, 1]: never 0, so its logarithm is finite (down to -22.9).
fn wg_rand_open_f32(w: u32) -> f32 {
    return f32(w) * 2.3283064365386963e-10 + 1.1641532182693481e-10;
}

// Box-Muller: words (0, 1) of a block give elements 0 and 1, words (2, 3) elements 2 and 3:
// sqrt(-2 log u1) * (cos, sin)(2 pi u2), the sine as cos(2 pi (u2 - 1/4)) (exact in u: one trig call, no
// divergence between lanes).
fn wg_rand_normal_f32(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, e: u32) -> f32 {
    let w = wg_philox_block(k0, k1, c0, c1, c2, c3, e / 4u, 0u);
    let j = e % 4u;
    let pair = j & 2u;
    let u1 = wg_rand_open_f32(w[pair]);
    let u2 = f32(w[pair + 1u] >> 8u) * 5.9604644775390625e-08 - 0.25 * f32(j & 1u);
    let r = wg_sqrtcr_f32(-2.0 * wg_log_f32(u1));
    return r * wg_cos_f32(6.2831854820251465 * u2);
}

// Standard exponential: -log(u), u in (0, 1] (the same law as -log(1 - u) for u in [0, 1)).
fn wg_rand_exponential_f32(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, e: u32) -> f32 {
    return -wg_log_f32(wg_rand_open_f32(wg_rand_bits(k0, k1, c0, c1, c2, c3, e)));
}
