// Order-preserving maps from 32-bit storage values to u32 sort keys: the unsigned order of the keys is the
// order of the values, with every NaN equal to every other NaN and after +inf, and -0.0 equal to 0.0.
fn wg_key_f32(v: f32) -> u32 {
    let b = bitcast<u32>(v);
    let a = b & 0x7fffffffu;
    if (a > 0x7f800000u) {
        return 0xffffffffu;  // NaN: last
    }
    if (a == 0u) {
        return 0x80000000u;  // -0.0 and 0.0
    }
    return select(b | 0x80000000u, ~b, (b & 0x80000000u) != 0u);
}

fn wg_key_i32(v: i32) -> u32 {
    return bitcast<u32>(v) ^ 0x80000000u;
}

fn wg_key_u32(v: u32) -> u32 {
    return v;
}
