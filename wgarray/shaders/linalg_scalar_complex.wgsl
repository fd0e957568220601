// The element helpers of the linalg kernels for complex matrices (see linalg_scalar_real.wgsl): S = vec2<${T}>
// = (real, imag).  Products and quotients are the plain formulas (no numpy bit-compatibility is sought in the
// factorisations: contraction into fma only helps there); |a| and a / b scale by max(|re|, |im|) first, so they
// neither overflow nor underflow where the result is representable.
const SC_ZERO: vec2<${T}> = vec2<${T}>(${T}(0.0), ${T}(0.0));
const SC_ONE: vec2<${T}> = vec2<${T}>(${T}(1.0), ${T}(0.0));
fn sc_mul(a: vec2<${T}>, b: vec2<${T}>) -> vec2<${T}> {
    return vec2<${T}>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
fn sc_conj(a: vec2<${T}>) -> vec2<${T}> { return vec2<${T}>(a.x, -a.y); }
fn sc_re(a: vec2<${T}>) -> ${T} { return a.x; }
fn sc_im(a: vec2<${T}>) -> ${T} { return a.y; }
fn sc_from(r: ${T}) -> vec2<${T}> { return vec2<${T}>(r, ${T}(0.0)); }
fn sc_amax(a: vec2<${T}>) -> ${T} { return max(abs(a.x), abs(a.y)); }
fn sc_abs2(a: vec2<${T}>) -> ${T} { return a.x * a.x + a.y * a.y; }
fn sc_abs(a: vec2<${T}>) -> ${T} {
    let m = sc_amax(a);
    if (!(m > ${T}(0.0)) || m - m != ${T}(0.0)) {  // zero: 0; a NaN or inf part: NaN (the callers poison those)
        return m + abs(a.x - a.x) + abs(a.y - a.y);
    }
    let s = a / m;
    return m * sqrt(sc_abs2(s));
}
// a / b, b scaled by max(|re|, |im|) first (a / 0 is inf / NaN as the plain formula gives)
fn sc_div(a: vec2<${T}>, b: vec2<${T}>) -> vec2<${T}> {
    let m = sc_amax(b);
    if (!(m > ${T}(0.0))) {
        return vec2<${T}>(a.x / m, a.y / m);
    }
    let bs = b / m;
    return sc_mul(a, sc_conj(bs)) / (sc_abs2(bs) * m);
}
fn sc_offdiag(g: vec2<${T}>) -> ${T} { return sc_abs(g); }
fn sc_phase(g: vec2<${T}>, r: ${T}) -> vec2<${T}> {
    if (!(r > ${T}(0.0))) {
        return SC_ONE;
    }
    return g / r;
}
