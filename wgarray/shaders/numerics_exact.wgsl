// wgarray: correctly rounded f32 division and square root (IEEE 754 binary32,
// round to nearest, ties to even), bit for bit equal to numpy's
// np.float32(x) / np.float32(y) and np.sqrt(np.float32(x)).
//
// No template variables; f32 only; needs no adapter feature (no f64, no i64).
//
// Why: Vulkan allows 2.5 ulp for f32 division and defines sqrt's precision as
// that of 1.0 / inverseSqrt(x), and real drivers use it (an H200 was measured
// up to 2 ulp off in x / y and 1 ulp off in sqrt). The builtin result is taken
// as a first guess only.
//
// Method: the decision is made entirely with exact integer arithmetic on the
// significands (u32 only; the products of up to 26 x 26 bits are formed by an
// emulated 32 x 32 -> 64-bit multiply from 16-bit halves). The float guess is
// converted to an integer candidate significand; its exact remainder is
// computed and the candidate corrected until the remainder proves it to be the
// truncated quotient / square root; the rounding bit is then decided from the
// exact remainder. If the guess is too far off for the fast correction (NaN,
// 0 from a flush-to-zero unit, a wrong binade, ...), an exact digit-by-digit
// integer loop (24 steps) computes the same quantities from scratch.
//
// Consequences:
//  * The result is exact for EVERY guess; a guess within a few ulp only makes
//    it fast (no loop). There is no "subnormal results aside": subnormal
//    inputs and subnormal quotients (including ties in the subnormal range),
//    overflow to +-inf and underflow to +-0 are all correctly rounded.
//  * No float arithmetic is used after the guess, so nothing depends on fma
//    being fused (Vulkan lets fma be a separate multiply and add), on fast-math
//    reassociation, or on subnormals being preserved by the float units: the
//    result is assembled with bitcast<f32>(bits).
//  * NaN results are quiet NaNs (a NaN operand is returned with its quiet bit
//    set; invalid operations give 0x7fc00000); numpy may differ in payload or
//    sign of NaNs only.
//
// Cost: on an NVIDIA H200 (Vulkan; its builtins seem to flush subnormals) the
// builtin guess takes the fast path for every normal operand and result
// (|y| <= 2^126); subnormal operands or results and |y| > 2^126 take the exact
// 24-step loop, still bit-exact.
//
// Names containing "_impl_" are internal. Tested bit for bit against numpy by
// tests/test_exact_numerics.py: on lavapipe (whose builtins happen to be
// exact) with deliberately wrong guesses, and on the H200 as well.

// ---- 64-bit helpers on vec2<u32>(lo, hi) ------------------------------------

// Exact 32 x 32 -> 64-bit unsigned product. Each 16 x 16-bit partial product
// is < 2^32; `mid` collects three values < 2^16 each, so it is < 3 * 2^16 and
// cannot overflow; the high word cannot overflow because the full product is
// < 2^64.
fn wg_exact_impl_mul_u32(a: u32, b: u32) -> vec2<u32> {
    let a0 = a & 0xffffu;
    let a1 = a >> 16u;
    let b0 = b & 0xffffu;
    let b1 = b >> 16u;
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
    let lo = (p00 & 0xffffu) | (mid << 16u);
    let hi = p11 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u);
    return vec2<u32>(lo, hi);
}

// a - b modulo 2^64 (two's complement); the caller checks the range.
fn wg_exact_impl_sub_u64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let lo = a.x - b.x;
    let borrow = select(0u, 1u, a.x < b.x);
    return vec2<u32>(lo, a.y - b.y - borrow);
}

// True when the two's-complement 64-bit value d lies in [-2^30, 2^30), so that
// it is exactly bitcast<i32>(d.x) and small steps on it cannot overflow i32.
fn wg_exact_impl_fits_i31(d: vec2<u32>) -> bool {
    let s = bitcast<i32>(d.x);
    return (d.y == 0u && s >= 0 && s < 0x40000000)
        || (d.y == 0xffffffffu && s < 0 && s >= -0x40000000);
}

// u << s for a value u < 2^25 and 0 <= s <= 24, as 64 bits (< 2^49). (A shift count of
// 32 would be taken mod 32 in WGSL, hence the select.)
fn wg_exact_impl_shl_u64(u: u32, s: u32) -> vec2<u32> {
    return vec2<u32>(u << s, select(u >> (32u - s), 0u, s == 0u));
}

fn wg_exact_impl_f32(bits: u32) -> f32 {
    return bitcast<f32>(bits);  // a call, so never constant-folded to NaN/inf
}

// Integer candidate from a float guess g, in units of 2^(ue - 150) where ue
// is the (>= 1) biased exponent of the binade of the exact result (for
// subnormal results ue = 1 and the unit is 2^-149). Only the magnitude of g
// is used. Returns 0xffffffff when g is not in the binade ue or a neighbour
// (or is NaN): then the caller falls back to the exact loop. A candidate
// is only a guess: every use of it is verified exactly. An infinite guess
// counts as 2^128 (a builtin may round a result near the largest float up to
// inf).
fn wg_exact_impl_candidate(g: f32, ue: u32) -> u32 {
    let a = bitcast<u32>(g) & 0x7fffffffu;
    let bq = a >> 23u;
    if (a > 0x7f800000u) {
        return 0xffffffffu;  // NaN
    }
    let mq = (a & 0x007fffffu) | select(0u, 0x00800000u, bq != 0u);
    // subnormals share the unit 2^-149 with the first normal binade
    let bqe = max(bq, 1u);
    if (bqe == ue) {
        return mq;
    }
    if (bqe == ue + 1u) {
        return mq << 1u;  // < 2^25
    }
    if (bqe + 1u == ue) {
        return mq >> 1u;  // off by at most one more unit
    }
    return 0xffffffffu;
}

// Splits a finite nonzero |x| (bits a, sign cleared) into m * 2^(e - 23) with
// m in [2^23, 2^24): vec2(m, e) with e as i32 bits; subnormals are normalised
// exactly by a shift (e down to -149).
fn wg_exact_impl_split(a: u32) -> vec2<i32> {
    let be = a >> 23u;
    if (be != 0u) {
        return vec2<i32>(i32((a & 0x007fffffu) | 0x00800000u), i32(be) - 127);
    }
    let s = countLeadingZeros(a) - 8u;  // >= 1 since a < 2^23
    return vec2<i32>(i32(a << s), -126 - i32(s));
}

// ---- division ---------------------------------------------------------------

// Correctly rounded x / y given a guess q0 of it. Exact for every q0 (see the
// header); fast when q0 is within a few (up to ~60) ulp of the true quotient.
fn wg_div_fix_f32(x: f32, y: f32, q0: f32) -> f32 {
    let ux = bitcast<u32>(x);
    let uy = bitcast<u32>(y);
    let ax = ux & 0x7fffffffu;
    let ay = uy & 0x7fffffffu;
    let sign = (ux ^ uy) & 0x80000000u;
    // NaN operands propagate (made quiet)
    if (ax > 0x7f800000u) {
        return wg_exact_impl_f32(ux | 0x00400000u);
    }
    if (ay > 0x7f800000u) {
        return wg_exact_impl_f32(uy | 0x00400000u);
    }
    if (ax == 0x7f800000u) {
        if (ay == 0x7f800000u) {
            return wg_exact_impl_f32(0x7fc00000u);  // inf / inf
        }
        return wg_exact_impl_f32(sign | 0x7f800000u);  // inf / finite (also / 0)
    }
    if (ay == 0x7f800000u) {
        return wg_exact_impl_f32(sign);  // finite / inf = signed zero
    }
    if (ay == 0u) {
        if (ax == 0u) {
            return wg_exact_impl_f32(0x7fc00000u);  // 0 / 0
        }
        return wg_exact_impl_f32(sign | 0x7f800000u);  // x / 0
    }
    if (ax == 0u) {
        return wg_exact_impl_f32(sign);  // 0 / y
    }

    // |x| = mx * 2^(ex-23), |y| = my * 2^(ey-23), mx, my in [2^23, 2^24)
    let sx = wg_exact_impl_split(ax);
    let sy = wg_exact_impl_split(ay);
    var mx = u32(sx.x);
    let my = u32(sy.x);
    var e = sx.y - sy.y;
    if (mx < my) {
        mx = mx << 1u;  // < 2^25
        e = e - 1;
    }
    // now |x/y| = r * 2^e exactly, with r = mx / my in [1, 2)
    if (e >= 128) {
        return wg_exact_impl_f32(sign | 0x7f800000u);  // >= 2^128: overflow
    }
    // d = how far the result is pushed below the normal range
    let d = max(-126 - e, 0);
    if (d >= 25) {
        return wg_exact_impl_f32(sign);  // < 2^-150: rounds to zero
    }
    if (d == 24) {
        // |x/y| in [2^-150, 2^-149): 2^-150 itself is a tie -> even (zero)
        return wg_exact_impl_f32(sign | select(0u, 1u, mx > my));
    }
    // The result is round(N / my) units of 2^(ue-150) with N = mx * 2^k:
    // k = 23 for normal results (ue = e + 127), fewer bits for subnormal ones
    // (ue = 1, unit 2^-149). N < 2^48; no double rounding since N is exact.
    let k = u32(23 - d);
    let ue = u32(max(e, -126) + 127);
    let n = wg_exact_impl_shl_u64(mx, k);

    var t = 0u;   // floor(N / my)
    var rem = 0u; // N - t * my, in [0, my)
    var done = false;
    let c = wg_exact_impl_candidate(q0, ue);
    if (c != 0xffffffffu) {
        // exact remainder of the candidate; when it is small (|c - t| < 64)
        // one exact i32 floor division by my finds t
        let diff = wg_exact_impl_sub_u64(n, wg_exact_impl_mul_u32(c, my));
        if (wg_exact_impl_fits_i31(diff)) {
            let r = bitcast<i32>(diff.x);
            let myi = i32(my);
            var qd = r / myi;      // truncates towards zero
            var rr = r - qd * myi; // |rr| < my, sign of r
            if (rr < 0) {
                qd = qd - 1;
                rr = rr + myi;
            }
            // N = (c + qd) * my + rr with 0 <= rr < my: exact floor and remainder
            t = u32(i32(c) + qd);
            rem = u32(rr);
            done = true;
        }
    }
    if (!done) {
        // exact restoring long division: N / my with N = mx << k;
        // mx / my has integer part 1; rem stays < my < 2^24, so 2 * rem fits
        t = 1u;
        rem = mx - my;
        for (var i = 0u; i < k; i = i + 1u) {
            rem = rem << 1u;
            t = t << 1u;
            if (rem >= my) {
                rem = rem - my;
                t = t | 1u;
            }
        }
    }
    // round to nearest, ties to even: compare the remainder with my / 2
    // exactly (2 * rem < 2^25)
    let twice = rem << 1u;
    if (twice > my || (twice == my && (t & 1u) == 1u)) {
        t = t + 1u;
    }
    // normal: bits = ue << 23 + (t - 2^23); subnormal (ue = 1): bits = t. A
    // carry t = 2^24 (or 2^23 from a subnormal) moves into the next binade,
    // up to 0x7f800000 = inf for results that round past the largest float.
    return wg_exact_impl_f32(sign | (((ue - 1u) << 23u) + t));
}

fn wg_div_f32(x: f32, y: f32) -> f32 {
    return wg_div_fix_f32(x, y, x / y);
}

// ---- square root ------------------------------------------------------------

// Correctly rounded sqrt(x) given a guess s0 of it. Exact for every s0;
// fast when s0 is within a few (up to 8) ulp.
fn wg_sqrt_fix_f32(x: f32, s0: f32) -> f32 {
    let ux = bitcast<u32>(x);
    let ax = ux & 0x7fffffffu;
    if (ax > 0x7f800000u) {
        return wg_exact_impl_f32(ux | 0x00400000u);  // NaN
    }
    if (ax == 0u) {
        return x;  // sqrt(+-0) = +-0
    }
    if (ux >= 0x80000000u) {
        return wg_exact_impl_f32(0x7fc00000u);  // x < 0 (including -inf)
    }
    if (ax == 0x7f800000u) {
        return x;  // +inf
    }
    // x = m * 2^(ex-23), m in [2^23, 2^24), ex in [-149, 127]
    let sx = wg_exact_impl_split(ax);
    let m = u32(sx.x);
    let ex = sx.y;
    // sqrt(x) = sqrt(M) * 2^(f-23) with f = floor(ex / 2) (arithmetic shift)
    // and the integer M = m * 2^(23 + ex - 2f) in [2^46, 2^48): the result
    // lies in the normal binade [2^f, 2^(f+1)) (sqrt of the smallest
    // subnormal is 2^-74.5), and its significand is round(sqrt(M)) in
    // [2^23, 2^24].
    let f = ex >> 1u;
    let odd = u32(ex - 2 * f);  // 0 or 1
    let mm = wg_exact_impl_shl_u64(m, 23u + odd);
    let ue = u32(f + 127);

    var t = 0u;   // floor(sqrt(M))
    var rem = 0u; // M - t^2, in [0, 2t]
    var done = false;
    let c0 = wg_exact_impl_candidate(s0, ue);
    if (c0 != 0xffffffffu) {
        let diff = wg_exact_impl_sub_u64(mm, wg_exact_impl_mul_u32(c0, c0));
        if (wg_exact_impl_fits_i31(diff)) {
            // R = M - c^2 exactly; step c by one while R proves it wrong:
            // (c-1)^2 = c^2 - (2c - 1), (c+1)^2 = c^2 + (2c + 1). |R| < 2^30
            // and every step moves R towards [0, 2c], so no overflow.
            var c = i32(c0);
            var r = bitcast<i32>(diff.x);
            for (var i = 0; i < 8; i = i + 1) {
                if (r < 0) {
                    r = r + (2 * c - 1);
                    c = c - 1;
                } else if (r > 2 * c) {
                    r = r - (2 * c + 1);
                    c = c + 1;
                } else {
                    break;
                }
            }
            if (r >= 0 && r <= 2 * c) {
                // c^2 <= M < (c+1)^2
                t = u32(c);
                rem = u32(r);
                done = true;
            }
        }
    }
    if (!done) {
        // exact digit-by-digit integer square root of the 48-bit M, two bits
        // per step from the top; rem <= 2 * t < 2^25, so 4 * rem + 3 fits
        for (var i = 0u; i < 24u; i = i + 1u) {
            let p = 46u - 2u * i;
            var pair = 0u;
            if (p >= 32u) {
                pair = (mm.y >> (p - 32u)) & 3u;
            } else {
                pair = (mm.x >> p) & 3u;
            }
            rem = (rem << 2u) | pair;
            let trial = (t << 2u) | 1u;
            if (rem >= trial) {
                rem = rem - trial;
                t = (t << 1u) | 1u;
            } else {
                t = t << 1u;
            }
        }
    }
    // round to nearest: sqrt(M) > t + 1/2 <=> M > t^2 + t + 1/4 <=> (M integer)
    // M - t^2 > t. Never a tie: M cannot equal t^2 + t + 1/4.
    if (rem > t) {
        t = t + 1u;
    }
    // result = t * 2^(f-23), normal; t = 2^24 carries into the next binade
    return wg_exact_impl_f32(((ue - 1u) << 23u) + t);
}

fn wg_sqrt_f32(x: f32) -> f32 {
    return wg_sqrt_fix_f32(x, sqrt(x));
}
