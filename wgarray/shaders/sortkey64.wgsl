// Order-preserving maps from 64-bit storage values to u64 sort keys (see sortkey32.wgsl).
fn wg_key_f64(v: f64) -> u64 {
    let b = bitcast<u64>(v);
    let sign = u64(1u) << 63u;
    let a = b & ~sign;
    if (a > (u64(0x7ff00000u) << 32u)) {
        return ~u64(0u);  // NaN: last
    }
    if (a == u64(0u)) {
        return sign;  // -0.0 and 0.0
    }
    return select(b | sign, ~b, (b & sign) != u64(0u));
}

fn wg_key_i64(v: i64) -> u64 {
    return bitcast<u64>(v) ^ (u64(1u) << 63u);
}

fn wg_key_u64(v: u64) -> u64 {
    return v;
}
