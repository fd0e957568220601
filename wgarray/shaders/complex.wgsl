// Complex arithmetic and elementary functions on vec2<${T}> = (real, imag), for complex64 (T = f32) and
// complex128 (T = f64), with the special cases of C99 Annex G, which the Array API standard's tables follow
// (branch cuts, signed zeros, infinities, NaN in either part).  Built on the software real functions of
// math_float.wgsl / numerics_float.wgsl (the WGSL built-ins are 32-bit only in SPIR-V and inaccurate); only
// + - * / sqrt (correctly rounded), ldexp, round and bit operations are used directly.
//
// The arithmetic follows numpy's loops bit for bit: the plain product formula (numpy does no Annex G inf
// recovery in multiply), Smith's scaled division and numpy's reciprocal.  The functions follow the accurate
// formulations (Kahan's "Branch cuts for complex elementary functions" for the inverse functions, log near
// |z| = 1 in double length), with explicit branches for non-finite input.
//
// Zero signs: wherever the standard's special cases (or numpy) fix the sign of a zero part, it is made with the
// sign-bit helpers of numerics_float.wgsl (wg_impl_neg, wg_impl_mul_sign, wg_impl_xor_sign,
// wg_impl_signed_zero), never by float arithmetic on zeros or a select between 0.0 and -0.0 (NVIDIA's driver
// folded that to -0.0).  Nonzero results are bit for bit those of the plain float formulas.

// x * y.  Every product is rounded on its own (wg_impl_opaque): a driver may otherwise contract a * b - c * d
// into an fma (lavapipe does), which is not numpy's result
fn wg_cmul_${T}(a: vec2<${T}>, b: vec2<${T}>) -> vec2<${T}> {
    return vec2<${T}>(wg_impl_opaque_${T}(a.x * b.x) - wg_impl_opaque_${T}(a.y * b.y),
                      wg_impl_opaque_${T}(a.x * b.y) + wg_impl_opaque_${T}(a.y * b.x));
}

fn wg_impl_mul_${T}(a: ${T}, b: ${T}) -> ${T} {
    return wg_impl_opaque_${T}(a * b);
}

// The power of two k that x / y divides out of y before Smith's algorithm: 0 (no scaling, numpy's arithmetic to
// the bit) unless m = max(|y.x|, |y.y|) lies beyond 2^+-60 (f32) / 2^+-500 (f64), where numpy's intermediates
// can overflow (y.x + y.y (y.y / y.x) near the largest float) or underflow (the scale 1 / that sum falls below
// the smallest normal: subnormal, and flushed to 0 by a device without subnormals, which made every quotient 0).
// There k is m's exponent clamped to +-(bias - 1), so 2^-k is normal and the scaled parts are near 1.
fn wg_impl_cdiv_shift_${T}(m: ${T}) -> i32 {
    let is64 = wg_impl_is_f64_${T}();
    let bias = select(127, 1023, is64);
    let e = wg_impl_biased_exponent_${T}(m) - bias;  // -bias for zeros and subnormals
    let lim = select(60, 500, is64);
    if (e > lim || e < -lim) { return clamp(e, 1 - bias, bias - 1); }
    return 0;
}

// x / y: Smith's algorithm as numpy computes it (scaled by the larger part of y, so no intermediate overflows),
// on y scaled by an exact 2^-k (wg_impl_cdiv_shift: k = 0 in the range where numpy's intermediates are normal,
// so the result is numpy's to the bit there); the quotient of the scaled y is scaled back by 2^-k in the last
// multiply, so nothing but the result itself is ever subnormal.  Bit for bit numpy's wherever numpy's
// intermediates are normal; beyond, as accurate as Smith's algorithm without its overflow and underflow.
// (y.y / y.x itself can underflow when the parts of y differ by more than 2^126: its product with x then
// matters only for a quotient part that is tiny next to the other part.)
fn wg_cdiv_${T}(a: vec2<${T}>, b: vec2<${T}>) -> vec2<${T}> {
    let br = wg_abs_${T}(b.x);
    let bi = wg_abs_${T}(b.y);
    let k = wg_impl_cdiv_shift_${T}(max(br, bi));
    let down = wg_impl_pow2_${T}(-k);
    let bx = b.x * down;  // exact: a power of two into the normal range
    let by = b.y * down;
    if (br >= bi) {
        if (br == ${T}(0.0) && bi == ${T}(0.0)) {
            return vec2<${T}>(wg_divide_${T}(a.x, br), wg_divide_${T}(a.y, br));
        }
        let rat = wg_divide_${T}(by, bx);
        let scl = wg_divide_${T}(${T}(1.0), bx + wg_impl_mul_${T}(by, rat));
        return vec2<${T}>(wg_impl_opaque_${T}((a.x + wg_impl_mul_${T}(a.y, rat)) * scl) * down,
                          wg_impl_opaque_${T}((a.y - wg_impl_mul_${T}(a.x, rat)) * scl) * down);
    }
    if (!(br >= bi) && !(br < bi)) {  // a NaN part in y
        let n = wg_impl_nan_${T}();
        return vec2<${T}>(n, n);
    }
    let rat = wg_divide_${T}(bx, by);
    let scl = wg_divide_${T}(${T}(1.0), by + wg_impl_mul_${T}(bx, rat));
    return vec2<${T}>(wg_impl_opaque_${T}((wg_impl_mul_${T}(a.x, rat) + a.y) * scl) * down,
                      wg_impl_opaque_${T}((wg_impl_mul_${T}(a.y, rat) - a.x) * scl) * down);
}

// 1 / z as numpy computes it
fn wg_creciprocal_${T}(z: vec2<${T}>) -> vec2<${T}> {
    if (wg_abs_${T}(z.y) <= wg_abs_${T}(z.x)) {
        let r = wg_divide_${T}(z.y, z.x);
        let d = z.x + wg_impl_mul_${T}(z.y, r);
        return vec2<${T}>(wg_divide_${T}(${T}(1.0), d), wg_divide_${T}(wg_impl_neg_${T}(r), d));
    }
    let r = wg_divide_${T}(z.x, z.y);
    let d = wg_impl_mul_${T}(z.x, r) + z.y;
    return vec2<${T}>(wg_divide_${T}(r, d), wg_divide_${T}(${T}(-1.0), d));
}

fn wg_ceq_${T}(a: vec2<${T}>, b: vec2<${T}>) -> bool {
    return a.x == b.x && a.y == b.y;
}

fn wg_cisnan_${T}(z: vec2<${T}>) -> bool {
    return wg_isnan_${T}(z.x) || wg_isnan_${T}(z.y);
}

fn wg_cisinf_${T}(z: vec2<${T}>) -> bool {
    return wg_isinf_${T}(z.x) || wg_isinf_${T}(z.y);
}

fn wg_cisfinite_${T}(z: vec2<${T}>) -> bool {
    return wg_isfinite_${T}(z.x) && wg_isfinite_${T}(z.y);
}

fn wg_impl_cnan_${T}() -> vec2<${T}> {
    return vec2<${T}>(wg_impl_nan_${T}(), wg_impl_nan_${T}());
}

// -i w (turns f(i z) back into the function of z: sin z = -i sinh(i z), ...)
fn wg_impl_cmuli_neg_${T}(w: vec2<${T}>) -> vec2<${T}> {
    return vec2<${T}>(w.y, wg_impl_neg_${T}(w.x));
}

// i z
fn wg_impl_cmuli_${T}(z: vec2<${T}>) -> vec2<${T}> {
    return vec2<${T}>(wg_impl_neg_${T}(z.y), z.x);
}

// |z| as hypot (no overflow, inf beats NaN)
fn wg_cabs_${T}(z: vec2<${T}>) -> ${T} {
    return wg_hypot_${T}(z.x, z.y);
}

// z / |z| (numpy 2): 0 for 0, NaN for a NaN part, the unit direction of an infinite part
fn wg_csign_${T}(z: vec2<${T}>) -> vec2<${T}> {
    if (wg_cisnan_${T}(z)) { return wg_impl_cnan_${T}(); }
    let one = ${T}(1.0);
    if (wg_isinf_${T}(z.x)) {
        if (wg_isinf_${T}(z.y)) { return wg_impl_cnan_${T}(); }
        return vec2<${T}>(wg_copysign_${T}(one, z.x), ${T}(0.0));
    }
    if (wg_isinf_${T}(z.y)) { return vec2<${T}>(${T}(0.0), wg_copysign_${T}(one, z.y)); }
    if (z.x == ${T}(0.0) && z.y == ${T}(0.0)) { return vec2<${T}>(${T}(0.0), ${T}(0.0)); }
    let m = max(wg_abs_${T}(z.x), wg_abs_${T}(z.y));  // scaled first: |z| of tiny parts loses no bits
    let s = vec2<${T}>(wg_divide_${T}(z.x, m), wg_divide_${T}(z.y, m));
    let h = wg_hypot_${T}(s.x, s.y);
    return vec2<${T}>(wg_divide_${T}(s.x, h), wg_divide_${T}(s.y, h));
}

// ---- sqrt, exp, log ------------------------------------------------------------------------------------------

// principal square root; branch cut along the negative real axis, continuous from above (sign of imag kept)
fn wg_csqrt_${T}(z: vec2<${T}>) -> vec2<${T}> {
    let inf = wg_impl_inf_${T}();
    if (wg_isinf_${T}(z.y)) { return vec2<${T}>(inf, z.y); }
    if (wg_isnan_${T}(z.x)) { return vec2<${T}>(z.x, z.x + z.y); }
    if (wg_isinf_${T}(z.x)) {
        if (wg_isnan_${T}(z.y)) {
            if (z.x > ${T}(0.0)) { return z; }
            return vec2<${T}>(z.y, inf);  // NaN + i inf (imag sign unspecified)
        }
        if (z.x > ${T}(0.0)) { return vec2<${T}>(z.x, wg_copysign_${T}(${T}(0.0), z.y)); }
        return vec2<${T}>(${T}(0.0), wg_copysign_${T}(inf, z.y));
    }
    if (wg_isnan_${T}(z.y)) { return vec2<${T}>(z.y, z.y); }
    if (z.x == ${T}(0.0) && z.y == ${T}(0.0)) { return vec2<${T}>(${T}(0.0), z.y); }
    // scale into a range where |x| + hypot neither overflows nor loses subnormal bits (powers of 4: exact)
    var x = wg_abs_${T}(z.x);
    var y = wg_abs_${T}(z.y);
    let m = max(x, y);
    let is64 = wg_impl_is_f64_${T}();
    var k = 0;
    if (m > ldexp(${T}(1.0), select(120, 1000, is64))) {  // (ldexp: 2^1000 is no f32 literal)
        k = 2;
    } else if (m < ldexp(${T}(1.0), select(-100, -900, is64))) {
        k = select(-100, -900, is64);
    }
    x = ldexp(x, -k);
    y = ldexp(y, -k);
    let t = wg_sqrtcr_${T}((x + wg_hypot_${T}(x, y)) * ${T}(0.5));
    let u = wg_divide_${T}(y, ${T}(2.0) * t);
    let th = ldexp(t, k / 2);
    let uh = ldexp(u, k / 2);
    if (z.x >= ${T}(0.0)) { return vec2<${T}>(th, wg_copysign_${T}(uh, z.y)); }
    return vec2<${T}>(uh, wg_copysign_${T}(th, z.y));
}

// e^x (cos y, sin y), without the spurious overflow of e^x when the product is finite
fn wg_impl_cexp_finite_${T}(x: ${T}, y: ${T}) -> vec2<${T}> {
    let c = wg_cos_${T}(y);
    let s = wg_sin_${T}(y);
    if (x > wg_impl_exp_hi_${T}() - ${T}(1.0)) {
        let h = wg_exp_${T}(x * ${T}(0.5));
        return vec2<${T}>((h * c) * h, (h * s) * h);
    }
    let e = wg_exp_${T}(x);  // may underflow to 0: the parts are zeros with the signs of cos y and sin y
    return vec2<${T}>(wg_impl_mul_sign_${T}(e, c), wg_impl_mul_sign_${T}(e, s));
}

fn wg_cexp_${T}(z: vec2<${T}>) -> vec2<${T}> {
    if (z.y == ${T}(0.0)) { return vec2<${T}>(wg_exp_${T}(z.x), z.y); }
    if (wg_isinf_${T}(z.x)) {
        if (wg_isfinite_${T}(z.y)) {
            if (z.x > ${T}(0.0)) { return vec2<${T}>(z.x * wg_cos_${T}(z.y), z.x * wg_sin_${T}(z.y)); }
            return vec2<${T}>(wg_copysign_${T}(${T}(0.0), wg_cos_${T}(z.y)), wg_copysign_${T}(${T}(0.0), wg_sin_${T}(z.y)));
        }
        if (z.x > ${T}(0.0)) { return vec2<${T}>(z.x, wg_impl_nan_${T}()); }
        return vec2<${T}>(${T}(0.0), ${T}(0.0));
    }
    if (!wg_isfinite_${T}(z.x) || !wg_isfinite_${T}(z.y)) { return wg_impl_cnan_${T}(); }
    return wg_impl_cexp_finite_${T}(z.x, z.y);
}

// e^z - 1: numpy's formula (expm1(x) cos y - 2 sin^2(y/2), e^x sin y), with the standard's special cases
fn wg_cexpm1_${T}(z: vec2<${T}>) -> vec2<${T}> {
    if (z.y == ${T}(0.0)) { return vec2<${T}>(wg_expm1_${T}(z.x), z.y); }
    if (wg_isinf_${T}(z.x) && z.x < ${T}(0.0)) {
        if (wg_isfinite_${T}(z.y)) { return vec2<${T}>(${T}(-1.0), wg_copysign_${T}(${T}(0.0), wg_sin_${T}(z.y))); }
        return vec2<${T}>(${T}(-1.0), ${T}(0.0));
    }
    if (wg_isinf_${T}(z.x) || z.x > wg_impl_exp_hi_${T}() - ${T}(1.0)) {
        let e = wg_cexp_${T}(z);  // -1 is below half an ulp of the real part (or the part is inf/NaN)
        return vec2<${T}>(e.x - ${T}(1.0), e.y);
    }
    if (!wg_isfinite_${T}(z.x) || !wg_isfinite_${T}(z.y)) { return wg_impl_cnan_${T}(); }
    let a = wg_sin_${T}(z.y * ${T}(0.5));
    return vec2<${T}>(wg_expm1_${T}(z.x) * wg_cos_${T}(z.y) - ${T}(2.0) * a * a, wg_impl_mul_sign_${T}(wg_exp_${T}(z.x), wg_sin_${T}(z.y)));
}

// log((h.x + h.y)^2 + y^2) / 2 for a real part given as a double-length pair h: accurate near |z| = 1, where
// log(hypot) would lose the low bits of |z| - 1
fn wg_impl_clog_re_${T}(hx: ${T}, hy: ${T}, y: ${T}) -> ${T} {
    let m = max(wg_abs_${T}(hx), wg_abs_${T}(y));
    let n = min(wg_abs_${T}(hx), wg_abs_${T}(y));
    if (m > ${T}(0.5) && m < ${T}(2.0)) {
        // |z|^2 - 1 = (m^2 - 1) + n^2 + 2 hx hy, the squares split exactly; m^2 - 1 is exact where it cancels
        let a = wg_impl_two_prod_${T}(m, m);
        let b = wg_impl_two_prod_${T}(n, n);
        let s = wg_impl_two_sum_${T}(a.x - ${T}(1.0), b.x);
        let d = s.x + (s.y + a.y + b.y + ${T}(2.0) * hx * hy);
        return wg_log1p_${T}(d) * ${T}(0.5);
    }
    if (m == ${T}(0.0)) { return -wg_impl_inf_${T}(); }
    let r = wg_divide_${T}(n, m);
    return wg_log_${T}(m) + wg_log1p_${T}(r * r) * ${T}(0.5);
}

// principal log; branch cut along the negative real axis (imag = +-pi by the sign of the zero imag)
fn wg_clog_${T}(z: vec2<${T}>) -> vec2<${T}> {
    let im = wg_atan2_${T}(z.y, z.x);
    if (wg_isinf_${T}(z.x) || wg_isinf_${T}(z.y)) { return vec2<${T}>(wg_impl_inf_${T}(), im); }
    if (wg_cisnan_${T}(z)) { return wg_impl_cnan_${T}(); }
    return vec2<${T}>(wg_impl_clog_re_${T}(z.x, ${T}(0.0), z.y), im);
}

// log(1 + z), accurate for small z (1 + x kept as an exact pair)
fn wg_clog1p_${T}(z: vec2<${T}>) -> vec2<${T}> {
    if (!wg_isfinite_${T}(z.x) || !wg_isfinite_${T}(z.y)
        || max(wg_abs_${T}(z.x), wg_abs_${T}(z.y)) > ${T}(0.5)) {
        return wg_clog_${T}(vec2<${T}>(z.x + ${T}(1.0), z.y));
    }
    let h = wg_impl_two_sum_${T}(${T}(1.0), z.x);
    return vec2<${T}>(wg_impl_clog_re_${T}(h.x, h.y, z.y), wg_atan2_${T}(z.y, h.x));
}

fn wg_clog2_${T}(z: vec2<${T}>) -> vec2<${T}> {
    let is64 = wg_impl_is_f64_${T}();
    return wg_clog_${T}(z) * select(${T}(1.4426950216293335), ${T}(1.4426950408889634), is64);
}

fn wg_clog10_${T}(z: vec2<${T}>) -> vec2<${T}> {
    let is64 = wg_impl_is_f64_${T}();
    return wg_clog_${T}(z) * select(${T}(0.4342944920063019), ${T}(0.4342944819032518), is64);
}

// x ** y as numpy computes it: y = 0 -> 1; x = 0 -> 0 for real positive y, else NaN; integral real |y| < 100 by
// repeated squaring (exact where the products are); otherwise exp(y log x)
fn wg_cpow_${T}(a: vec2<${T}>, b: vec2<${T}>) -> vec2<${T}> {
    let one = vec2<${T}>(${T}(1.0), ${T}(0.0));
    if (b.x == ${T}(0.0) && b.y == ${T}(0.0)) { return one; }
    if (a.x == ${T}(0.0) && a.y == ${T}(0.0)) {
        if (b.x > ${T}(0.0) && b.y == ${T}(0.0)) { return vec2<${T}>(${T}(0.0), ${T}(0.0)); }
        return wg_impl_cnan_${T}();
    }
    if (b.y == ${T}(0.0) && wg_abs_${T}(b.x) < ${T}(100.0) && wg_rint_${T}(b.x) == b.x) {
        var n = i32(b.x);
        if (n == 1) { return a; }
        if (n == 2) { return wg_cmul_${T}(a, a); }
        if (n == 3) { return wg_cmul_${T}(a, wg_cmul_${T}(a, a)); }
        n = abs(n);
        var p = a;
        var r = one;
        var mask = 1;
        loop {
            if ((n & mask) != 0) { r = wg_cmul_${T}(r, p); }
            mask = mask << 1u;
            if (n < mask) { break; }
            p = wg_cmul_${T}(p, p);
        }
        if (b.x < ${T}(0.0)) { return wg_cdiv_${T}(one, r); }
        return r;
    }
    return wg_cexp_${T}(wg_cmul_${T}(b, wg_clog_${T}(a)));
}

// ---- hyperbolic and circular functions -------------------------------------------------------------------------

fn wg_csinh_${T}(z: vec2<${T}>) -> vec2<${T}> {
    let x = z.x;
    let y = z.y;
    if (y == ${T}(0.0)) { return vec2<${T}>(wg_sinh_${T}(x), y); }
    if (!wg_isfinite_${T}(y)) {
        if (x == ${T}(0.0)) { return vec2<${T}>(x, wg_impl_nan_${T}()); }
        if (wg_isinf_${T}(x)) { return vec2<${T}>(x, wg_impl_nan_${T}()); }
        return wg_impl_cnan_${T}();
    }
    if (wg_isnan_${T}(x)) { return wg_impl_cnan_${T}(); }
    let c = wg_cos_${T}(y);
    let s = wg_sin_${T}(y);
    let ax = wg_abs_${T}(x);
    if (ax > wg_impl_exp_hi_${T}() - ${T}(1.0)) {  // sinh and cosh overflow before their products do
        let h = wg_exp_${T}(ax * ${T}(0.5));
        return vec2<${T}>(wg_copysign_${T}(${T}(1.0), x) * ((h * (${T}(0.5) * c)) * h),
                          (h * (${T}(0.5) * s)) * h);
    }
    return vec2<${T}>(wg_impl_mul_sign_${T}(wg_sinh_${T}(x), c), wg_impl_mul_sign_${T}(wg_cosh_${T}(x), s));
}

fn wg_ccosh_${T}(z: vec2<${T}>) -> vec2<${T}> {
    let x = z.x;
    let y = z.y;
    if (y == ${T}(0.0)) {
        return vec2<${T}>(wg_cosh_${T}(x), wg_impl_signed_zero_${T}(wg_signbit_${T}(x) != wg_signbit_${T}(y)));
    }
    if (!wg_isfinite_${T}(y)) {
        if (x == ${T}(0.0)) { return vec2<${T}>(wg_impl_nan_${T}(), ${T}(0.0)); }
        if (wg_isinf_${T}(x)) { return vec2<${T}>(wg_impl_inf_${T}(), wg_impl_nan_${T}()); }
        return wg_impl_cnan_${T}();
    }
    if (wg_isnan_${T}(x)) { return wg_impl_cnan_${T}(); }
    let c = wg_cos_${T}(y);
    let s = wg_sin_${T}(y);
    let ax = wg_abs_${T}(x);
    if (ax > wg_impl_exp_hi_${T}() - ${T}(1.0)) {
        let h = wg_exp_${T}(ax * ${T}(0.5));
        return vec2<${T}>((h * (${T}(0.5) * c)) * h, wg_copysign_${T}(${T}(1.0), x) * ((h * (${T}(0.5) * s)) * h));
    }
    return vec2<${T}>(wg_impl_mul_sign_${T}(wg_cosh_${T}(x), c), wg_impl_mul_sign_${T}(wg_sinh_${T}(x), s));
}

// tanh(x + iy) = (sinh x cosh x, sin y cos y) / (sinh^2 x + cos^2 y); 1 + i 4 sin y cos y e^(-2|x|) for large |x|
fn wg_ctanh_${T}(z: vec2<${T}>) -> vec2<${T}> {
    let x = z.x;
    let y = z.y;
    if (y == ${T}(0.0)) { return vec2<${T}>(wg_tanh_${T}(x), y); }
    if (wg_isinf_${T}(x)) {
        let one = wg_copysign_${T}(${T}(1.0), x);
        if (!wg_isfinite_${T}(y)) { return vec2<${T}>(one, wg_copysign_${T}(${T}(0.0), y)); }
        return vec2<${T}>(one, wg_impl_signed_zero_${T}(wg_signbit_${T}(wg_sin_${T}(y)) != wg_signbit_${T}(wg_cos_${T}(y))));
    }
    if (x == ${T}(0.0) && !wg_isfinite_${T}(y)) { return vec2<${T}>(x, wg_impl_nan_${T}()); }  // C11 / standard
    if (!wg_isfinite_${T}(x) || !wg_isfinite_${T}(y)) { return wg_impl_cnan_${T}(); }
    let s = wg_sin_${T}(y);
    let c = wg_cos_${T}(y);
    let ax = wg_abs_${T}(x);
    if (ax > select(${T}(12.0), ${T}(22.0), wg_impl_is_f64_${T}())) {
        let e = wg_exp_${T}(${T}(-2.0) * ax);
        return vec2<${T}>(wg_copysign_${T}(${T}(1.0), x),
                          wg_impl_mul_sign_${T}(wg_impl_mul_sign_${T}(${T}(4.0) * s, c), e));
    }
    let sh = wg_sinh_${T}(x);
    let ch = wg_cosh_${T}(x);
    let d = sh * sh + c * c;
    // the real part is a zero of x's sign for x = +-0 (ch, d > 0)
    return vec2<${T}>(wg_copysign_${T}(wg_divide_${T}(wg_abs_${T}(sh) * ch, d), sh),
                      wg_divide_${T}(wg_impl_mul_sign_${T}(s, c), d));
}

fn wg_csin_${T}(z: vec2<${T}>) -> vec2<${T}> {
    return wg_impl_cmuli_neg_${T}(wg_csinh_${T}(wg_impl_cmuli_${T}(z)));
}

fn wg_ccos_${T}(z: vec2<${T}>) -> vec2<${T}> {
    return wg_ccosh_${T}(wg_impl_cmuli_${T}(z));
}

fn wg_ctan_${T}(z: vec2<${T}>) -> vec2<${T}> {
    return wg_impl_cmuli_neg_${T}(wg_ctanh_${T}(wg_impl_cmuli_${T}(z)));
}

// ---- inverse functions (Kahan's formulas on the first quadrant; signs restored by the symmetries) -----------

// log(2|z|) + i arg z for |z| beyond huge, where the inverse functions equal it to within half an ulp
fn wg_impl_clog2z_${T}(x: ${T}, y: ${T}) -> vec2<${T}> {
    let m = max(x, y);
    let r = wg_divide_${T}(min(x, y), m);
    return vec2<${T}>(wg_impl_ln2x_${T}(m) + wg_log1p_${T}(r * r) * ${T}(0.5), wg_atan2_${T}(y, x));
}

// asinh on x, y >= 0: (asinh(Im(conj(xi) eta)), atan2(y, Re(xi eta))), xi = sqrt(1 + y - ix), eta = sqrt(1 - y + ix)
fn wg_impl_casinh_q1_${T}(x: ${T}, y: ${T}) -> vec2<${T}> {
    if (max(x, y) > wg_impl_huge_${T}()) { return wg_impl_clog2z_${T}(x, y); }
    let xi = wg_csqrt_${T}(vec2<${T}>(${T}(1.0) + y, -x));
    let eta = wg_csqrt_${T}(vec2<${T}>(${T}(1.0) - y, x));
    return vec2<${T}>(wg_asinh_${T}(xi.x * eta.y - xi.y * eta.x), wg_atan2_${T}(y, xi.x * eta.x - xi.y * eta.y));
}

fn wg_casinh_${T}(z: vec2<${T}>) -> vec2<${T}> {
    let x = wg_abs_${T}(z.x);
    let y = wg_abs_${T}(z.y);
    var r: vec2<${T}>;
    if (wg_isinf_${T}(x) || wg_isinf_${T}(y)) {
        if (wg_cisnan_${T}(z)) {
            r = vec2<${T}>(wg_impl_inf_${T}(), wg_impl_nan_${T}());
        } else {
            r = vec2<${T}>(wg_impl_inf_${T}(), wg_atan2_${T}(y, x));
        }
    } else if (wg_cisnan_${T}(z)) {
        if (z.y == ${T}(0.0)) { return z; }
        return wg_impl_cnan_${T}();
    } else {
        r = wg_impl_casinh_q1_${T}(x, y);
    }
    return vec2<${T}>(wg_copysign_${T}(r.x, z.x), wg_copysign_${T}(r.y, z.y));
}

fn wg_casin_${T}(z: vec2<${T}>) -> vec2<${T}> {
    return wg_impl_cmuli_neg_${T}(wg_casinh_${T}(wg_impl_cmuli_${T}(z)));
}

// acos for y >= 0 (imag <= 0): (2 atan2(Re xi, Re eta), asinh(Im(conj(eta) xi))), xi = sqrt(1 - z), eta = sqrt(1 + z)
fn wg_impl_cacos_upper_${T}(x: ${T}, y: ${T}) -> vec2<${T}> {
    if (wg_isinf_${T}(x) || wg_isinf_${T}(y)) {
        if (wg_isnan_${T}(x) || wg_isnan_${T}(y)) { return vec2<${T}>(wg_impl_nan_${T}(), -wg_impl_inf_${T}()); }
        return vec2<${T}>(wg_atan2_${T}(y, x), -wg_impl_inf_${T}());
    }
    if (wg_isnan_${T}(x) || wg_isnan_${T}(y)) {
        if (x == ${T}(0.0)) { return vec2<${T}>(wg_atan2_${T}(${T}(1.0), ${T}(0.0)), y); }
        return wg_impl_cnan_${T}();
    }
    if (max(wg_abs_${T}(x), y) > wg_impl_huge_${T}()) {
        let l = wg_impl_clog2z_${T}(wg_abs_${T}(x), y);
        return vec2<${T}>(wg_atan2_${T}(y, x), -l.x);
    }
    let xi = wg_csqrt_${T}(vec2<${T}>(${T}(1.0) - x, -y));
    let eta = wg_csqrt_${T}(vec2<${T}>(${T}(1.0) + x, y));
    // y = 0: Im = -0 (xi.y = -0, eta.y = +0), the sign the standard fixes for acos(x + 0i)
    return vec2<${T}>(${T}(2.0) * wg_atan2_${T}(xi.x, eta.x),
                      wg_asinh_${T}(wg_impl_mul_sign_${T}(eta.x, xi.y) - wg_impl_mul_sign_${T}(eta.y, xi.x)));
}

fn wg_cacos_${T}(z: vec2<${T}>) -> vec2<${T}> {
    let r = wg_impl_cacos_upper_${T}(z.x, wg_abs_${T}(z.y));
    return vec2<${T}>(r.x, wg_impl_xor_sign_${T}(r.y, z.y));
}

// acosh z = i acos z for imag >= 0, conjugate-symmetric
fn wg_cacosh_${T}(z: vec2<${T}>) -> vec2<${T}> {
    let r = wg_impl_cacos_upper_${T}(z.x, wg_abs_${T}(z.y));
    return vec2<${T}>(wg_impl_neg_${T}(r.y), wg_copysign_${T}(r.x, z.y));
}

// atanh on x, y >= 0: (log1p(4x / ((1 - x)^2 + y^2)) / 4, atan2(2y, (1 - x)(1 + x) - y^2) / 2)
fn wg_impl_catanh_q1_${T}(x: ${T}, y: ${T}) -> vec2<${T}> {
    let is64 = wg_impl_is_f64_${T}();
    let half_pi = select(${T}(1.5707963705062866), ${T}(1.5707963267948966), is64);
    let m = max(x, y);
    if (m > select(${T}(0x1p26), ${T}(0x1p55), is64)) {  // Re(1/z) and pi/2, to within half an ulp
        let xs = wg_divide_${T}(x, m);
        let ys = wg_divide_${T}(y, m);
        return vec2<${T}>(wg_divide_${T}(wg_divide_${T}(xs, m), xs * xs + ys * ys), half_pi);
    }
    var re: ${T};
    if (x == ${T}(1.0) && y < select(${T}(0x1p-12), ${T}(0x1p-27), is64)) {
        re = (select(${T}(0.6931471824645996), ${T}(0.6931471805599453), is64) - wg_log_${T}(y)) * ${T}(0.5);
    } else {
        let a = ${T}(1.0) - x;
        re = wg_log1p_${T}(wg_divide_${T}(${T}(4.0) * x, a * a + y * y)) * ${T}(0.25);
    }
    // 1 - x^2 - y^2 in double length (cancels near |z| = 1)
    let p = wg_impl_two_prod_${T}(x, x);
    let q = wg_impl_two_prod_${T}(y, y);
    let s = wg_impl_two_sum_${T}(p.x, q.x);
    let d = (${T}(1.0) - s.x) - (s.y + p.y + q.y);
    return vec2<${T}>(re, wg_atan2_${T}(${T}(2.0) * y, d) * ${T}(0.5));
}

fn wg_catanh_${T}(z: vec2<${T}>) -> vec2<${T}> {
    let x = wg_abs_${T}(z.x);
    let y = wg_abs_${T}(z.y);
    let half_pi = wg_atan2_${T}(${T}(1.0), ${T}(0.0));
    var r: vec2<${T}>;
    if (wg_isinf_${T}(x) || wg_isinf_${T}(y)) {
        r = vec2<${T}>(${T}(0.0), select(half_pi, y, wg_isnan_${T}(y)));
    } else if (wg_cisnan_${T}(z)) {
        if (z.x == ${T}(0.0)) { return vec2<${T}>(z.x, z.y); }
        return wg_impl_cnan_${T}();
    } else {
        r = wg_impl_catanh_q1_${T}(x, y);
    }
    return vec2<${T}>(wg_copysign_${T}(r.x, z.x), wg_copysign_${T}(r.y, z.y));
}

fn wg_catan_${T}(z: vec2<${T}>) -> vec2<${T}> {
    return wg_impl_cmuli_neg_${T}(wg_catanh_${T}(wg_impl_cmuli_${T}(z)));
}
