// Twiddle factors of the FFT, computed on the device: out[j] = exp(-2 pi i m / L) for j < count, with
// m = (j * mul) mod L (mode 0: the roots of unity of a transform of length L) or m = j^2 mod L (mode 1: the chirp
// exp(-pi i j^2 / n) of Bluestein's algorithm, L = 2n).  The exponent is kept exact in integers: m is reduced to
// a quadrant q and a remainder |r| <= L/2, so the angle (pi/2) r/L that reaches the software sin/cos kernels of
// math_float.wgsl is at most pi/4 and carries one rounding (of r/L) plus the double-length product by pi/2.
// No host numerics: the host passes integers only.
${HELPERS}

struct Params {
    count: u32,
    L: u32,
    mode: u32,
    mul: u32,
}

${BINDINGS}

// (a * b) mod m without overflow (m < 2^31), by doubling
fn mulmod(a: u32, b: u32, m: u32) -> u32 {
    var r = 0u;
    var x = a % m;
    var y = b;
    loop {
        if (y == 0u) {
            break;
        }
        if ((y & 1u) == 1u) {
            r = r + x;
            if (r >= m) {
                r = r - m;
            }
        }
        x = x + x;
        if (x >= m) {
            x = x - m;
        }
        y = y >> 1u;
    }
    return r;
}

${ENTRY}
    let j = thread_index;
    if (j >= p.count) {
        return;
    }
    var m: u32;
    if (p.mode == 0u) {
        m = mulmod(j, p.mul, p.L);
    } else {
        m = mulmod(j, j, p.L);
    }
    // 2 pi m / L = q pi/2 + (pi/2) (r / L), |r| <= L/2 (L <= 2^30, so 4m fits)
    let m4 = 4u * m;
    var q = m4 / p.L;
    var r = i32(m4 - q * p.L);
    if (2u * u32(r) > p.L) {
        q = q + 1u;
        r = r - i32(p.L);
    }
    q = q & 3u;
    let t = ${T}(r) / ${T}(p.L);
    let a = wg_impl_two_prod_${T}(t, ${T}(${PIO2_HI}));
    let h = wg_impl_fast_two_sum_${T}(a.x, a.y + t * ${T}(${PIO2_LO}));
    let s = wg_impl_sin_kernel_${T}(h.x, h.y);
    let c = wg_impl_cos_kernel_${T}(h.x, h.y);
    var cs: vec2<${T}>;  // (cos, sin) of the whole angle
    switch q {
        case 0u: { cs = vec2<${T}>(c, s); }
        case 1u: { cs = vec2<${T}>(-s, c); }
        case 2u: { cs = vec2<${T}>(-c, -s); }
        default: { cs = vec2<${T}>(s, -c); }
    }
    out[j] = vec2<${T}>(cs.x, -cs.y);
}
