// The real transforms' twiddle kernels around a half-length complex transform (a real row x of even length
// n = 2h is the complex row z_j = x_2j + i x_2j+1 of length h: the same bytes).
//   rpost (rfft): Z = fft_h(z) -> X_k = E_k + w^k O_k, k = 0..h, where E_k = (Z_k + conj Z_(h-k)) / 2 and
//                 O_k = (Z_k - conj Z_(h-k)) / 2i are the transforms of the even and odd samples, w = e^(-2 pi i/n).
//   rpre (irfft): X_0..X_h -> Z_k = E_k + i O_k with E_k = X_k + conj X_(h-k), O_k = (X_k - conj X_(h-k)) w^-k
//                 (twice the half-transforms; the following inverse transform of length h carries the norm
//                 factor of length n), after which z_j holds x_2j + i x_2j+1.  The imaginary parts of X_0 and X_h
//                 are ignored, as pocketfft's c2r does.
//   herm (irfft, odd n): X_0..X_(n-1)/2 -> the full Hermitian row Y_k = X_k, Y_(n-k) = conj X_k (Im X_0 dropped)
//                 for a complex inverse transform of length n.
// The twiddles w^k come from the device-computed table of length n.
struct Params {
    rows: u32,
    h: u32,
    n: u32,
    pad0: u32,
    scale: ${T},
}

${BINDINGS}

${COMMON}

fn conj(a: vec2<${T}>) -> vec2<${T}> {
    return vec2<${T}>(a.x, -a.y);
}

fn rpost(t: u32) {
    let h = p.h;
    if (t >= p.rows * (h + 1u)) {
        return;
    }
    let row = t / (h + 1u);
    let k = t - row * (h + 1u);
    let zk = src[row * h + k % h];
    let zc = conj(src[row * h + (h - k) % h]);
    let e = (zk + zc) * ${T}(0.5);
    let d = (zk - zc) * ${T}(0.5);
    let o = vec2<${T}>(d.y, -d.x);  // d / i
    dst[t] = (e + cmul(table[k], o)) * p.scale;
}

fn rpre(t: u32) {
    let h = p.h;
    if (t >= p.rows * h) {
        return;
    }
    let row = t / h;
    let k = t - row * h;
    var xk = src[row * (h + 1u) + k];
    var xc = conj(src[row * (h + 1u) + h - k]);
    if (k == 0u) {
        xk.y = ${T}(0.0);
        xc.y = ${T}(0.0);
    }
    let e = xk + xc;
    let o = cmul(xk - xc, conj(table[k]));
    dst[t] = e + vec2<${T}>(-o.y, o.x);
}

fn herm(t: u32) {
    let n = p.n;
    let hx = p.h;  // stored coefficients a row: n / 2 + 1
    if (t >= p.rows * n) {
        return;
    }
    let row = t / n;
    let k = t - row * n;
    var v: vec2<${T}>;
    if (k < hx) {
        v = src[row * hx + k];
        if (k == 0u) {
            v.y = ${T}(0.0);
        }
    } else {
        v = conj(src[row * hx + n - k]);
    }
    dst[t] = v;
}

${ENTRY}
    ${MODE}(thread_index);
}
