// Float functions built from WGSL builtins, with the C/numpy special cases the builtins leave undefined.
// Templated on ${T} (f32 or f64); uses the wg_*_${T} helpers of numerics_float.wgsl.

// np.expm1: exp(x) - 1 without cancellation near 0 (Kahan's trick).
fn wg_expm1_${T}(x: ${T}) -> ${T} {
    let u = exp(x);
    if (u == ${T}(1.0)) { return x; }
    let um1 = u - ${T}(1.0);
    if (um1 == ${T}(-1.0)) { return ${T}(-1.0); }
    if (wg_isinf_${T}(u)) { return u; }
    return um1 * x / log(u);
}

// np.log1p: log(1 + x) without cancellation near 0 (Goldberg's trick).
fn wg_log1p_${T}(x: ${T}) -> ${T} {
    let u = ${T}(1.0) + x;
    if (u == ${T}(1.0)) { return x; }
    if (x == ${T}(-1.0)) { return -${T}(bitcast<f32>(0x7f800000u)); }
    if (x < ${T}(-1.0) || wg_isnan_${T}(x)) { return ${T}(bitcast<f32>(0x7fc00000u)); }
    if (wg_isinf_${T}(x)) { return x; }
    return log(u) * x / (u - ${T}(1.0));
}

// np.arctan2 with C's rules for signed zeros and infinities.
fn wg_atan2_${T}(y: ${T}, x: ${T}) -> ${T} {
    let pi = ${T}(3.14159265358979323846);
    if (wg_isnan_${T}(x) || wg_isnan_${T}(y)) { return x + y; }
    if (y == ${T}(0.0)) {
        if (wg_signbit_${T}(x)) { return wg_copysign_${T}(pi, y); }
        if (x == ${T}(0.0) || x > ${T}(0.0)) { return y; }
    }
    if (wg_isinf_${T}(y)) {
        var a = pi * ${T}(0.5);
        if (wg_isinf_${T}(x)) { a = select(pi * ${T}(0.75), pi * ${T}(0.25), x > ${T}(0.0)); }
        return wg_copysign_${T}(a, y);
    }
    if (wg_isinf_${T}(x)) {
        return select(wg_copysign_${T}(pi, y), wg_copysign_${T}(${T}(0.0), y), x > ${T}(0.0));
    }
    if (x == ${T}(0.0)) { return wg_copysign_${T}(pi * ${T}(0.5), y); }
    return atan2(y, x);
}

// np.hypot: scaled so that large inputs do not overflow; inf beats NaN as in C.
fn wg_hypot_${T}(a: ${T}, b: ${T}) -> ${T} {
    let x = wg_abs_${T}(a);
    let y = wg_abs_${T}(b);
    if (wg_isinf_${T}(x) || wg_isinf_${T}(y)) { return ${T}(bitcast<f32>(0x7f800000u)); }
    if (wg_isnan_${T}(x) || wg_isnan_${T}(y)) { return x + y; }
    let m = max(x, y);
    let n = min(x, y);
    if (m == ${T}(0.0)) { return ${T}(0.0); }
    let r = n / m;
    return m * sqrt(${T}(1.0) + r * r);
}

// np.logaddexp: log(exp(x) + exp(y)) without overflow.
fn wg_logaddexp_${T}(x: ${T}, y: ${T}) -> ${T} {
    if (x == y) { return x + ${T}(0.69314718055994530942); }
    if (wg_isnan_${T}(x) || wg_isnan_${T}(y)) { return x + y; }
    let m = max(x, y);
    if (wg_isinf_${T}(m)) { return m; }
    return m + wg_log1p_${T}(exp(-wg_abs_${T}(x - y)));
}
