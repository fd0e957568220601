// a * b + c rounded once, for the "fma" normal variant (random_f32_variants.wgsl) on a device whose WGSL fma is
// fused (kernels/random.py probes it): the native instruction.
fn wg_rv_fma(a: f32, b: f32, c: f32, nc: u32) -> f32 {
    return fma(a, b, c);
}
