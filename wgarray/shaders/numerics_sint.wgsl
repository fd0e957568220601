// wgarray: numpy-compatible signed integer helpers.
//
// Template variables (Python string.Template):
//   ${T}    : "i32" or "i64" (i64 needs the "shader-int64" device feature)
//   ${BITS} : the bit width of ${T}, 32 or 64
// Results are exact for the full-width type with two's complement wrap-around
// (narrower numpy ints stored widened must be wrapped back by the caller).
// No code path relies on WGSL's special rules for x / 0, x % 0 or INT_MIN / -1.
// numpy's floating point warnings (divide by zero, overflow) are not raised.

// np.floor_divide: rounds towards -inf; b == 0 -> 0; INT_MIN // -1 -> INT_MIN.
fn wg_floordiv_${T}(a: ${T}, b: ${T}) -> ${T} {
    if (b == ${T}(0)) {
        return ${T}(0);
    }
    if (b == ${T}(-1)) {
        return ${T}(0) - a;  // wraps for INT_MIN
    }
    let q = a / b;  // truncates
    let r = a - q * b;
    if (r != ${T}(0) && ((r < ${T}(0)) != (b < ${T}(0)))) {
        return q - ${T}(1);
    }
    return q;
}

// np.remainder / np.mod: result has the sign of b; b == 0 -> 0.
fn wg_remainder_${T}(a: ${T}, b: ${T}) -> ${T} {
    if (b == ${T}(0) || b == ${T}(-1)) {
        return ${T}(0);
    }
    // a - (a / b) * b rather than WGSL's `%`: NVIDIA's Vulkan driver was seen returning `a` for `a % b` with a
    // negative b (uniform divisor), while signed `/` is right.
    let r = a - (a / b) * b;
    if (r != ${T}(0) && ((r < ${T}(0)) != (b < ${T}(0)))) {
        return r + b;
    }
    return r;
}

// np.power: exponentiation by squaring with wrap-around; pow(x, 0) = 1.
// Deviation: numpy raises ValueError for any negative exponent. Here a
// negative exponent gives the mathematically exact integer where one exists
// (1 for base 1, +-1 for base -1) and 0 for every other base.
fn wg_pow_${T}(a: ${T}, b: ${T}) -> ${T} {
    if (b < ${T}(0)) {
        if (a == ${T}(1)) {
            return ${T}(1);
        }
        if (a == ${T}(-1)) {
            return select(${T}(1), ${T}(-1), (b & ${T}(1)) != ${T}(0));
        }
        return ${T}(0);
    }
    return wg_pow_squaring_${T}(a, b);
}

// np.left_shift: counts outside [0, BITS) (negative counts included) give 0.
fn wg_lshift_${T}(a: ${T}, b: ${T}) -> ${T} {
    if (b < ${T}(0) || b >= ${T}(${BITS})) {
        return ${T}(0);
    }
    return a << u32(b);
}

// np.right_shift (arithmetic): counts outside [0, BITS) give 0 for a >= 0 and
// -1 for a < 0.
fn wg_rshift_${T}(a: ${T}, b: ${T}) -> ${T} {
    if (b < ${T}(0) || b >= ${T}(${BITS})) {
        return select(${T}(0), ${T}(-1), a < ${T}(0));
    }
    return a >> u32(b);
}

// np.sign: -1, 0 or 1
fn wg_sign_${T}(a: ${T}) -> ${T} {
    return select(select(${T}(0), ${T}(-1), a < ${T}(0)), ${T}(1), a > ${T}(0));
}

// np.abs: abs(INT_MIN) == INT_MIN (wraps), like numpy
fn wg_abs_${T}(a: ${T}) -> ${T} {
    return select(a, ${T}(0) - a, a < ${T}(0));
}
