// Shared by the fft kernels: the complex product (the plain formula; the transforms need no special cases).
fn cmul(a: vec2<${T}>, b: vec2<${T}>) -> vec2<${T}> {
    return vec2<${T}>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
