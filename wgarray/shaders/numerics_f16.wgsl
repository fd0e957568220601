// wgarray: float16 emulation helper (no template variables; does not need
// the "shader-f16" feature). Pure integer work on the f32 bit pattern, so it is
// unaffected by fast-math and by subnormal flushing of the f32 arithmetic.

// Rounds an f32 to the nearest float16 value (round half to even) and returns
// it widened back to f32, i.e. numpy's
// np.float32(x).astype(np.float16).astype(np.float32):
// float16 subnormals (multiples of 2^-24) are produced, |x| >= 65520 becomes
// +-inf, +-inf stays, -0.0 stays -0.0, NaN stays NaN (returned unchanged; numpy
// may differ in the payload bits).
fn wg_round_f16(x: f32) -> f32 {
    let u = bitcast<u32>(x);
    let sign = u & 0x80000000u;
    let a = u & 0x7fffffffu;
    if (a >= 0x7f800000u) {
        return x;  // inf or NaN
    }
    if (a >= 0x477ff000u) {
        // >= 65520 = 65504 + half an f16 ulp: rounds (ties to even) to inf
        return bitcast<f32>(sign | 0x7f800000u);
    }
    if (a >= 0x38800000u) {
        // normal f16 range (>= 2^-14): keep 10 of the 23 mantissa bits.
        // Adding 0xfff + lsb rounds half to even; a carry out of the mantissa
        // correctly bumps the exponent.
        let lsb = (a >> 13u) & 1u;
        return bitcast<f32>(sign | ((a + 0xfffu + lsb) & 0xffffe000u));
    }
    // f16 subnormal range: result is n * 2^-24 with integer n in [0, 1024]
    let e = a >> 23u;  // f32 biased exponent, <= 112 here
    if (e < 102u) {
        return bitcast<f32>(sign);  // |x| < 2^-25: rounds to (signed) zero
    }
    let m = (a & 0x007fffffu) | 0x00800000u;  // |x| = m * 2^(e - 150)
    let s = 126u - e;                         // n = m / 2^s, s in [14, 24]
    var n = m >> s;
    let rem = m & ((1u << s) - 1u);
    let half = 1u << (s - 1u);
    if (rem > half || (rem == half && (n & 1u) == 1u)) {
        n = n + 1u;
    }
    if (n == 0u) {
        return bitcast<f32>(sign);
    }
    // n * 2^-24 is a normal f32 (>= 2^-24), exact
    return bitcast<f32>(sign | bitcast<u32>(f32(n) * 0x1p-24f));
}
