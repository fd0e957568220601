// a * b + c rounded once, for the "fma" normal variant (random_f32_variants.wgsl) on a device whose WGSL fma is not
// fused (kernels/random.py probes it; lavapipe's): emulated with basic operations, the same bits as a fused fma
// (no overflow or underflow in the transforms' arguments).  Boldo & Melquiond's emulated FMA ("Emulation of FMA
// and correctly rounded sums: proved algorithms using rounding to odd", IEEE TC 2008): a b = ph + pl exactly
// (Dekker's product, Veltkamp's split by 4097), c + ph = th + tl exactly (Knuth's two-sum), v = tl + pl rounded
// to odd (two-sum, then an inexact even result moved one ulp toward the error), result th + v.  Every product
// that feeds a sum is kept opaque with nc (wg_rand_keep_f32) so that no driver contracts it; so are the arguments
// (a caller's product, inlined, would otherwise be contracted into the sums here) and the sums that the error terms
// subtract again (lavapipe's compiler simplified (c + p) - c to p: a two-sum's error became 0).
fn wg_rv_fma(a0: f32, b0: f32, c0: f32, nc: u32) -> f32 {
    let a = wg_rand_keep_f32(a0, nc);
    let b = wg_rand_keep_f32(b0, nc);
    let c = wg_rand_keep_f32(c0, nc);
    let ga = wg_rand_keep_f32(4097.0 * a, nc);
    let ah = ga - wg_rand_keep_f32(ga - a, nc);
    let al = a - ah;
    let gb = wg_rand_keep_f32(4097.0 * b, nc);
    let bh = gb - wg_rand_keep_f32(gb - b, nc);
    let bl = b - bh;
    let ph = wg_rand_keep_f32(a * b, nc);
    let pl = (((wg_rand_keep_f32(ah * bh, nc) - ph) + wg_rand_keep_f32(ah * bl, nc)) + wg_rand_keep_f32(al * bh, nc))
             + wg_rand_keep_f32(al * bl, nc);
    let th = wg_rand_keep_f32(c + ph, nc);
    let cb = wg_rand_keep_f32(th - c, nc);
    let tl = wg_rand_keep_f32((c - wg_rand_keep_f32(th - cb, nc)) + (ph - cb), nc);
    let vh = wg_rand_keep_f32(tl + pl, nc);
    let vb = wg_rand_keep_f32(vh - tl, nc);
    let vl = (tl - wg_rand_keep_f32(vh - vb, nc)) + (pl - vb);
    let bits = bitcast<u32>(vh);
    let odd = select(bits, select(bits - 1u, bits + 1u, (vl > 0.0) == (vh > 0.0)), vl != 0.0 && (bits & 1u) == 0u);
    return th + bitcast<f32>(odd);
}
