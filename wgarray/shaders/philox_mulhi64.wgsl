// Philox's multiplies in kernels with 64-bit integers (shader-int64): the native 64-bit product, which a GPU
// compiler turns into one wide multiply (philox_mulhi32.wgsl needs four multiplies and a dozen adds and shifts).
// The same exact values.  Helper-file rules: only functions.
fn wg_philox_mulhi(a: u32, b: u32) -> u32 {
    return u32((u64(a) * u64(b)) >> 32u);
}

// (low, high) words of a * b from one product: a Philox round needs both.
fn wg_philox_mulwide(a: u32, b: u32) -> vec2<u32> {
    let p = u64(a) * u64(b);
    return vec2<u32>(u32(p), u32(p >> 32u));
}
