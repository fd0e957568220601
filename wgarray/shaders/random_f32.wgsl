// float32 distributions over Philox4x32-10 blocks (philox.wgsl): four elements a block, and one thread a block
// (the wg_rand_*4_f32 functions give a block's four elements as one vec4; kernels/random.py's rows use them for
// vec4 stores, and the one-element forms index the same vec4, so both forms give the same bits).
// The transcendental functions are not WGSL's builtins (their accuracy differs between drivers) nor the general
// software ones of math_float.wgsl (full-range argument reduction, double-length log): the logarithm of a value in
// [2^-33, 1] and (cos, sin)(2 pi m 2^-24) need neither, and the square root is a branch-free Newton iteration
// instead of the correctly rounded fix-up.  Every product that feeds a sum goes through wg_rand_keep_f32 with
// `nc`, a zero the kernel reads from its parameter block: its bits times nc + 1, an integer multiply by 1 the
// compiler cannot remove, so no driver can contract the product into an FMA that rounds differently (the idea of
// wg_impl_opaque_f32, for one integer op instead of three): the same bits on every device.  (An OR with nc did the
// same; the multiply runs on a GPU's FMA pipe rather than the integer ALU that Philox's XORs load: H100 2026-12-06,
// standard_normal float32 2^26 0.199 -> 0.189 ms, benchmarks/randgpu_sweep.py.)  Accuracy (tests/api/test_random.py, against float64): ln
// within 1 ulp, cos/sin within 2 ulp, sqrt within 1 ulp.  Helper-file rules: only functions.

// x itself, as an opaque value (nc is 0 at run time but unknown to the compiler).
fn wg_rand_keep_f32(x: f32, nc: u32) -> f32 {
    return bitcast<f32>(bitcast<u32>(x) * (nc + 1u));
}

// (w + 0.5) / 2^32 in (0, 1] (rounded to float32): never 0, so its logarithm is finite (down to -22.9).
fn wg_rand_open_f32(w: u32) -> f32 {
    return f32(w) * 2.3283064365386963e-10 + 1.1641532182693481e-10;  // both steps exact but the f32(w) rounding
}

// ln(x) for a normal float32 x > 0 (here x in [2^-33, 1]): x = 2^k (1 + f) with 1 + f in [sqrt(1/2), sqrt(2))
// (found in the bits, as in fdlibm's logf), ln(1 + f) = f - f^2/2 + f^3 P(f) with P of degree 8 (a least-squares
// fit of relative error on [sqrt(1/2) - 1, sqrt(2) - 1]), k ln 2 in two parts (k ln2_hi exact).
fn wg_rand_ln_f32(x: f32, nc: u32) -> f32 {
    let ix = bitcast<i32>(x) - 0x3f3504f3;
    let k = f32(ix >> 23u);
    let f = bitcast<f32>((ix & 0x007fffff) + 0x3f3504f3) - 1.0;  // exact (Sterbenz)
    let z = f * f;
    var p = 0.0674506276845932;
    p = wg_rand_keep_f32(p * f, nc) - 0.1179129108786583;
    p = wg_rand_keep_f32(p * f, nc) + 0.11955855786800385;
    p = wg_rand_keep_f32(p * f, nc) - 0.12389484792947769;
    p = wg_rand_keep_f32(p * f, nc) + 0.14206945896148682;
    p = wg_rand_keep_f32(p * f, nc) - 0.16668537259101868;
    p = wg_rand_keep_f32(p * f, nc) + 0.20002862811088562;
    p = wg_rand_keep_f32(p * f, nc) - 0.25000008940696716;
    p = wg_rand_keep_f32(p * f, nc) + 0.33333298563957214;
    let y = wg_rand_keep_f32((f * z) * p, nc) - 0.5 * z;  // 0.5 z is exact
    let r = (y + wg_rand_keep_f32(k * 1.428606765330187e-06, nc)) + f;
    return r + k * 0.693145751953125;  // ln2_hi has 16 bits, |k| <= 34: the product is exact
}

// (cos, sin)(2 pi m / 2^24) for an integer m in [0, 2^24): the quadrant q and t = m / 2^24 - q / 4 in
// [-1/8, 1/8) come exactly from m's bits; sin(2 pi t) = t S(t^2), cos(2 pi t) = 1 + t^2 C(t^2), S and C of
// degree 3 (least-squares fits on [0, 1/8]); then the quadrant's signs and swap.
fn wg_rand_cossin_f32(m: u32, nc: u32) -> vec2<f32> {
    let q4 = (m + 0x200000u) >> 22u;  // round(4 m / 2^24), 0..4
    let t = f32(i32(m) - i32(q4 << 22u)) * 5.9604644775390625e-08;  // exact
    let z = t * t;
    var s = -75.40225219726562;
    s = wg_rand_keep_f32(s * z, nc) + 81.59255981445312;
    s = wg_rand_keep_f32(s * z, nc) - 41.3416633605957;
    s = wg_rand_keep_f32(s * z, nc) + 6.2831854820251465;
    let sn = t * s;
    var c = 59.245967864990234;
    c = wg_rand_keep_f32(c * z, nc) - 85.44374084472656;
    c = wg_rand_keep_f32(c * z, nc) + 64.93932342529297;
    c = wg_rand_keep_f32(c * z, nc) - 19.739208221435547;
    return wg_rand_quadrant_f32(q4, 1.0 + wg_rand_keep_f32(z * c, nc), sn);
}

// (cos, sin) of q4 quarter turns + 2 pi t from (cs, sn) = (cos, sin)(2 pi t):
// q = 0: (c, s); 1: (-s, c); 2: (-c, -s); 3: (s, -c)
fn wg_rand_quadrant_f32(q4: u32, cs: f32, sn: f32) -> vec2<f32> {
    let q = q4 & 3u;
    let v = select(vec2<f32>(cs, sn), vec2<f32>(sn, cs), (q & 1u) == 1u);
    return vec2<f32>(select(v.x, -v.x, q == 1u || q == 2u), select(v.y, -v.y, q >= 2u));
}

// sqrt(x) for x = 0 or a normal float32 x > 0 (here -2 ln u): two Newton steps for 1 / sqrt(x) from the
// bit-pattern guess 0x5f3759df - bits / 2 (3.4% off), then s = x y and one correction s + (y / 2)(x - s^2).
// The inner product hx y is kept too: the H200's driver otherwise evaluated (hx y) y differently in 16% of cases
// (reassociated or fused; keeping the sum's operand alone was not enough).
// All basic operations (correctly rounded in WGSL), no division, no branch; within 1 ulp (0.85 seen).
fn wg_rand_sqrt_f32(x: f32, nc: u32) -> f32 {
    var y = bitcast<f32>(0x5f3759dfu - (bitcast<u32>(x) >> 1u));
    let hx = 0.5 * x;
    y = y * (1.5 - wg_rand_keep_f32(wg_rand_keep_f32(hx * y, nc) * y, nc));  // (hx y) y: kept in this order
    y = y * (1.5 - wg_rand_keep_f32(wg_rand_keep_f32(hx * y, nc) * y, nc));
    let s = x * y;
    let r = x - wg_rand_keep_f32(s * s, nc);
    return select(s + wg_rand_keep_f32((0.5 * y) * r, nc), 0.0, x == 0.0);
}

// lo + span * v per lane, the product rounded on its own (no contraction: the same bits on every device).
fn wg_rand_affine4_f32(lo: f32, span: f32, v: vec4<f32>, nc: u32) -> vec4<f32> {
    return vec4<f32>(lo + wg_rand_keep_f32(span * v.x, nc), lo + wg_rand_keep_f32(span * v.y, nc),
                     lo + wg_rand_keep_f32(span * v.z, nc), lo + wg_rand_keep_f32(span * v.w, nc));
}

// block b's four uniforms on [0, 1): the top 24 bits of each word, every float32 multiple of 2^-24.
fn wg_rand_uniform4_f32(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, b: u32, nc: u32) -> vec4<f32> {
    return vec4<f32>(wg_philox_block(k0, k1, c0, c1, c2, c3, b, 0u) >> vec4<u32>(8u)) * 5.9604644775390625e-08;
}

fn wg_rand_uniform_f32(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, e: u32, nc: u32) -> f32 {
    return wg_rand_uniform4_f32(k0, k1, c0, c1, c2, c3, e / 4u, nc)[e % 4u];
}

// Box-Muller: words (0, 1) of block b give elements 0 and 1, words (2, 3) elements 2 and 3:
// sqrt(-2 ln u1) * (cos, sin)(2 pi u2), u1 = (w + 0.5) / 2^32, u2 = the top 24 bits / 2^24.
fn wg_rand_normal4_f32(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, b: u32, nc: u32) -> vec4<f32> {
    return wg_rand_boxmuller4_f32(wg_philox_block(k0, k1, c0, c1, c2, c3, b, 0u), nc);
}

// The four normals of a block's words w (wg_rand_normal4_f32; kernels/random.py's blocks kernel reuses it).
fn wg_rand_boxmuller4_f32(w: vec4<u32>, nc: u32) -> vec4<f32> {
    let r01 = wg_rand_sqrt_f32(-2.0 * wg_rand_ln_f32(wg_rand_open_f32(w.x), nc), nc);
    let r23 = wg_rand_sqrt_f32(-2.0 * wg_rand_ln_f32(wg_rand_open_f32(w.z), nc), nc);
    return vec4<f32>(r01 * wg_rand_cossin_f32(w.y >> 8u, nc), r23 * wg_rand_cossin_f32(w.w >> 8u, nc));
}

fn wg_rand_normal_f32(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, e: u32, nc: u32) -> f32 {
    return wg_rand_normal4_f32(k0, k1, c0, c1, c2, c3, e / 4u, nc)[e % 4u];
}

// Standard exponential: -ln(u), u in (0, 1] (the same law as -ln(1 - u) for u in [0, 1)).
fn wg_rand_exponential4_f32(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, b: u32, nc: u32) -> vec4<f32> {
    let w = wg_philox_block(k0, k1, c0, c1, c2, c3, b, 0u);
    return -vec4<f32>(wg_rand_ln_f32(wg_rand_open_f32(w.x), nc), wg_rand_ln_f32(wg_rand_open_f32(w.y), nc),
                      wg_rand_ln_f32(wg_rand_open_f32(w.z), nc), wg_rand_ln_f32(wg_rand_open_f32(w.w), nc));
}

fn wg_rand_exponential_f32(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, e: u32, nc: u32) -> f32 {
    return wg_rand_exponential4_f32(k0, k1, c0, c1, c2, c3, e / 4u, nc)[e % 4u];
}
