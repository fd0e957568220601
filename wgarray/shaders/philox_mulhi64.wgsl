// Philox's mulhi in kernels with 64-bit integers (shader-int64): the high word of the native 64-bit product,
// which a GPU compiler turns into one wide multiply (philox_mulhi32.wgsl needs four multiplies and a dozen
// adds and shifts).  The same exact value.  Helper-file rules: only functions.
fn wg_philox_mulhi(a: u32, b: u32) -> u32 {
    return u32((u64(a) * u64(b)) >> 32u);
}
