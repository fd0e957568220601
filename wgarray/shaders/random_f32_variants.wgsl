// Variants of the float32 normal draw (kernels/random.py's NORMAL_F32* knobs; EwOp.code of the variant rows, so
// only kernels of those rows carry them).
// Philox "unrolled": Philox4x32-10 written out round by round with the key schedule as constants added to the key
// (no loop, no round test): the same bits as wg_philox4x32.
// Transforms "fma": the same algorithms as random_f32.wgsl with every product that feeds a sum fused, through
// wg_rv_fma: WGSL's fma where the device's rounds once (a GPU's FFMA: random_f32_fma.wgsl), else an exact
// emulation (random_f32_fma_exact.wgsl; lavapipe's fma rounds twice): other bits than the default, the same on
// every device.
// "builtin": WGSL's log/sqrt/cos/sin (their accuracy differs between drivers): a measurement of what the
// device-independent transforms cost, never a default.

fn wg_rv_round(c: vec4<u32>, k0: u32, k1: u32) -> vec4<u32> {
    let p0 = wg_philox_mulwide(0xD2511F53u, c.x);
    let p1 = wg_philox_mulwide(0xCD9E8D57u, c.z);
    return vec4<u32>(p1.y ^ c.y ^ k0, p1.x, p0.y ^ c.w ^ k1, p0.x);
}

// wg_philox_block's block, the rounds unrolled: round r uses key + r * (0x9E3779B9, 0xBB67AE85) (mod 2^32).
fn wg_rv_block_unrolled(k0: u32, k1: u32, c0: u32, c1: u32, c2: u32, c3: u32, b: u32) -> vec4<u32> {
    return wg_rv_rounds(wg_philox_counter(c0, c1, c2, c3, b, 0u), k0, k1);
}

// Philox4x32-10 of the counter ctr (already offset by the block: the blocks kernel's carry-free form, where the
// host saw that c0 + b does not wrap).
fn wg_rv_rounds(ctr: vec4<u32>, k0: u32, k1: u32) -> vec4<u32> {
    var c = wg_rv_round(ctr, k0, k1);
    c = wg_rv_round(c, k0 + 0x9E3779B9u, k1 + 0xBB67AE85u);
    c = wg_rv_round(c, k0 + 0x3C6EF372u, k1 + 0x76CF5D0Au);
    c = wg_rv_round(c, k0 + 0xDAA66D2Bu, k1 + 0x32370B8Fu);
    c = wg_rv_round(c, k0 + 0x78DDE6E4u, k1 + 0xED9EBA14u);
    c = wg_rv_round(c, k0 + 0x1715609Du, k1 + 0xA9066899u);
    c = wg_rv_round(c, k0 + 0xB54CDA56u, k1 + 0x646E171Eu);
    c = wg_rv_round(c, k0 + 0x5384540Fu, k1 + 0x1FD5C5A3u);
    c = wg_rv_round(c, k0 + 0xF1BBCDC8u, k1 + 0xDB3D7428u);
    return wg_rv_round(c, k0 + 0x8FF34781u, k1 + 0x96A522ADu);
}

// ln(x) as wg_rand_ln_f32 (the same coefficients), the Horner steps and the tail fused.
fn wg_rv_ln_fma(x: f32, nc: u32) -> f32 {
    let ix = bitcast<i32>(x) - 0x3f3504f3;
    let k = f32(ix >> 23u);
    let f = bitcast<f32>((ix & 0x007fffff) + 0x3f3504f3) - 1.0;
    let z = f * f;
    let p = wg_rv_lnpoly_fma(f, nc);
    // f z kept: the H100's driver (Vulkan, 2026-12-06) factored z out of fma(f z, p, -0.5 z), computing
    // z fma(f, p, -0.5): that form, emulated on the host, gives exactly its 382 differing logarithms of 32972
    let y = wg_rv_fma(wg_rand_keep_f32(f * z, nc), p, -0.5 * z, nc);
    let r = wg_rv_fma(k, 1.428606765330187e-06, y, nc) + f;
    return r + k * 0.693145751953125;  // the product is exact: fused or not, the same
}

// ln's P(f) (wg_rand_ln_f32's coefficients), Horner's steps fused.
fn wg_rv_lnpoly_fma(f: f32, nc: u32) -> f32 {
    var p = 0.0674506276845932;
    p = wg_rv_fma(p, f, -0.1179129108786583, nc);
    p = wg_rv_fma(p, f, 0.11955855786800385, nc);
    p = wg_rv_fma(p, f, -0.12389484792947769, nc);
    p = wg_rv_fma(p, f, 0.14206945896148682, nc);
    p = wg_rv_fma(p, f, -0.16668537259101868, nc);
    p = wg_rv_fma(p, f, 0.20002862811088562, nc);
    p = wg_rv_fma(p, f, -0.25000008940696716, nc);
    return wg_rv_fma(p, f, 0.33333298563957214, nc);
}

// (cos, sin)(2 pi m / 2^24) as wg_rand_cossin_f32 (the same reduction and coefficients), the steps fused.
fn wg_rv_cossin_fma(m: u32, nc: u32) -> vec2<f32> {
    let q4 = (m + 0x200000u) >> 22u;
    let t = f32(i32(m) - i32(q4 << 22u)) * 5.9604644775390625e-08;
    let z = t * t;
    let sn = t * wg_rv_poly3_fma(z, vec4<f32>(-75.40225219726562, 81.59255981445312, -41.3416633605957,
                                              6.2831854820251465), nc);
    let c = wg_rv_poly3_fma(z, vec4<f32>(59.245967864990234, -85.44374084472656, 64.93932342529297,
                                         -19.739208221435547), nc);
    return wg_rand_quadrant_f32(q4, wg_rv_fma(z, c, 1.0, nc), sn);
}

// ((p.x z + p.y) z + p.z) z + p.w, each step fused.
fn wg_rv_poly3_fma(z: f32, p: vec4<f32>, nc: u32) -> f32 {
    return wg_rv_fma(wg_rv_fma(wg_rv_fma(p.x, z, p.y, nc), z, p.z, nc), z, p.w, nc);
}

// sqrt(x) as wg_rand_sqrt_f32 (two Newton steps from the bit guess), the residual x - s^2 exact by fma.
fn wg_rv_sqrt_fma(x: f32, nc: u32) -> f32 {
    var y = bitcast<f32>(0x5f3759dfu - (bitcast<u32>(x) >> 1u));
    let hx = 0.5 * x;
    y = y * wg_rv_fma(-wg_rand_keep_f32(hx * y, nc), y, 1.5, nc);  // hx y kept: (hx y) y, as the default's
    y = y * wg_rv_fma(-wg_rand_keep_f32(hx * y, nc), y, 1.5, nc);
    // s = x y kept: fma(y / 2, r, x y) has the factor y in both terms (the H100 factored such a form in ln)
    let s = wg_rand_keep_f32(x * y, nc);
    return select(wg_rv_fma(0.5 * y, wg_rv_fma(-s, s, x, nc), s, nc), 0.0, x == 0.0);
}

fn wg_rv_boxmuller4_fma(w: vec4<u32>, nc: u32) -> vec4<f32> {
    let r01 = wg_rv_sqrt_fma(-2.0 * wg_rv_ln_fma(wg_rand_open_f32(w.x), nc), nc);
    let r23 = wg_rv_sqrt_fma(-2.0 * wg_rv_ln_fma(wg_rand_open_f32(w.z), nc), nc);
    return vec4<f32>(r01 * wg_rv_cossin_fma(w.y >> 8u, nc), r23 * wg_rv_cossin_fma(w.w >> 8u, nc));
}

fn wg_rv_affine4_fma(lo: f32, span: f32, v: vec4<f32>, nc: u32) -> vec4<f32> {
    return vec4<f32>(wg_rv_fma(span, v.x, lo, nc), wg_rv_fma(span, v.y, lo, nc), wg_rv_fma(span, v.z, lo, nc),
                     wg_rv_fma(span, v.w, lo, nc));
}

// Box-Muller with WGSL's builtins (measurement only: other bits on every driver).
fn wg_rv_boxmuller4_builtin(w: vec4<u32>, nc: u32) -> vec4<f32> {
    let r01 = sqrt(-2.0 * log(wg_rand_open_f32(w.x)));
    let r23 = sqrt(-2.0 * log(wg_rand_open_f32(w.z)));
    let a01 = f32(w.y >> 8u) * 3.745070282923929e-07;
    let a23 = f32(w.w >> 8u) * 3.745070282923929e-07;
    return vec4<f32>(r01 * cos(a01), r01 * sin(a01), r23 * cos(a23), r23 * sin(a23));
}
