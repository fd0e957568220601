// Division and square root as the kernels call them: correctly rounded for f32 on every adapter (WGSL's builtins
// may be off by an ulp or two, as on NVIDIA's Vulkan driver), the builtins for f64.  wg_sqrt1 is the square root the
// factorisations take (a pivot's, where a result within an ulp is as good): f32 the builtin with one Newton step on
// its fma residual on normal values below 3e38 (elsewhere the builtin: 0, subnormals a flushing device reads as 0,
// the largest values, inf, negative), a few instructions where wg_sqrtcr's
// integer code loops and branches; f64 wg_sqrtcr.
fn wg_divide_${T}(x: ${T}, y: ${T}) -> ${T} {
    return ${DIV};
}

fn wg_sqrtcr_${T}(x: ${T}) -> ${T} {
    return ${SQRT};
}

fn wg_sqrt1_${T}(x: ${T}) -> ${T} {
    return ${SQRT1};
}
