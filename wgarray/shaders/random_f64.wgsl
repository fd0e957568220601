// float64 distributions over Philox4x32-10 blocks (philox.wgsl): 64 bits an element, two elements a block
// (Box-Muller: one block gives the pair).  As in random_f32.wgsl, the logarithm and cos/sin are specialised to
// their arguments (no general range reduction, no double-length log): ln by 2 atanh(f / (2 + f)) (Taylor to
// degree 21 in f / (2 + f), whose square is below 0.03), cos(2 pi m / 2^53) with the quadrant taken exactly from
// m's bits and math_float.wgsl's sin/cos kernels on 2 pi t as a double-length value; every product that feeds a
// sum OR-ed with the run-time zero `nc` (no FMA contraction).  Division and sqrt are the f64 builtins, as
// correctly_rounded.wgsl's f64 forms.  Helper-file rules: only functions.

// x itself, opaque to the compiler (nc is 0 at run time).
fn wg_rand_keep_f64(x: f64, nc: u32) -> f64 {
    return bitcast<f64>(bitcast<u64>(x) | u64(nc));
}

// ln(x) for a normal f64 x > 0: x = 2^k (1 + f), 1 + f in [sqrt(1/2), sqrt(2)) (from the high word), s = f / (2 + f),
// ln(1 + f) = 2 atanh(s) = f - (f^2/2 - s (f^2/2 + R)), R = 2 (s^2/3 + s^4/5 + ... + s^20/21); ln2 in two parts
// (k ln2_hi exact: 21 bits times |k| <= 66).
fn wg_rand_ln_f64(x: f64, nc: u32) -> f64 {
    let bits = bitcast<u64>(x);
    let ih = i32(u32(bits >> 32u)) - 0x3fe6a09e;
    let k = f64(ih >> 20u);
    let m = bitcast<f64>((u64(u32((ih & 0x000fffff) + 0x3fe6a09e)) << 32u) | ((bits << 32u) >> 32u));
    let f = m - 1.0;  // exact (Sterbenz)
    let sv = f / (2.0 + f);
    let z = sv * sv;
    var r = f64(0.09523809523809523);
    r = wg_rand_keep_f64(r * z, nc) + 0.10526315789473684;
    r = wg_rand_keep_f64(r * z, nc) + 0.11764705882352941;
    r = wg_rand_keep_f64(r * z, nc) + 0.13333333333333333;
    r = wg_rand_keep_f64(r * z, nc) + 0.15384615384615385;
    r = wg_rand_keep_f64(r * z, nc) + 0.18181818181818182;
    r = wg_rand_keep_f64(r * z, nc) + 0.2222222222222222;
    r = wg_rand_keep_f64(r * z, nc) + 0.2857142857142857;
    r = wg_rand_keep_f64(r * z, nc) + 0.4;
    r = wg_rand_keep_f64(r * z, nc) + 0.6666666666666666;
    r = r * z;
    let hfsq = 0.5 * wg_rand_keep_f64(f * f, nc);
    let t = wg_rand_keep_f64(sv * (hfsq + r), nc) + wg_rand_keep_f64(k * 4.7493250390316726e-07, nc);
    return k * 0.6931467056274414 + (f - (hfsq - t));
}

// cos(2 pi m / 2^53) for an integer m in [0, 2^53) as words (mh < 2^21, ml): the quadrant q = round(4 m / 2^53) and
// t = m / 2^53 - q / 4 in [-1/8, 1/8) exactly from the bits, 2 pi t as a double-length (x, y), then the sin or cos
// kernel (|x| <= pi/4) and the quadrant's sign.
fn wg_rand_cos2pi_f64(mh: u32, ml: u32, nc: u32) -> f64 {
    let q4 = (mh + 0x40000u) >> 19u;  // 0..4 (adding 2^50 to m only touches mh)
    let t = (f64(i32(mh) - i32(q4 << 19u)) * 4294967296.0 + f64(ml)) * 1.1102230246251565e-16;  // exact
    let p = wg_impl_two_prod_f64(t, 6.283185307179586);
    let xy = wg_impl_fast_two_sum_f64(p.x, p.y + wg_rand_keep_f64(t * 2.4492935982947064e-16, nc));
    let q = q4 & 3u;
    var v: f64;
    if ((q & 1u) == 0u) { v = wg_impl_cos_kernel_f64(xy.x, xy.y); } else { v = wg_impl_sin_kernel_f64(xy.x, xy.y); }
    return select(v, -v, q == 1u || q == 2u);
}

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
    let r = wg_sqrtcr_f64(-2.0 * wg_rand_ln_f64(wg_rand_open_f64(w.x, w.y), nc));
    // u2 = the top 53 bits of (w.z, w.w) / 2^53; the odd element is the sine, cos(2 pi (u2 - 1/4)): m - 2^51
    let mh = ((w.z >> 11u) - (e % 2u) * 0x80000u) & 0x1fffffu;
    return r * wg_rand_cos2pi_f64(mh, w.w, nc);
}

fn wg_rand_exponential_f64(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, e: u32, nc: u32) -> f64 {
    let w = wg_philox_block(k0, k1, c0, c1, c2, c3, e / 2u, 0u);
    let j = (e % 2u) * 2u;
    return -wg_rand_ln_f64(wg_rand_open_f64(w[j], w[j + 1u]), nc);
}
