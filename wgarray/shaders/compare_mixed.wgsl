// wgarray: exact comparison of an integer with a float (issue 11: no rounding of either side).
//
// Template variables (Python string.Template):
//   ${I}     : the integer compute type, "i32", "u32", "i64" or "u64"
//   ${F}     : the float compute type, "f32" or "f64"
//   ${LO}    : the least ${I} value, as a float literal (a power of two or zero: exact in ${F})
//   ${HI}    : one past the greatest ${I} value (a power of two: exact in ${F})
//   ${TOINT} : converts fl (a whole ${F} in [LO, HI)) to ${I} exactly
// The result is the order of i relative to f: -1 (i < f), 0 (equal), 1 (i > f), 2 (f is NaN: unordered).
// Nothing is converted inexactly: a float beyond the integer range orders against every integer, and inside it
// floor(f) is a whole number that the integer type holds exactly, so the integer comparison with floor(f)
// (and whether f is whole) decides.  -0.0 floors to 0 and equals the integer 0.

fn wg_cmp_${I}_${F}(i: ${I}, f: ${F}) -> i32 {
    if (wg_isnan_${F}(f)) {
        return 2;
    }
    if (f >= ${F}(${HI})) {
        return -1;
    }
    if (f < ${F}(${LO})) {
        return 1;
    }
    let fl = floor(f);
    let k = ${TOINT};
    if (i < k) {
        return -1;
    }
    if (i > k) {
        return 1;
    }
    return select(-1, 0, fl == f);
}

// the same order with the float first: -1 (f < i), 0, 1 (f > i), 2 (NaN)
fn wg_cmp_${F}_${I}(f: ${F}, i: ${I}) -> i32 {
    let r = wg_cmp_${I}_${F}(i, f);
    return select(-r, r, r == 2);
}
