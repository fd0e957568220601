// wgarray: float64 -> float16 without double rounding (included only where f64 is in use).
//
// wg_f64_to_f32_odd rounds an f64 to f32 "to odd": truncate towards zero, then set the last mantissa bit when
// the value was inexact.  f32 keeps 24 bits, at least 2 more than float16's 11, so rounding that f32 to float16
// (wg_round_f16, on store) equals rounding the f64 to float16 directly, as numpy's astype does.  A plain f32()
// rounds to nearest first and can land exactly on a float16 tie (1 + 2^-11 + 2^-40 -> 1 + 2^-11 -> 1.0 instead
// of 1 + 2^-10).  NaN, infinities and exact values pass unchanged; overflow gives f32 max (still >= 65520 -> inf).
fn wg_f64_to_f32_odd(x: f64) -> f32 {
    let r = f32(x);
    let back = f64(r);
    if (back == x || x != x) {
        return r;
    }
    var u = bitcast<u32>(r);
    if (abs(back) > abs(x)) {
        u = u - 1u;  // rounded away from zero: step back towards zero (sign-magnitude bits)
    }
    return bitcast<f32>(u | 1u);
}
