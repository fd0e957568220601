// wgarray: np.nextafter for float16 held in f32 (no template variables; needs the f32 instance of
// numerics_float.wgsl). Steps in the float16 bit pattern, as numpy's npy_half_nextafter does: NaN if either
// operand is NaN, y if x == y (so nextafter(0.0, -0.0) = -0.0, as for float32/64, C's nextafter and numpy 2.5;
// numpy 2.4 and older returned x there), the smallest float16 subnormal with y's sign if x is zero, +-inf past
// 65504. Exact; integer work only.

// float16 bit pattern (in the low 16 bits) of an f32 that holds a float16 value
fn wg_impl_f16_bits(x: f32) -> u32 {
    let u = bitcast<u32>(x);
    let s = (u >> 16u) & 0x8000u;
    let a = u & 0x7fffffffu;
    if (a > 0x7f800000u) {
        // NaN: keep the top 10 payload bits (at least one), as numpy's float32 -> float16 cast does
        return s | 0x7c00u | max((a >> 13u) & 0x3ffu, 1u);
    }
    if (a == 0x7f800000u) {
        return s | 0x7c00u;  // inf
    }
    if (a >= 0x38800000u) {
        // normal float16 (>= 2^-14): rebias the exponent (127 - 15 = 112), keep the top 10 mantissa bits
        return s | (((a >> 23u) - 112u) << 10u) | ((a >> 13u) & 0x3ffu);
    }
    // zero or float16 subnormal: |x| = n * 2^-24 with n < 1024; a normal f32, so the product is exact
    return s | u32(bitcast<f32>(a) * 16777216.0);
}

// the f32 holding the float16 value of bit pattern h
fn wg_impl_f16_value(h: u32) -> f32 {
    let s = (h & 0x8000u) << 16u;
    let e = (h >> 10u) & 0x1fu;
    let m = h & 0x3ffu;
    if (e == 0u) {
        return bitcast<f32>(s | bitcast<u32>(f32(m) * 0x1p-24f));
    }
    if (e == 31u) {
        return bitcast<f32>(s | 0x7f800000u | (m << 13u));
    }
    return bitcast<f32>(s | ((e + 112u) << 23u) | (m << 13u));
}

fn wg_nextafter_float16(x: f32, y: f32) -> f32 {
    if (wg_isnan_f32(x) || wg_isnan_f32(y)) {
        return wg_impl_nan_f32();
    }
    let hx = wg_impl_f16_bits(x);
    let hy = wg_impl_f16_bits(y);
    let ax = hx & 0x7fffu;
    let ay = hy & 0x7fffu;
    if (hx == hy || (ax == 0u && ay == 0u)) {
        return y;
    }
    if (ax == 0u) {
        return wg_impl_f16_value((hy & 0x8000u) | 1u);
    }
    let x_neg = (hx & 0x8000u) != 0u;
    let kx = select(i32(ax), -i32(ax), x_neg);
    let ky = select(i32(ay), -i32(ay), (hy & 0x8000u) != 0u);
    let away = (kx < ky) != x_neg;
    return wg_impl_f16_value(select(hx - 1u, hx + 1u, away));
}
