// wgarray: numpy-compatible unsigned integer helpers.
//
// Template variables (Python string.Template):
//   ${T}    : "u32" or "u64" (u64 needs the "shader-int64" device feature)
//   ${BITS} : the bit width of ${T}, 32 or 64
// Results are exact for the full-width type with wrap-around (narrower numpy
// uints stored widened must be wrapped back by the caller).
// No code path relies on WGSL's special rules for x / 0 or x % 0.

// np.floor_divide: b == 0 -> 0
fn wg_floordiv_${T}(a: ${T}, b: ${T}) -> ${T} {
    if (b == ${T}(0)) {
        return ${T}(0);
    }
    return a / b;
}

// np.remainder / np.mod: b == 0 -> 0
fn wg_remainder_${T}(a: ${T}, b: ${T}) -> ${T} {
    if (b == ${T}(0)) {
        return ${T}(0);
    }
    return a - (a / b) * b;  // not `%`: see numerics_sint.wgsl (a driver bug seen on NVIDIA)
}

// np.power: exponentiation by squaring with wrap-around; pow(x, 0) = 1
fn wg_pow_${T}(a: ${T}, b: ${T}) -> ${T} {
    return wg_pow_squaring_${T}(a, b);
}

// np.left_shift: counts >= BITS give 0
fn wg_lshift_${T}(a: ${T}, b: ${T}) -> ${T} {
    if (b >= ${T}(${BITS})) {
        return ${T}(0);
    }
    return a << u32(b);
}

// np.right_shift (logical): counts >= BITS give 0
fn wg_rshift_${T}(a: ${T}, b: ${T}) -> ${T} {
    if (b >= ${T}(${BITS})) {
        return ${T}(0);
    }
    return a >> u32(b);
}

// np.sign: 0 or 1
fn wg_sign_${T}(a: ${T}) -> ${T} {
    return select(${T}(0), ${T}(1), a != ${T}(0));
}

// np.abs: identity for unsigned types
fn wg_abs_${T}(a: ${T}) -> ${T} {
    return a;
}
