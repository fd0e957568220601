// Philox's multiplies where the kernel has no 64-bit integers: the exact 32 x 32 -> 64 product from 16-bit halves
// (numerics_exact.wgsl's helper, always among the helpers).  Helper-file rules: only functions.
fn wg_philox_mulhi(a: u32, b: u32) -> u32 {
    return wg_exact_impl_mul_u32(a, b).y;
}

// (low, high) words of a * b.
fn wg_philox_mulwide(a: u32, b: u32) -> vec2<u32> {
    return wg_exact_impl_mul_u32(a, b);
}
