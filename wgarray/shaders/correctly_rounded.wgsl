// Division and square root as the kernels call them: correctly rounded for f32 on every adapter (WGSL's builtins
// may be off by an ulp or two, as on NVIDIA's Vulkan driver), the builtins for f64.
fn wg_divide_${T}(x: ${T}, y: ${T}) -> ${T} {
    return ${DIV};
}

fn wg_sqrtcr_${T}(x: ${T}) -> ${T} {
    return ${SQRT};
}
