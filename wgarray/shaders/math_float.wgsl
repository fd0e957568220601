// numpy's transcendental functions, computed in software from + - * / sqrt ldexp round and bit operations of
// ${T} (f32 or f64), with the C/numpy special cases (NaN propagation, signed zeros, +-inf, domain errors -> NaN).
//
// Not the WGSL built-ins: SPIR-V's GLSL.std.450 exp/log/sin/... are defined for 16/32-bit floats only (lavapipe
// returns garbage for f64), and for f32 Vulkan only promises loose bounds that lavapipe uses in full: asin/acos
// off by ~4e-4 relative, log near 1 off by 2^-21 absolute (log(1 - 2^-24) = -1.03e-7 instead of -5.96e-8),
// sinh/tanh of tiny x off by 2e7 ulp, atan(NaN) = 0, subnormal inputs flushed, asinh/acosh of |x| > 1e19 -> inf.
// Accuracy here: a few ulp on every adapter (the bounds are the TOL table of tests/test_elementwise.py).
// Templated on ${T}; uses the helpers of numerics_float.wgsl (isnan/copysign, and the error-free
// transformations two_sum/two_prod/opaque and the double-length log2_dd of wg_pow).

// |x| below which f(x) = x is correctly rounded for the odd functions here (x^3/3 < half an ulp of x)
fn wg_impl_tiny_${T}() -> ${T} {
    return select(${T}(0x1p-12), ${T}(0x1p-27), wg_impl_is_f64_${T}());
}

// ---- exp family ------------------------------------------------------------------------------------------------

// e^(th + tl) - 1 as a double-length pair, for |th| <= 0.35 and |tl| <= ~2^-20 |th| (Taylor to degree 13)
fn wg_impl_expm1_dd_${T}(th: ${T}, tl: ${T}) -> vec2<${T}> {
    let q = wg_impl_expm1_taylor_${T}(th);
    let p2 = th * th * q;  // e^th - 1 - th
    let s = wg_impl_fast_two_sum_${T}(th, p2);
    // e^(th + tl) - 1 = (e^th - 1) + tl e^th
    return wg_impl_fast_two_sum_${T}(s.x, s.y + tl * (${T}(1.0) + (th + p2)));
}

// x = n ln2 + (th + tl) with |th| <= ~0.35: vec3(n, th, tl), for |x| < 2^20
fn wg_impl_exp_reduce_${T}(x: ${T}) -> vec3<${T}> {
    let is64 = wg_impl_is_f64_${T}();
    let n = wg_rint_${T}(x * select(${T}(1.4426950216293335), ${T}(1.4426950408889634), is64));
    let ln2_hi = select(${T}(0.6931471824645996), ${T}(0.6931471805599453), is64);
    let ln2_lo = select(${T}(-1.9046542121259336e-09), ${T}(2.3190468138462996e-17), is64);
    let t = wg_impl_two_prod_${T}(n, ln2_hi);
    let r0 = wg_impl_opaque_${T}(x - t.x);  // exact: x and n ln2_hi are within a factor of 2 (or n == 0)
    let r = wg_impl_two_sum_${T}(r0, -(t.y + n * ln2_lo));
    return vec3<${T}>(n, r.x, r.y);
}

// 2^n (1 + e.x + e.y) for integral n in the range of finite or gradually underflowing results; two ldexp
// steps, so the intermediate never overflows and a subnormal result is rounded only once
fn wg_impl_exp_scale_${T}(n: ${T}, e: vec2<${T}>) -> ${T} {
    let one = wg_impl_two_sum_${T}(${T}(1.0), e.x);
    let r = one.x + (one.y + e.y);
    let ni = i32(n);
    let h = ni / 2;
    return ldexp(ldexp(r, h), ni - h);
}

// thresholds: e^x overflows above hi, rounds to 0 below lo
fn wg_impl_exp_hi_${T}() -> ${T} {
    return select(${T}(88.8), ${T}(709.8), wg_impl_is_f64_${T}());
}
fn wg_impl_exp_lo_${T}() -> ${T} {
    return select(${T}(-104.0), ${T}(-745.2), wg_impl_is_f64_${T}());
}

// np.exp
fn wg_exp_${T}(x: ${T}) -> ${T} {
    if (wg_isnan_${T}(x)) { return x; }
    if (x > wg_impl_exp_hi_${T}()) { return wg_impl_inf_${T}(); }
    if (x < wg_impl_exp_lo_${T}()) { return ${T}(0.0); }
    let r = wg_impl_exp_reduce_${T}(x);
    return wg_impl_exp_scale_${T}(r.x, wg_impl_expm1_dd_${T}(r.y, r.z));
}

// np.exp2
fn wg_exp2_${T}(x: ${T}) -> ${T} {
    let is64 = wg_impl_is_f64_${T}();
    if (wg_isnan_${T}(x)) { return x; }
    if (x >= select(${T}(128.0), ${T}(1024.0), is64)) { return wg_impl_inf_${T}(); }
    if (x < select(${T}(-151.0), ${T}(-1076.0), is64)) { return ${T}(0.0); }
    let n = wg_rint_${T}(x);
    let f = x - n;  // exact, |f| <= 1/2
    let ln2_hi = select(${T}(0.6931471824645996), ${T}(0.6931471805599453), is64);
    let ln2_lo = select(${T}(-1.9046542121259336e-09), ${T}(2.3190468138462996e-17), is64);
    let t = wg_impl_two_prod_${T}(f, ln2_hi);
    let th = wg_impl_fast_two_sum_${T}(t.x, t.y + f * ln2_lo);
    return wg_impl_exp_scale_${T}(n, wg_impl_expm1_dd_${T}(th.x, th.y));
}

// np.expm1: e^x - 1 without cancellation (2^n (1 + E) - 1 = (2^n - 1) + 2^n E)
fn wg_expm1_${T}(x: ${T}) -> ${T} {
    let is64 = wg_impl_is_f64_${T}();
    if (wg_isnan_${T}(x) || wg_abs_${T}(x) < wg_impl_tiny_${T}() * wg_impl_tiny_${T}()) { return x; }
    if (x > wg_impl_exp_hi_${T}()) { return wg_impl_inf_${T}(); }
    if (x < select(${T}(-18.0), ${T}(-38.0), is64)) { return ${T}(-1.0); }  // e^x < half an ulp of 1
    let r = wg_impl_exp_reduce_${T}(x);
    let e = wg_impl_expm1_dd_${T}(r.y, r.z);
    if (r.x == ${T}(0.0)) {
        return e.x + e.y;
    }
    if (r.x > select(${T}(25.0), ${T}(54.0), is64)) {  // the -1 is below half an ulp of e^x
        return wg_impl_exp_scale_${T}(r.x, e);
    }
    let tn = ldexp(${T}(1.0), i32(r.x));
    return (tn - ${T}(1.0)) + tn * (e.x + e.y);
}

// ---- log family --------------------------------------------------------------------------------------------------

// ln(x) as a double-length pair, for finite x > 0
fn wg_impl_ln_dd_${T}(x: ${T}) -> vec2<${T}> {
    let is64 = wg_impl_is_f64_${T}();
    let l = wg_impl_log2_dd_${T}(x);
    let ln2_hi = select(${T}(0.6931471824645996), ${T}(0.6931471805599453), is64);
    let ln2_lo = select(${T}(-1.9046542121259336e-09), ${T}(2.3190468138462996e-17), is64);
    let p = wg_impl_two_prod_${T}(l.x, ln2_hi);
    return wg_impl_fast_two_sum_${T}(p.x, p.y + (l.x * ln2_lo + l.y * ln2_hi));
}

// the special cases of log, log2, log10: NaN for NaN and x < 0, -inf for +-0, +inf for +inf; else 0 (none)
fn wg_impl_log_special_${T}(x: ${T}) -> ${T} {
    if (wg_isnan_${T}(x) || wg_impl_is_neg_${T}(x)) { return wg_impl_nan_${T}(); }
    if (wg_impl_is_zero_${T}(x)) { return -wg_impl_inf_${T}(); }
    return wg_impl_inf_${T}();
}

fn wg_impl_log_regular_${T}(x: ${T}) -> bool {
    return wg_isfinite_${T}(x) && !wg_impl_is_zero_${T}(x) && !wg_signbit_${T}(x);
}

// np.log
fn wg_log_${T}(x: ${T}) -> ${T} {
    if (!wg_impl_log_regular_${T}(x)) { return wg_impl_log_special_${T}(x); }
    let l = wg_impl_ln_dd_${T}(x);
    return l.x + l.y;
}

// np.log2
fn wg_log2_${T}(x: ${T}) -> ${T} {
    if (!wg_impl_log_regular_${T}(x)) { return wg_impl_log_special_${T}(x); }
    let l = wg_impl_log2_dd_${T}(x);
    return l.x + l.y;
}

// np.log10: log2(x) * log10(2) in double length
fn wg_log10_${T}(x: ${T}) -> ${T} {
    let is64 = wg_impl_is_f64_${T}();
    if (!wg_impl_log_regular_${T}(x)) { return wg_impl_log_special_${T}(x); }
    let l = wg_impl_log2_dd_${T}(x);
    let c_hi = select(${T}(0.3010300099849701), ${T}(0.3010299956639812), is64);
    let c_lo = select(${T}(-1.432098883924482e-08), ${T}(-2.8037281277851704e-18), is64);
    let p = wg_impl_two_prod_${T}(l.x, c_hi);
    return p.x + (p.y + (l.x * c_lo + l.y * c_hi));
}

// np.log1p: 1 + x = u.x + u.y exactly, log(u.x + u.y) = log(u.x) + u.y / u.x (+ O((u.y / u.x)^2))
fn wg_log1p_${T}(x: ${T}) -> ${T} {
    if (wg_isnan_${T}(x) || wg_abs_${T}(x) < wg_impl_tiny_${T}() * wg_impl_tiny_${T}()) { return x; }
    if (x < ${T}(-1.0)) { return wg_impl_nan_${T}(); }
    if (x == ${T}(-1.0)) { return -wg_impl_inf_${T}(); }
    if (wg_isinf_${T}(x)) { return x; }
    let u = wg_impl_two_sum_${T}(${T}(1.0), x);
    let l = wg_impl_ln_dd_${T}(u.x);
    return l.x + (l.y + u.y / u.x);
}

// ---- hyperbolic functions ----------------------------------------------------------------------------------------

// np.sinh
fn wg_sinh_${T}(x: ${T}) -> ${T} {
    let a = wg_abs_${T}(x);
    if (wg_isnan_${T}(x) || a < wg_impl_tiny_${T}()) { return x; }
    var r: ${T};
    if (a < ${T}(1.0)) {
        let e = wg_expm1_${T}(a);
        r = ${T}(0.5) * (e + e / (e + ${T}(1.0)));
    } else {
        let e = wg_exp_${T}(a);
        if (wg_isinf_${T}(e)) {
            let h = wg_exp_${T}(${T}(0.5) * a);  // e^a overflows before sinh does
            r = (${T}(0.5) * h) * h;
        } else {
            r = ${T}(0.5) * e - ${T}(0.5) / e;
        }
    }
    return wg_copysign_${T}(r, x);
}

// np.cosh
fn wg_cosh_${T}(x: ${T}) -> ${T} {
    let a = wg_abs_${T}(x);
    if (wg_isnan_${T}(x)) { return x; }
    if (a < ${T}(0.35)) {
        let e = wg_expm1_${T}(a);
        return ${T}(1.0) + e * e / (${T}(2.0) * (${T}(1.0) + e));
    }
    let e = wg_exp_${T}(a);
    if (wg_isinf_${T}(e)) {
        let h = wg_exp_${T}(${T}(0.5) * a);
        return (${T}(0.5) * h) * h;
    }
    return ${T}(0.5) * e + ${T}(0.5) / e;
}

// np.tanh
fn wg_tanh_${T}(x: ${T}) -> ${T} {
    let a = wg_abs_${T}(x);
    if (wg_isnan_${T}(x) || a < wg_impl_tiny_${T}()) { return x; }
    var r = ${T}(1.0);
    if (a < ${T}(20.0)) {  // beyond, tanh rounds to 1 in f64 (and f32)
        if (a >= ${T}(1.0)) {
            r = ${T}(1.0) - ${T}(2.0) / (wg_expm1_${T}(${T}(2.0) * a) + ${T}(2.0));
        } else {
            let e = wg_expm1_${T}(${T}(-2.0) * a);
            r = -e / (e + ${T}(2.0));
        }
    }
    return wg_copysign_${T}(r, x);
}

// ln(a) + ln(2) for large a (asinh, acosh)
fn wg_impl_ln2x_${T}(a: ${T}) -> ${T} {
    let is64 = wg_impl_is_f64_${T}();
    let l = wg_impl_ln_dd_${T}(a);
    let s = wg_impl_two_sum_${T}(l.x, select(${T}(0.6931471824645996), ${T}(0.6931471805599453), is64));
    return s.x + (s.y + (l.y + select(${T}(-1.9046542121259336e-09), ${T}(2.3190468138462996e-17), is64)));
}

fn wg_impl_huge_${T}() -> ${T} {
    return select(${T}(0x1p12), ${T}(0x1p28), wg_impl_is_f64_${T}());  // 1 / huge^2 below half an ulp
}

// np.arcsinh
fn wg_asinh_${T}(x: ${T}) -> ${T} {
    let a = wg_abs_${T}(x);
    if (wg_isnan_${T}(x) || wg_isinf_${T}(x) || a < wg_impl_tiny_${T}()) { return x; }
    var r: ${T};
    if (a > wg_impl_huge_${T}()) {
        r = wg_impl_ln2x_${T}(a);
    } else if (a > ${T}(2.0)) {
        r = wg_log_${T}(${T}(2.0) * a + ${T}(1.0) / (sqrt(a * a + ${T}(1.0)) + a));
    } else {
        let t = a * a;
        r = wg_log1p_${T}(a + t / (${T}(1.0) + sqrt(${T}(1.0) + t)));
    }
    return wg_copysign_${T}(r, x);
}

// np.arccosh
fn wg_acosh_${T}(x: ${T}) -> ${T} {
    if (wg_isnan_${T}(x)) { return x; }
    if (x < ${T}(1.0)) { return wg_impl_nan_${T}(); }
    if (wg_isinf_${T}(x)) { return x; }
    if (x > wg_impl_huge_${T}()) { return wg_impl_ln2x_${T}(x); }
    if (x > ${T}(2.0)) {
        return wg_log_${T}(${T}(2.0) * x - ${T}(1.0) / (x + sqrt(x * x - ${T}(1.0))));
    }
    let t = x - ${T}(1.0);  // exact
    return wg_log1p_${T}(t + sqrt(${T}(2.0) * t + t * t));
}

// np.arctanh
fn wg_atanh_${T}(x: ${T}) -> ${T} {
    let a = wg_abs_${T}(x);
    if (wg_isnan_${T}(x) || a < wg_impl_tiny_${T}()) { return x; }
    if (a > ${T}(1.0)) { return wg_impl_nan_${T}(); }
    if (a == ${T}(1.0)) { return wg_copysign_${T}(wg_impl_inf_${T}(), x); }
    var r: ${T};
    if (a < ${T}(0.5)) {
        let t = a + a;
        r = ${T}(0.5) * wg_log1p_${T}(t + t * a / (${T}(1.0) - a));
    } else {
        r = ${T}(0.5) * wg_log1p_${T}((a + a) / (${T}(1.0) - a));
    }
    return wg_copysign_${T}(r, x);
}

// ---- trigonometric functions -------------------------------------------------------------------------------------

// One Cody-Waite step with pi/2 to about 4 T-widths and exact products: (xh + xl) = k pi/2 + (r.x + r.y), for
// |xl| <= ulp(xh): vec3(r.x, r.y, k).  k is round(xh 2/pi) where that is below 2^mantissa, else xh 2/pi itself
// (already integral; the next step reduces the rest)
fn wg_impl_rem_pio2_step_${T}(xh: ${T}, xl: ${T}) -> vec3<${T}> {
    let is64 = wg_impl_is_f64_${T}();
    let p1 = select(${T}(1.5707963705062866), ${T}(1.5707963267948966), is64);
    let p2 = select(${T}(-4.371138828673793e-08), ${T}(6.123233995736766e-17), is64);
    let p3 = select(${T}(-1.7151245100058819e-15), ${T}(-1.4973849048591698e-33), is64);
    let p4 = select(${T}(1.056299898220315e-23), ${T}(5.562271104316826e-50), is64);
    let t = xh * select(${T}(0.6366197466850281), ${T}(0.6366197723675814), is64);
    let k = wg_rint_${T}(t);  // not WGSL's round(): see wg_rint
    let a = wg_impl_two_prod_${T}(k, p1);
    let r0 = wg_impl_opaque_${T}(xh - a.x);  // exact (Sterbenz), or xh itself for k == 0
    let b = wg_impl_two_prod_${T}(k, p2);
    let s1 = wg_impl_two_sum_${T}(r0, xl - a.y);
    let s2 = wg_impl_two_sum_${T}(s1.x, -b.x);
    let lo = ((s1.y + s2.y) - b.y) - (k * p3 + k * p4);
    let r = wg_impl_two_sum_${T}(s2.x, lo);
    return vec3<${T}>(r.x, r.y, k);
}

// Bits pos .. pos + 31 of the 288-bit little-endian number p (bits outside it are 0)
fn wg_impl_bits288_${T}(p: ptr<function, array<u32, 9>>, pos: i32) -> u32 {
    let w = pos >> 5u;
    let sh = u32(pos & 31);
    var lo = 0u;
    var hi = 0u;
    if (w >= 0 && w < 9) { lo = (*p)[w]; }
    if (w >= -1 && w < 8) { hi = (*p)[w + 1]; }
    if (sh == 0u) { return lo; }
    return (lo >> sh) | (hi << (32u - sh));
}

// Payne-Hanek: x = k pi/2 + (r.x + r.y), |r| <= pi/4: vec3(r.x, r.y, k mod 4) for any finite x with |x| >= 2^20,
// in u32 arithmetic (every device has it, shader-int64 or not).
// |x| = m 2^e with m an integer of at most 53 bits; x 2/pi mod 4 is the exact product of m (two u32 words) with
// the 7 words of 2/pi's bits that matter: the words before them contribute multiples of 4 (their lowest bit
// weighs m 2^(e - 32 j) >= 4), the words after them less than 2^-138, against a fraction that is never below
// ~2^-62 for float64 (the closest a double comes to a multiple of pi/2) and ~2^-32 for float32.
fn wg_impl_rem_pio2_ph_${T}(x: ${T}) -> vec3<${T}> {
    var tbl = array<u32, 40>(
        0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u, 0x3c439041u,
        0xfe5163abu, 0xdebbc561u, 0xb7246e3au, 0x424dd2e0u, 0x06492eeau, 0x09d1921cu,
        0xfe1deb1cu, 0xb129a73eu, 0xe88235f5u, 0x2ebb4484u, 0xe99c7026u, 0xb45f7e41u,
        0x3991d639u, 0x835339f4u, 0x9c845f8bu, 0xbdf9283bu, 0x1ff897ffu, 0xde05980fu,
        0xef2f118bu, 0x5a0a6d1fu, 0x6d367ecfu, 0x27cb09b7u, 0x4f463f66u, 0x9e5fea2du,
        0x7527bac7u, 0xebe5f17bu, 0x3d0739f7u, 0x8a5292eau, 0x6bfb5fb1u, 0x1f8d5d08u,
        0x56033046u, 0xfc7b6babu, 0xf0cfbc20u, 0x9af4361du);
    let is64 = wg_impl_is_f64_${T}();
    let mbits = wg_impl_mant_bits_${T}();
    let ax = wg_abs_${T}(x);
    let e = wg_impl_biased_exponent_${T}(x) - select(127, 1023, is64) - i32(mbits);
    let m = ldexp(ax, -e);  // an integer below 2^53 (2^24 for f32): exact
    let mh = floor(m * ${T}(0x1p-32));
    var mw = array<u32, 2>(u32(m - mh * ${T}(0x1p32)), u32(mh));
    let j = max(0, (e - 2) >> 5u);
    var p = array<u32, 9>(0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);
    for (var i = 0; i < 2; i = i + 1) {
        var carry = 0u;
        for (var k = 0; k < 7; k = k + 1) {  // p += m_i * (words j .. j+6) << 32 i; p + a b + c < 2^64 per limb
            let t = wg_exact_impl_mul_u32(mw[i], tbl[j + 6 - k]);  // numerics_exact.wgsl: in every module
            let s1 = p[i + k] + t.x;
            let s2 = s1 + carry;
            carry = t.y + select(0u, 1u, s1 < t.x) + select(0u, 1u, s2 < s1);
            p[i + k] = s2;
        }
        p[i + 7] = carry;
    }
    let pt = 224 - (e - 32 * j);  // the binary point of x 2/pi (mod 4) in p
    var q = wg_impl_bits288_${T}(&p, pt) & 3u;
    var g = vec4<u32>(wg_impl_bits288_${T}(&p, pt - 32), wg_impl_bits288_${T}(&p, pt - 64),
                      wg_impl_bits288_${T}(&p, pt - 96), wg_impl_bits288_${T}(&p, pt - 128));
    let neg = (g.x & 0x80000000u) != 0u;
    if (neg) {  // fraction >= 1/2: k + 1 and the fraction minus 1, as 1 - fraction (128-bit two's complement)
        q = (q + 1u) & 3u;
        g = ~g;
        g.w = g.w + 1u;
        if (g.w == 0u) { g.z = g.z + 1u; if (g.z == 0u) { g.y = g.y + 1u; if (g.y == 0u) { g.x = g.x + 1u; } } }
    }
    var sc = 0;  // normalise: whole words, then bits (the fraction is above 2^-64 here)
    for (var w = 0; w < 2 && g.x == 0u; w = w + 1) {
        g = vec4<u32>(g.y, g.z, g.w, 0u);
        sc = sc + 32;
    }
    let c = countLeadingZeros(g.x);
    if (c != 0u) {
        g = vec4<u32>((g.x << c) | (g.y >> (32u - c)), (g.y << c) | (g.z >> (32u - c)), (g.z << c) | (g.w >> (32u - c)), 0u);
    }
    sc = sc + i32(c);
    // the 96 leading bits as a double-length value in [1/2, 1): 16-bit pieces are exact in f32 and f64
    var hi = ${T}(0.0);
    var lo = ${T}(0.0);
    for (var i = 5; i >= 0; i = i - 1) {
        let word = select(select(g.z, g.y, i < 4), g.x, i < 2);
        let half = select(word & 0xffffu, word >> 16u, (i & 1) == 0);
        let t = wg_impl_two_sum_${T}(hi, ${T}(half) * ldexp(${T}(1.0), -16 * (i + 1)));
        hi = t.x;
        lo = lo + t.y;
    }
    let f = wg_impl_fast_two_sum_${T}(hi, lo);
    let fh = ldexp(f.x, -sc);
    let fl = ldexp(f.y, -sc);
    // r = fraction pi/2, double-length
    let p1 = select(${T}(1.5707963705062866), ${T}(1.5707963267948966), is64);
    let p2 = select(${T}(-4.371138828673793e-08), ${T}(6.123233995736766e-17), is64);
    let a = wg_impl_two_prod_${T}(fh, p1);
    var r = wg_impl_fast_two_sum_${T}(a.x, a.y + (fh * p2 + fl * p1));
    if (neg != wg_impl_is_neg_${T}(x)) { r = -r; }
    if (wg_impl_is_neg_${T}(x)) { q = (4u - q) & 3u; }
    return vec3<${T}>(r.x, r.y, ${T}(q));
}

// x = k pi/2 + (r.x + r.y), |r| <= ~pi/4: vec3(r.x, r.y, k mod 4), for finite x.  The fast path (Cody-Waite
// with pi/2 to ~4 T-widths; further steps reduce what the first left where k did not fit the mantissa) serves
// |x| below 2^20 (f32) / 2^32 (f64), far inside where it is accurate; Payne-Hanek (exact) serves the rest.
fn wg_impl_rem_pio2_${T}(x: ${T}) -> vec3<${T}> {
    if (wg_abs_${T}(x) >= select(${T}(0x1p20), ${T}(0x1p32), wg_impl_is_f64_${T}())) {
        return wg_impl_rem_pio2_ph_${T}(x);
    }
    var r = wg_impl_rem_pio2_step_${T}(x, ${T}(0.0));
    var k = r.z - ${T}(4.0) * floor(r.z * ${T}(0.25));
    // each further step shrinks |r| by ~2^mantissa: at most 6 (f32) / 20 (f64) for the largest x
    for (var i = 0; i < 24 && wg_abs_${T}(r.x) > ${T}(0.8); i = i + 1) {
        r = wg_impl_rem_pio2_step_${T}(r.x, r.y);
        k = k + (r.z - ${T}(4.0) * floor(r.z * ${T}(0.25)));
    }
    let q = k - ${T}(4.0) * floor(k * ${T}(0.25));
    return vec3<${T}>(r.x, r.y, q);
}

// sin(x + y) for |x| <= ~pi/4, |y| <= ulp(x) (Taylor to degree 17)
fn wg_impl_sin_kernel_${T}(x: ${T}, y: ${T}) -> ${T} {
    let z = x * x;
    var s = ${T}(2.8114572543455206e-15);
    s = s * z - ${T}(7.647163731819816e-13);
    s = s * z + ${T}(1.6059043836821613e-10);
    s = s * z - ${T}(2.505210838544172e-08);
    s = s * z + ${T}(2.755731922398589e-06);
    s = s * z - ${T}(0.0001984126984126984);
    s = s * z + ${T}(0.008333333333333333);
    s = s * z - ${T}(0.16666666666666666);
    return x + ((z * x) * s + y * (${T}(1.0) - ${T}(0.5) * z));
}

// cos(x + y) for |x| <= ~pi/4, |y| <= ulp(x) (Taylor to degree 18)
fn wg_impl_cos_kernel_${T}(x: ${T}, y: ${T}) -> ${T} {
    let z = x * x;
    var c = ${T}(-1.5619206968586225e-16);
    c = c * z + ${T}(4.779477332387385e-14);
    c = c * z - ${T}(1.1470745597729725e-11);
    c = c * z + ${T}(2.08767569878681e-09);
    c = c * z - ${T}(2.755731922398589e-07);
    c = c * z + ${T}(2.48015873015873e-05);
    c = c * z - ${T}(0.001388888888888889);
    c = c * z + ${T}(0.041666666666666664);
    let hz = ${T}(0.5) * z;
    let w = wg_impl_opaque_${T}(${T}(1.0) - hz);
    // 1 - hz = w + ((1 - w) - hz) exactly
    return w + ((wg_impl_opaque_${T}(${T}(1.0) - w) - hz) + (z * z * c - x * y));
}

// np.sin
fn wg_sin_${T}(x: ${T}) -> ${T} {
    if (!wg_isfinite_${T}(x)) { return wg_impl_nan_${T}(); }
    if (wg_abs_${T}(x) < wg_impl_tiny_${T}()) { return x; }
    let r = wg_impl_rem_pio2_${T}(x);
    let q = i32(r.z);
    var v: ${T};
    if ((q & 1) == 0) { v = wg_impl_sin_kernel_${T}(r.x, r.y); } else { v = wg_impl_cos_kernel_${T}(r.x, r.y); }
    return select(v, -v, q >= 2);
}

// np.cos
fn wg_cos_${T}(x: ${T}) -> ${T} {
    if (!wg_isfinite_${T}(x)) { return wg_impl_nan_${T}(); }
    let r = wg_impl_rem_pio2_${T}(x);
    let q = i32(r.z);
    var v: ${T};
    if ((q & 1) == 0) { v = wg_impl_cos_kernel_${T}(r.x, r.y); } else { v = wg_impl_sin_kernel_${T}(r.x, r.y); }
    return select(v, -v, q == 1 || q == 2);
}

// np.tan
fn wg_tan_${T}(x: ${T}) -> ${T} {
    if (!wg_isfinite_${T}(x)) { return wg_impl_nan_${T}(); }
    if (wg_abs_${T}(x) < wg_impl_tiny_${T}()) { return x; }
    let r = wg_impl_rem_pio2_${T}(x);
    let s = wg_impl_sin_kernel_${T}(r.x, r.y);
    let c = wg_impl_cos_kernel_${T}(r.x, r.y);
    if ((i32(r.z) & 1) == 0) { return s / c; }
    return -c / s;
}

// atan(a) for a >= 0 (+inf included) as a double-length pair: a reduced to |t| <= 7/16 around atan(0),
// atan(1/2), atan(1), atan(3/2) or atan(inf) (fdlibm's intervals), then Taylor to degree 43
fn wg_impl_atan_dd_${T}(a: ${T}) -> vec2<${T}> {
    let is64 = wg_impl_is_f64_${T}();
    var t = a;
    var bh = ${T}(0.0);
    var bl = ${T}(0.0);
    if (a >= ${T}(2.4375)) {
        t = ${T}(-1.0) / a;
        bh = select(${T}(1.5707963705062866), ${T}(1.5707963267948966), is64);
        bl = select(${T}(-4.371138828673793e-08), ${T}(6.123233995736766e-17), is64);
    } else if (a >= ${T}(1.1875)) {
        t = (a - ${T}(1.5)) / (${T}(1.0) + ${T}(1.5) * a);
        bh = select(${T}(0.9827937483787537), ${T}(0.982793723247329), is64);
        bl = select(${T}(-2.5131424052915463e-08), ${T}(1.3903311031230998e-17), is64);
    } else if (a >= ${T}(0.6875)) {
        t = (a - ${T}(1.0)) / (a + ${T}(1.0));
        bh = select(${T}(0.7853981852531433), ${T}(0.7853981633974483), is64);
        bl = select(${T}(-2.1855694143368964e-08), ${T}(3.061616997868383e-17), is64);
    } else if (a >= ${T}(0.4375)) {
        t = (${T}(2.0) * a - ${T}(1.0)) / (${T}(2.0) + a);
        bh = select(${T}(0.46364760398864746), ${T}(0.4636476090008061), is64);
        bl = select(${T}(5.01215868808913e-09), ${T}(2.2698777452961687e-17), is64);
    }
    let z = t * t;
    // atan(t) = t + t z q(z), q = -1/3 + z/5 - z^2/7 + ...
    var q = ${T}(-0.023255813953488372);
    q = q * z + ${T}(0.024390243902439025);
    q = q * z - ${T}(0.02564102564102564);
    q = q * z + ${T}(0.02702702702702703);
    q = q * z - ${T}(0.02857142857142857);
    q = q * z + ${T}(0.030303030303030304);
    q = q * z - ${T}(0.03225806451612903);
    q = q * z + ${T}(0.034482758620689655);
    q = q * z - ${T}(0.037037037037037035);
    q = q * z + ${T}(0.04);
    q = q * z - ${T}(0.043478260869565216);
    q = q * z + ${T}(0.047619047619047616);
    q = q * z - ${T}(0.05263157894736842);
    q = q * z + ${T}(0.058823529411764705);
    q = q * z - ${T}(0.06666666666666667);
    q = q * z + ${T}(0.07692307692307693);
    q = q * z - ${T}(0.09090909090909091);
    q = q * z + ${T}(0.1111111111111111);
    q = q * z - ${T}(0.14285714285714285);
    q = q * z + ${T}(0.2);
    q = q * z - ${T}(0.3333333333333333);
    let p = t * z * q;
    let s = wg_impl_two_sum_${T}(bh, t);
    return wg_impl_fast_two_sum_${T}(s.x, s.y + (bl + p));
}

// np.arctan
fn wg_atan_${T}(x: ${T}) -> ${T} {
    if (wg_isnan_${T}(x) || wg_abs_${T}(x) < wg_impl_tiny_${T}()) { return x; }
    let r = wg_impl_atan_dd_${T}(wg_abs_${T}(x));
    return wg_copysign_${T}(r.x + r.y, x);
}

// np.arcsin: atan(x / sqrt((1 - x)(1 + x)))
fn wg_asin_${T}(x: ${T}) -> ${T} {
    let a = wg_abs_${T}(x);
    if (wg_isnan_${T}(x) || a < wg_impl_tiny_${T}()) { return x; }
    if (a > ${T}(1.0)) { return wg_impl_nan_${T}(); }
    let r = wg_impl_atan_dd_${T}(a / sqrt((${T}(1.0) - a) * (${T}(1.0) + a)));
    return wg_copysign_${T}(r.x + r.y, x);
}

// np.arccos: 2 atan(sqrt((1 - x) / (1 + x)))
fn wg_acos_${T}(x: ${T}) -> ${T} {
    if (wg_isnan_${T}(x)) { return x; }
    if (wg_abs_${T}(x) > ${T}(1.0)) { return wg_impl_nan_${T}(); }
    let r = wg_impl_atan_dd_${T}(sqrt((${T}(1.0) - x) / (${T}(1.0) + x)));
    return ${T}(2.0) * (r.x + r.y);
}

// np.arctan2 with C's rules for signed zeros and infinities.
fn wg_atan2_${T}(y: ${T}, x: ${T}) -> ${T} {
    let is64 = wg_impl_is_f64_${T}();
    let pi = select(${T}(3.1415927410125732), ${T}(3.141592653589793), is64);
    let pi_lo = select(${T}(-8.742277657347586e-08), ${T}(1.2246467991473532e-16), is64);
    if (wg_isnan_${T}(x) || wg_isnan_${T}(y)) { return x + y; }
    if (wg_impl_is_zero_${T}(y)) {
        if (wg_signbit_${T}(x)) { return wg_copysign_${T}(pi, y); }
        return y;
    }
    if (wg_isinf_${T}(y)) {
        var a = pi * ${T}(0.5);
        if (wg_isinf_${T}(x)) { a = select(pi * ${T}(0.75), pi * ${T}(0.25), x > ${T}(0.0)); }
        return wg_copysign_${T}(a, y);
    }
    if (wg_isinf_${T}(x)) {
        return select(wg_copysign_${T}(pi, y), wg_copysign_${T}(${T}(0.0), y), x > ${T}(0.0));
    }
    if (wg_impl_is_zero_${T}(x)) { return wg_copysign_${T}(pi * ${T}(0.5), y); }
    let ax = wg_abs_${T}(x);
    let ay = wg_abs_${T}(y);
    var r: vec2<${T}>;
    if (ay <= ax) {
        r = wg_impl_atan_dd_${T}(wg_divide_${T}(ay, ax));
    } else {
        let q = wg_impl_atan_dd_${T}(wg_divide_${T}(ax, ay));  // atan(ay / ax) = pi/2 - atan(ax / ay)
        let s = wg_impl_two_sum_${T}(pi * ${T}(0.5), -q.x);
        r = wg_impl_fast_two_sum_${T}(s.x, s.y + (pi_lo * ${T}(0.5) - q.y));
    }
    if (wg_signbit_${T}(x)) {
        let s = wg_impl_two_sum_${T}(pi, -r.x);
        r = wg_impl_fast_two_sum_${T}(s.x, s.y + (pi_lo - r.y));
    }
    return wg_copysign_${T}(r.x + r.y, y);
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
    let r = wg_divide_${T}(n, m);
    return m * wg_sqrtcr_${T}(${T}(1.0) + r * r);
}

// np.logaddexp: log(exp(x) + exp(y)) without overflow.
fn wg_logaddexp_${T}(x: ${T}, y: ${T}) -> ${T} {
    if (x == y) { return x + ${T}(0.69314718055994530942); }
    if (wg_isnan_${T}(x) || wg_isnan_${T}(y)) { return x + y; }
    let m = max(x, y);
    if (wg_isinf_${T}(m)) { return m; }
    return m + wg_log1p_${T}(wg_exp_${T}(-wg_abs_${T}(x - y)));
}
