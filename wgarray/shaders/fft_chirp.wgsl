// Bluestein's algorithm (chirp z): a transform of any length n as a cyclic convolution of power-of-two length
// M >= 2n - 1.  With the chirp c_j = exp(-pi i j^2 / n) (conjugated for the inverse; computed on the device by
// fft_twiddle.wgsl's mode 1), X_k = c_k sum_j (x_j c_j) conj(c_(k-j)):
//   pre:    a_j = x_j c_j (j < n), 0 (n <= j < M)          [rows of the input -> rows of length M]
//   kernel: b_j = conj c_j (j < n), conj c_(M-j) (j > M - n), 0 between   [once per (n, dtype, direction)]
//   mul:    A_j B_j, the spectra's product (B = fft_M(b), cached; broadcast over rows)
//   post:   X_k = c_k conv_k * scale (k < n; scale holds 1/M and the norm factor)
struct Params {
    rows: u32,
    n: u32,
    M: u32,
    pad0: u32,
    scale: ${T},
}

${BINDINGS}

${COMMON}

fn chirp(j: u32) -> vec2<${T}> {
    let c = aux[j];
    return vec2<${T}>(c.x, ${SIGN}c.y);
}

fn pre(t: u32) {
    if (t >= p.rows * p.M) {
        return;
    }
    let row = t / p.M;
    let j = t - row * p.M;
    var v = vec2<${T}>(${T}(0.0), ${T}(0.0));
    if (j < p.n) {
        v = cmul(src[row * p.n + j], chirp(j));
    }
    dst[t] = v;
}

fn kernel(j: u32) {
    if (j >= p.M) {
        return;
    }
    var v = vec2<${T}>(${T}(0.0), ${T}(0.0));
    if (j < p.n) {
        v = chirp(j);
    } else if (j > p.M - p.n) {
        v = chirp(p.M - j);
    }
    dst[j] = vec2<${T}>(v.x, -v.y);
}

fn mul(t: u32) {
    if (t >= p.rows * p.M) {
        return;
    }
    dst[t] = cmul(src[t], aux[t % p.M]);
}

fn post(t: u32) {
    if (t >= p.rows * p.n) {
        return;
    }
    let row = t / p.n;
    let k = t - row * p.n;
    dst[t] = cmul(src[row * p.M + k], chirp(k)) * p.scale;
}

${ENTRY}
    ${MODE}(thread_index);
}
