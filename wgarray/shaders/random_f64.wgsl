// float64 distributions over Philox4x32-10 blocks (philox.wgsl): 64 bits an element, two elements a block
// (Box-Muller: one block gives the pair).  Software log/sin/cos/sqrt as in random_f32.wgsl.
// `nc` (a run-time zero, random_f32.wgsl) is unused here.  Helper-file rules: only functions.

// [0, 1) from the top 53 of 64 bits (hi, lo).
fn wg_rand_u53_f64(hi: u32, lo: u32) -> f64 {
    return (f64(hi >> 11u) * 4294967296.0 + f64(lo)) * 1.1102230246251565e-16;
}

// (x + 0.5) / 2^64 in (0, 1], x = (hi, lo).
fn wg_rand_open_f64(hi: u32, lo: u32) -> f64 {
    return (f64(hi) * 4294967296.0 + f64(lo)) * 5.421010862427522e-20 + 2.710505431213761e-20;
}

fn wg_rand_uniform_f64(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, e: u32, nc: u32) -> f64 {
    let w = wg_philox_block(k0, k1, c0, c1, c2, c3, e / 2u, 0u);
    let j = (e % 2u) * 2u;
    return wg_rand_u53_f64(w[j], w[j + 1u]);
}

fn wg_rand_normal_f64(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, e: u32, nc: u32) -> f64 {
    let w = wg_philox_block(k0, k1, c0, c1, c2, c3, e / 2u, 0u);
    let u1 = wg_rand_open_f64(w.x, w.y);
    let u2 = wg_rand_u53_f64(w.z, w.w) - 0.25 * f64(e % 2u);  // the sine as cos(2 pi (u2 - 1/4)), exact in u
    let r = wg_sqrtcr_f64(-2.0 * wg_log_f64(u1));
    return r * wg_cos_f64(6.283185307179586 * u2);
}

fn wg_rand_exponential_f64(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, e: u32, nc: u32) -> f64 {
    let w = wg_philox_block(k0, k1, c0, c1, c2, c3, e / 2u, 0u);
    let j = (e % 2u) * 2u;
    return -wg_log_f64(wg_rand_open_f64(w[j], w[j + 1u]));
}
