// wgarray: numpy-compatible floating point helpers.
//
// Template variables (Python string.Template):
//   ${T} : the float type,          "f32" or "f64"
//   ${U} : same-size unsigned type, "u32" (with f32) or "u64" (with f64)
// Valid pairs are exactly (T=f32, U=u32) and (T=f64, U=u64). The f64 instance
// needs the device features "shader-f64" and "shader-int64": naga rejects
// bitcast<vec2<u32>>(f64) (it mistypes the result), so the bit tricks for f64
// use bitcast<u64>/bitcast<f64>(u64) instead.
//
// Every function carries the _${T} suffix, so the f32 and f64 instances can
// live in the same shader module. Names containing "_impl_" are internal.
//
// Classification and sign handling look at the bit pattern only (never at
// x != x), so they are immune to fast-math folding and to subnormal flushing.
// wg_fmod is integer based and exact. floordiv/remainder/pow use float
// arithmetic after the special cases; their bit-exactness relies on correctly
// rounded + - * / and on subnormal support (true on lavapipe; Vulkan only
// guarantees 2.5 ulp for f32 division, which can perturb floordiv when the
// quotient is >= 2^24 (f32) / 2^53 (f64), where it is not integral anyway).
// NaN results may carry a different payload/sign than numpy's NaN.
// Tested bit for bit against numpy 2.4 (x86-64) on lavapipe by
// tests/test_wgsl_numerics.py; pow only to 1-2 ulp, see wg_pow.

// ---- type traits (all fold to constants) ----------------------------------

fn wg_impl_is_f64_${T}() -> bool {
    return bitcast<${U}>(${T}(1.0)) != ${U}(0x3f800000u);
}
// number of stored mantissa bits: 23 (f32) or 52 (f64)
fn wg_impl_mant_bits_${T}() -> u32 {
    return select(23u, 52u, wg_impl_is_f64_${T}());
}
fn wg_impl_sign_mask_${T}() -> ${U} {
    return ~(~${U}(0) >> 1u);
}
// exponent field mask; also the bit pattern of +inf
fn wg_impl_exp_mask_${T}() -> ${U} {
    return bitcast<${U}>(${T}(1.0)) | bitcast<${U}>(${T}(2.0));
}
fn wg_impl_inf_${T}() -> ${T} {
    return bitcast<${T}>(wg_impl_exp_mask_${T}());
}
// a quiet NaN (positive)
fn wg_impl_nan_${T}() -> ${T} {
    return bitcast<${T}>(wg_impl_exp_mask_${T}() | (${U}(1) << (wg_impl_mant_bits_${T}() - 1u)));
}
fn wg_impl_abs_bits_${T}(x: ${T}) -> ${U} {
    return bitcast<${U}>(x) & ~wg_impl_sign_mask_${T}();
}
// The biased exponent field of x (0 for zeros and subnormals)
fn wg_impl_biased_exponent_${T}(x: ${T}) -> i32 {
    return i32(u32(wg_impl_abs_bits_${T}(x) >> wg_impl_mant_bits_${T}()));
}

// 2^e for e in [-(bias - 1), bias - 1] (-126..126 for f32): a normal power of two, built from its bits (exact
// where ldexp's result for an exponent near the ends of the range is implementation-defined)
fn wg_impl_pow2_${T}(e: i32) -> ${T} {
    let bias = select(127, 1023, wg_impl_is_f64_${T}());
    return bitcast<${T}>(${U}(u32(e + bias)) << wg_impl_mant_bits_${T}());
}

fn wg_impl_is_zero_${T}(x: ${T}) -> bool {
    return wg_impl_abs_bits_${T}(x) == ${U}(0);
}
// x < 0 in the sense of C isless(x, 0): false for NaN and for -0.0
fn wg_impl_is_neg_${T}(x: ${T}) -> bool {
    let a = wg_impl_abs_bits_${T}(x);
    return (bitcast<${U}>(x) & wg_impl_sign_mask_${T}()) != ${U}(0)
        && a != ${U}(0) && a <= wg_impl_exp_mask_${T}();
}

// ---- classification --------------------------------------------------------

// np.isnan
fn wg_isnan_${T}(x: ${T}) -> bool {
    return wg_impl_abs_bits_${T}(x) > wg_impl_exp_mask_${T}();
}

// np.isinf
fn wg_isinf_${T}(x: ${T}) -> bool {
    return wg_impl_abs_bits_${T}(x) == wg_impl_exp_mask_${T}();
}

// np.isfinite
fn wg_isfinite_${T}(x: ${T}) -> bool {
    return wg_impl_abs_bits_${T}(x) < wg_impl_exp_mask_${T}();
}

// np.signbit (true for -0.0 and for NaNs with the sign bit set)
fn wg_signbit_${T}(x: ${T}) -> bool {
    return (bitcast<${U}>(x) & wg_impl_sign_mask_${T}()) != ${U}(0);
}

// ---- sign manipulation -----------------------------------------------------

// np.abs / np.fabs: clears the sign bit (abs(-0.0) = 0.0, NaN stays NaN)
fn wg_abs_${T}(x: ${T}) -> ${T} {
    return bitcast<${T}>(wg_impl_abs_bits_${T}(x));
}

// np.copysign: magnitude of a, sign bit of b (also for NaN and zero)
fn wg_copysign_${T}(a: ${T}, b: ${T}) -> ${T} {
    let s = wg_impl_sign_mask_${T}();
    return bitcast<${T}>((bitcast<${U}>(a) & ~s) | (bitcast<${U}>(b) & s));
}

// np.trunc and np.rint (round half to even) from floor and ceil alone.  WGSL's trunc() and round() are not
// trusted on f64: Debian's Mesa 22.3.6-1+deb12u2 lavapipe converts through 32-bit integers (round(1.5) = 1,
// trunc(-0.5) = +0, values beyond 2^31 come back with their fraction), an older one misrounded beyond 2^52;
// floor and ceil are exact there and everywhere else seen.  x - floor(x) is exact (in [0, 1)), f is odd when
// f - 2 floor(f / 2) is 1 (exact too), integers beyond 2^mantissa come back unchanged (d = 0), NaN and inf pass
// through, and the sign of a zero result is x's (np.rint(-0.4) = -0.0).
fn wg_trunc_${T}(x: ${T}) -> ${T} {
    // the side by the sign bit, not by x < 0: a device that flushes subnormal operands of comparisons but not of
    // floor (NVIDIA's Vulkan driver) would take floor(-1e-40) = -1
    return select(floor(x), ceil(x), (bitcast<${U}>(x) & wg_impl_sign_mask_${T}()) != ${U}(0));
}

fn wg_rint_${T}(x: ${T}) -> ${T} {
    let f = floor(x);
    let d = x - f;
    let odd = f - ${T}(2.0) * floor(f * ${T}(0.5)) == ${T}(1.0);
    let up = d > ${T}(0.5) || (d == ${T}(0.5) && odd);
    return wg_copysign_${T}(f + select(${T}(0.0), ${T}(1.0), up), x);
}

// Signs of zeros by construction.  A GPU compiler does not promise signed-zero-exact float arithmetic (NVIDIA's
// Vulkan driver folded select(0.0, -0.0, c) to -0.0; others may turn 0.0 - v into -v or x * -1.0 into -x), so
// where a special case of the standard fixes a zero's sign the sign bit is computed with integer operations.
// -x as a sign-bit flip (also for zeros and NaNs)
fn wg_impl_neg_${T}(x: ${T}) -> ${T} {
    return bitcast<${T}>(bitcast<${U}>(x) ^ wg_impl_sign_mask_${T}());
}

// a zero with the sign bit set when neg
fn wg_impl_signed_zero_${T}(neg: bool) -> ${T} {
    return bitcast<${T}>(select(${U}(0), wg_impl_sign_mask_${T}(), neg));
}

// a with its sign bit flipped where b's is set: a * sign(b) for every a, b (zeros and NaNs too)
fn wg_impl_xor_sign_${T}(a: ${T}, b: ${T}) -> ${T} {
    return bitcast<${T}>(bitcast<${U}>(a) ^ (bitcast<${U}>(b) & wg_impl_sign_mask_${T}()));
}

// a * b with the sign bit sign(a) xor sign(b) whatever the magnitude (0 * -c = -0 even under a compiler that
// drops zero signs); the magnitude |a| * |b| is the rounded product's, so nonzero results are those of a * b.
// The bit operations also keep the product from being contracted into a neighbouring fma
fn wg_impl_mul_sign_${T}(a: ${T}, b: ${T}) -> ${T} {
    let s = wg_impl_sign_mask_${T}();
    let m = bitcast<${U}>(wg_abs_${T}(a) * wg_abs_${T}(b)) & ~s;
    return bitcast<${T}>(m | ((bitcast<${U}>(a) ^ bitcast<${U}>(b)) & s));
}

// np.sign: NaN -> the NaN itself, +-0 -> +0.0, otherwise +-1
fn wg_sign_${T}(x: ${T}) -> ${T} {
    if (wg_isnan_${T}(x)) {
        return x;
    }
    if (wg_impl_is_zero_${T}(x)) {
        return ${T}(0.0);
    }
    return select(${T}(1.0), ${T}(-1.0), wg_signbit_${T}(x));
}

// ---- min / max -------------------------------------------------------------

// np.maximum as numpy computes it on x86-64 (SSE maxss + NaN fix-up):
// (a > b || isnan(a)) ? a : b. NaN propagates (a NaN a wins over a NaN b);
// for equal operands b is returned, so maximum(-0.0, 0.0) = 0.0 and
// maximum(0.0, -0.0) = -0.0. (numpy's portable C fallback returns a on ties
// and numpy on aarch64 returns +0.0 for either order; only the sign of zero
// differs between these.)
fn wg_maximum_${T}(a: ${T}, b: ${T}) -> ${T} {
    return select(b, a, a > b || wg_isnan_${T}(a));
}

// np.minimum as numpy computes it on x86-64: (a < b || isnan(a)) ? a : b,
// so minimum(-0.0, 0.0) = 0.0 and minimum(0.0, -0.0) = -0.0 (see maximum).
fn wg_minimum_${T}(a: ${T}, b: ${T}) -> ${T} {
    return select(b, a, a < b || wg_isnan_${T}(a));
}

// ---- fmod / floor_divide / remainder --------------------------------------

// np.fmod (C fmod): result has the sign of a and |result| < |b|.
// Exact: it does binary long division on the integer significands, so it is
// bit-identical to C fmod for every input, subnormals and huge |a/b| included
// (unlike WGSL's `%`, which is a - b*trunc(a/b) and goes wrong once |a/b|
// exceeds ~2^24 / 2^53). Cost grows with the exponent difference of a and b:
// one integer `%` per 8 (f32) / 11 (f64) bits, i.e. at most ~35 / ~190 steps.
// fmod(x, 0), fmod(+-inf, y) and NaN inputs give NaN (payload may differ).
fn wg_fmod_${T}(a: ${T}, b: ${T}) -> ${T} {
    let sm = wg_impl_sign_mask_${T}();
    let em = wg_impl_exp_mask_${T}();
    let mbits = wg_impl_mant_bits_${T}();
    let hidden = ${U}(1) << mbits;
    let ua = bitcast<${U}>(a);
    let xa = ua & ~sm;
    let xb = bitcast<${U}>(b) & ~sm;
    if (xa > em) {
        return a;
    }
    if (xb > em) {
        return b;
    }
    if (xa == em || xb == ${U}(0)) {
        return wg_impl_nan_${T}();
    }
    if (xb == em || xa < xb) {
        return a;  // |a| < |b| (covers a == +-0 and b == +-inf)
    }
    var ea = xa >> mbits;
    var eb = xb >> mbits;
    var ma = xa & (hidden - ${U}(1));
    var mb = xb & (hidden - ${U}(1));
    if (ea != ${U}(0)) { ma = ma | hidden; } else { ea = ${U}(1); }
    if (eb != ${U}(0)) { mb = mb | hidden; } else { eb = ${U}(1); }
    // headroom above a (mant_bits+1)-bit value: 8 bits in u32, 11 in u64
    let room = ${U}(select(8u, 11u, wg_impl_is_f64_${T}()));
    var d = ea - eb;
    var r = ma % mb;
    while (d != ${U}(0) && r != ${U}(0)) {
        let s = min(d, room);
        r = (r << u32(s)) % mb;
        d = d - s;
    }
    if (r == ${U}(0)) {
        return bitcast<${T}>(ua & sm);
    }
    // renormalise r * 2^(eb - bias - mbits); stays exact (it is < |b|)
    var e = eb;
    while (r < hidden && e > ${U}(1)) {
        if (r < (hidden >> 8u) && e > ${U}(8)) {
            r = r << 8u;
            e = e - ${U}(8);
        } else {
            r = r << 1u;
            e = e - ${U}(1);
        }
    }
    // subnormal results have e == 1 and r < hidden, which encodes correctly too
    return bitcast<${T}>((ua & sm) | (((e - ${U}(1)) << mbits) + r));
}

// C's a / b for b == +-0: NaN for a = +-0 or NaN, else inf with xor-ed sign
fn wg_impl_div_by_zero_${T}(a: ${T}, b: ${T}) -> ${T} {
    if (wg_isnan_${T}(a) || wg_impl_is_zero_${T}(a)) {
        return wg_impl_nan_${T}();
    }
    let s = (bitcast<${U}>(a) ^ bitcast<${U}>(b)) & wg_impl_sign_mask_${T}();
    return bitcast<${T}>(wg_impl_exp_mask_${T}() | s);
}

// np.floor_divide for floats (numpy's npy_divmod): fmod based, quotient
// snapped with the "> 0.5" correction; b == +-0 gives a / b (+-inf or NaN);
// a zero quotient gets the sign of a / b.  Exactly one infinite operand (and
// no NaN): the array API standard's special cases, floor(a / b) itself:
// +-inf // finite is an infinity and finite // +-inf a zero, each with the
// sign of a / b (numpy's divmod gives NaN, and -1 where the signs differ).
fn wg_floordiv_${T}(a: ${T}, b: ${T}) -> ${T} {
    if (wg_impl_is_zero_${T}(b)) {
        return wg_impl_div_by_zero_${T}(a, b);
    }
    let ia = wg_isinf_${T}(a);
    if (ia != wg_isinf_${T}(b) && !wg_isnan_${T}(a) && !wg_isnan_${T}(b)) {
        let s = (bitcast<${U}>(a) ^ bitcast<${U}>(b)) & wg_impl_sign_mask_${T}();
        return bitcast<${T}>(select(${U}(0), wg_impl_exp_mask_${T}(), ia) | s);
    }
    var m = wg_fmod_${T}(a, b);
    var div = wg_divide_${T}(a - m, b);  // correctly rounded on every adapter
    if (!wg_impl_is_zero_${T}(m)) {
        if (wg_impl_is_neg_${T}(b) != wg_impl_is_neg_${T}(m)) {
            div = div - ${T}(1.0);
        }
    }
    if (wg_impl_is_zero_${T}(div)) {
        // copysign(0, a / b)
        let s = (bitcast<${U}>(a) ^ bitcast<${U}>(b)) & wg_impl_sign_mask_${T}();
        return bitcast<${T}>(s);
    }
    var fl = floor(div);
    if (div - fl > ${T}(0.5)) {
        fl = fl + ${T}(1.0);
    }
    return fl;
}

// np.remainder / np.mod for floats (numpy's npy_divmod): result has the sign
// of b; a zero result is copysign(0, b); b == +-0 gives NaN. Like numpy,
// remainder(-1, inf) = inf and remainder(1, -inf) = -inf.
fn wg_remainder_${T}(a: ${T}, b: ${T}) -> ${T} {
    var m = wg_fmod_${T}(a, b);
    if (wg_impl_is_zero_${T}(b)) {
        return m;  // NaN
    }
    if (wg_impl_is_zero_${T}(m)) {
        return bitcast<${T}>(bitcast<${U}>(b) & wg_impl_sign_mask_${T}());
    }
    if (wg_impl_is_neg_${T}(b) != wg_impl_is_neg_${T}(m)) {
        m = m + b;
    }
    return m;
}

// ---- power -----------------------------------------------------------------

// Core of wg_pow_fast for T = f32: exp2(b * log2(x)) with the WGSL built-ins,
// for finite x > 0 and finite b. Subnormal x and subnormal results are
// rescaled because lavapipe's log2/exp2 mishandle them. (It compiles for
// T = f64 too, evaluating in f32, but is never reached there.)
fn wg_impl_pow_fast_core_${T}(x: ${T}, b: ${T}) -> ${T} {
    var xf = f32(x);
    var adj = 0.0f;
    if (xf < 0x1p-126f) {
        xf = xf * 0x1p24f;
        adj = -24.0f;
    }
    let y = f32(b) * (log2(xf) + adj);
    if (y < -126.0f) {
        return ${T}(exp2(y + 32.0f) * 0x1p-32f);
    }
    return ${T}(exp2(y));
}

// Optimisation barrier: the identity, except that one arbitrary bit pattern
// gets its last bit flipped (a harmless 1-ulp change should it ever occur).
// Drivers may re-associate float arithmetic (lavapipe folds (a + b) - a to b),
// which would cancel the error-free transformations below; an integer round
// trip the compiler cannot see through keeps each rounding step separate.
fn wg_impl_opaque_${T}(x: ${T}) -> ${T} {
    let u = bitcast<${U}>(x);
    return bitcast<${T}>(u ^ ${U}(u == ${U}(0x2bad5eedu)));
}

// a + b = s + e exactly (Knuth's two-sum)
fn wg_impl_two_sum_${T}(a: ${T}, b: ${T}) -> vec2<${T}> {
    let s = wg_impl_opaque_${T}(a + b);
    let bb = wg_impl_opaque_${T}(s - a);
    let t = wg_impl_opaque_${T}(s - bb);
    return vec2<${T}>(s, wg_impl_opaque_${T}(a - t) + wg_impl_opaque_${T}(b - bb));
}

// a + b = s + e exactly; requires |a| >= |b| (or a == 0)
fn wg_impl_fast_two_sum_${T}(a: ${T}, b: ${T}) -> vec2<${T}> {
    let s = wg_impl_opaque_${T}(a + b);
    return vec2<${T}>(s, b - wg_impl_opaque_${T}(s - a));
}

// a = hi + lo with hi holding the upper 12 (f32) / 26 (f64) significand bits,
// cut by masking the bits
fn wg_impl_split_${T}(a: ${T}) -> vec2<${T}> {
    let k = (wg_impl_mant_bits_${T}() + 2u) / 2u;
    let hi = bitcast<${T}>(bitcast<${U}>(a) & ~((${U}(1) << k) - ${U}(1)));
    return vec2<${T}>(hi, a - hi);
}

// Dekker's product: a * b = p + e (exact for f32; for f64 e is within
// ~2^-106 |p|). Does not use fma: Vulkan allows fma to be unfused (lavapipe's
// is), which would make fma(a, b, -p) useless.
fn wg_impl_two_prod_${T}(a: ${T}, b: ${T}) -> vec2<${T}> {
    let p = wg_impl_opaque_${T}(a * b);
    let sa = wg_impl_split_${T}(a);
    let sb = wg_impl_split_${T}(b);
    var e = wg_impl_opaque_${T}(sa.x * sb.x - p);
    e = wg_impl_opaque_${T}(e + sa.x * sb.y);
    e = wg_impl_opaque_${T}(e + sa.y * sb.x);
    return vec2<${T}>(p, e + sa.y * sb.y);
}

// log2(x) as an unevaluated sum hi + lo (about twice the precision of T), for
// finite x > 0 (subnormals ok).
fn wg_impl_log2_dd_${T}(x: ${T}) -> vec2<${T}> {
    let is64 = wg_impl_is_f64_${T}();
    let mbits = wg_impl_mant_bits_${T}();
    let hidden = ${U}(1) << mbits;
    var xx = x;
    var e = 0;
    if (bitcast<${U}>(x) < hidden) {
        xx = x * ${T}(0x1p54);  // subnormal: make it normal
        e = -54;
    }
    // x = m * 2^e with m in [sqrt(1/2), sqrt(2)); the exponent is read from
    // the bits (frexp's exponent miscompiles for f64 on lavapipe/LLVM 15)
    let bits = bitcast<${U}>(xx);
    let bias = i32(wg_impl_exp_mask_${T}() >> (mbits + 1u));
    e = e + i32(bits >> mbits) - bias;
    var m = bitcast<${T}>((bits & (hidden - ${U}(1))) | bitcast<${U}>(${T}(1.0)));
    if (m > ${T}(1.4142135623730951)) {
        m = m * ${T}(0.5);
        e = e + 1;
    }
    // ln(m) = 2 atanh(s), s = (m - 1) / (m + 1) = sh + sl, |s| <= 0.1716
    let num = m - ${T}(1.0);  // exact
    let den = wg_impl_two_sum_${T}(m, ${T}(1.0));
    let sh = wg_divide_${T}(num, den.x);
    let q = wg_impl_two_prod_${T}(sh, den.x);
    let sl = wg_divide_${T}((wg_impl_opaque_${T}(num - q.x) - q.y) - sh * den.y, den.x);
    // ln(m) = 2s + (2/3) s^3 + (2/5) s^5 + ...; 2s and (2/3) s^3 are formed in
    // double length, the rest (< 1.3e-4 of the total) in plain T
    let zz = wg_impl_two_prod_${T}(sh, sh);
    let z = zz.x;
    let s3 = wg_impl_two_prod_${T}(sh, z);
    let s3l = s3.y + sh * zz.y + ${T}(3.0) * z * sl;
    let c23_hi = select(${T}(0.6666666865348816), ${T}(0.6666666666666666), is64);
    let c23_lo = select(${T}(-1.9868215517249155e-08), ${T}(3.700743415417188e-17), is64);
    let t1 = wg_impl_two_prod_${T}(s3.x, c23_hi);
    let t1l = t1.y + s3.x * c23_lo + s3l * c23_hi;
    var p = ${T}(0.09523809523809523);
    p = p * z + ${T}(0.10526315789473684);
    p = p * z + ${T}(0.11764705882352941);
    p = p * z + ${T}(0.13333333333333333);
    p = p * z + ${T}(0.15384615384615385);
    p = p * z + ${T}(0.18181818181818182);
    p = p * z + ${T}(0.2222222222222222);
    p = p * z + ${T}(0.2857142857142857);
    p = p * z + ${T}(0.4);
    let tail = s3.x * z * p;
    let lead = wg_impl_fast_two_sum_${T}(${T}(2.0) * sh, t1.x);
    let ln = wg_impl_fast_two_sum_${T}(lead.x, lead.y + (${T}(2.0) * sl + t1l + tail));
    // times 1/ln(2) = c_hi + c_lo, as a double-length product
    let c_hi = select(${T}(1.4426950216293335), ${T}(1.4426950408889634), is64);
    let c_lo = select(${T}(1.925963033500011e-08), ${T}(2.0355273740931033e-17), is64);
    let ph = wg_impl_two_prod_${T}(ln.x, c_hi);
    let pl = ph.y + (ln.x * c_lo + ln.y * c_hi);
    let s = wg_impl_two_sum_${T}(${T}(e), ph.x);
    return wg_impl_fast_two_sum_${T}(s.x, s.y + pl);
}

// Core of wg_pow: 2^(b * log2(x)) with a double-length log2 and product and
// a degree-13 polynomial for exp, for finite x > 0 and finite b.
fn wg_impl_pow_core_${T}(x: ${T}, b: ${T}) -> ${T} {
    let l = wg_impl_log2_dd_${T}(x);
    let yh = b * l.x;
    if (yh > ${T}(1100.0)) {
        return wg_impl_inf_${T}();
    }
    if (yh < ${T}(-1100.0)) {
        return ${T}(0.0);
    }
    let yl = wg_impl_two_prod_${T}(b, l.x).y + b * l.y;
    let n = wg_rint_${T}(yh);
    let rh = yh - n;  // exact
    let is64 = wg_impl_is_f64_${T}();
    let ln2_hi = select(${T}(0.6931471824645996), ${T}(0.6931471805599453), is64);
    let ln2_lo = select(${T}(-1.9046542121259336e-09), ${T}(2.3190468138462996e-17), is64);
    let t = wg_impl_two_prod_${T}(rh, ln2_hi);
    let th = t.x;
    let tl = t.y + (rh * ln2_lo + yl * ln2_hi);
    // expm1(th), |th| <= ~0.35, Taylor to degree 13
    let q = wg_impl_expm1_taylor_${T}(th);
    let p2 = th * th * q;
    // 2^(rh + yl) = exp(th + tl) ~= (1 + th) + p2 + tl * (1 + th + p2), with
    // 1 + th kept exact so the only sizeable rounding is the final addition
    let one_th = wg_impl_two_sum_${T}(${T}(1.0), th);
    let r = one_th.x + (one_th.y + (p2 + tl * (${T}(1.0) + (th + p2))));
    // scale by 2^n in two steps so the intermediate never overflows and a
    // subnormal result is rounded only once
    let ni = i32(n);
    let h = ni / 2;
    return ldexp(ldexp(r, h), ni - h);
}

// Shared special-case handling of wg_pow / wg_pow_fast (C99 pow rules).
fn wg_impl_pow_${T}(a: ${T}, b: ${T}, fast: bool) -> ${T} {
    let one = ${T}(1.0);
    if (wg_impl_is_zero_${T}(b) || bitcast<${U}>(a) == bitcast<${U}>(one)) {
        return one;
    }
    if (wg_isnan_${T}(a) || wg_isnan_${T}(b)) {
        return wg_impl_nan_${T}();
    }
    let inf = wg_impl_inf_${T}();
    let ax = wg_abs_${T}(a);
    let a_neg = wg_signbit_${T}(a);
    let b_neg = wg_signbit_${T}(b);
    if (wg_isinf_${T}(b)) {
        if (ax == one) {
            return one;
        }
        return select(${T}(0.0), inf, (ax > one) != b_neg);
    }
    let b_int = floor(b) == b;
    let b_half = b * ${T}(0.5);
    let b_odd = b_int && floor(b_half) != b_half;
    if (wg_impl_is_zero_${T}(a) || wg_isinf_${T}(a)) {
        // +-0 and +-inf: magnitude 0 or inf, sign kept for odd integer b
        let mag = select(${T}(0.0), inf, wg_isinf_${T}(a) != b_neg);
        return select(mag, -mag, a_neg && b_odd);
    }
    if (a_neg && !b_int) {
        return wg_impl_nan_${T}();
    }
    if (b == ${T}(1.0)) {
        return a;
    }
    if (b == ${T}(2.0)) {
        return a * a;  // correctly rounded square (numpy's x**2 fast path)
    }
    var r: ${T};
    if (fast && !wg_impl_is_f64_${T}()) {
        r = wg_impl_pow_fast_core_${T}(ax, b);
    } else {
        r = wg_impl_pow_core_${T}(ax, b);
    }
    return select(r, -r, a_neg && b_odd);
}

// np.power for floats. Special cases follow C99 pow exactly, as numpy does:
// pow(x, +-0) = 1 (even x = NaN), pow(1, y) = 1 (even y = NaN), other NaNs
// propagate; pow(-1, +-inf) = 1; |x| < 1 / > 1 with y = +-inf -> 0 or inf;
// pow(+-0, y) and pow(+-inf, y) -> 0 or inf, negative only for x = -0/-inf
// with odd integer y; x < 0 with finite non-integer y -> NaN; pow(x, 1) = x.
// pow(x, 2) is x*x (correctly rounded, what numpy's arr**2 gives; np.power's
// C pow can differ from it by 1 ulp, e.g. pow(0.1, 2) = 0.01 != 0.1*0.1).
// Otherwise |x|^y (negated for x < 0 and odd integer y) is 2^(y*log2|x|)
// computed with a software log2/exp2 in double-length T arithmetic (Dekker
// products, two-sums), not with the WGSL built-ins: Vulkan only promises an
// absolute 2^-21 error for f32 log2 near 1 (lavapipe gave 0.18 instead of 0.37
// for pow(0.99999994, 2^24)), and f64 exp2/log2 do not work at all
// (GLSL.std.450 Exp2/Log2 are 32-bit only; lavapipe returns garbage for f64).
// Not correctly rounded, but close: on lavapipe every result was within 1 ulp
// of numpy's (~96% of random f32 and ~99% of random f64 results bit-identical),
// subnormal results included. Needs round-to-nearest + - * / (it does not rely
// on fma, which Vulkan may leave unfused). Roughly 150 (f32) / 200 (f64) flops.
fn wg_pow_${T}(a: ${T}, b: ${T}) -> ${T} {
    return wg_impl_pow_${T}(a, b, false);
}

// np.power with the same special cases as wg_pow, but for T = f32 the core is
// just exp2(b * log2|a|) with the WGSL built-ins: several times cheaper and
// much less accurate, since the built-ins' error is amplified by |b|. Measured
// on lavapipe: ~10 ulp median, up to ~1300 ulp for results near 2^+-100, and
// far worse for |a| near 1 with large |b| (0.18 instead of 0.37 for
// pow(0.99999994, 2^24)). For T = f64 it is identical to wg_pow.
fn wg_pow_fast_${T}(a: ${T}, b: ${T}) -> ${T} {
    return wg_impl_pow_${T}(a, b, true);
}

// (e^th - 1 - th) / th^2 for |th| <= ~0.35: the Taylor polynomial to degree 13 (shared by pow and expm1/exp)
fn wg_impl_expm1_taylor_${T}(th: ${T}) -> ${T} {
    var q = ${T}(1.6059043836821613e-10);
    q = q * th + ${T}(2.08767569878681e-09);
    q = q * th + ${T}(2.505210838544172e-08);
    q = q * th + ${T}(2.755731922398589e-07);
    q = q * th + ${T}(2.7557319223985893e-06);
    q = q * th + ${T}(2.48015873015873e-05);
    q = q * th + ${T}(0.0001984126984126984);
    q = q * th + ${T}(0.001388888888888889);
    q = q * th + ${T}(0.008333333333333333);
    q = q * th + ${T}(0.041666666666666664);
    q = q * th + ${T}(0.16666666666666666);
    q = q * th + ${T}(0.5);
    return q;
}
