// A 16-bit sort key for float16 (held in f32, every value exactly representable in f16): the order-preserving
// map of sortkey32.wgsl applied to the binary16 bits, so that a float16 sort needs two 8-bit radix passes, not
// four (NaNs last and equal, -0.0 equal to 0.0).
fn wg_key16_f16(v: f32) -> u32 {
    let h = pack2x16float(vec2<f32>(v, 0.0)) & 0xffffu;
    let a = h & 0x7fffu;
    if (a > 0x7c00u) {
        return 0xffffu;  // NaN: last
    }
    if (a == 0u) {
        return 0x8000u;  // -0.0 and 0.0
    }
    return select(h | 0x8000u, (~h) & 0xffffu, (h & 0x8000u) != 0u);
}
