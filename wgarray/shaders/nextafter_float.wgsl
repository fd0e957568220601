// wgarray: np.nextafter for f32 / f64 (C nextafter), exact: pure integer work on the bit pattern, so it is
// unaffected by fast-math and by subnormal flushing of the float arithmetic.
//
// Template variables (Python string.Template):
//   ${T} : the float type "f32" / "f64";  ${U}, ${I} : the same-size unsigned / signed integer types;
//   ${D} : the dtype name the function is called by ("float32" / "float64").
// Needs the numerics_float.wgsl instance of the same ${T} (wg_isnan, wg_impl_sign_mask, wg_impl_nan).

// The next representable value after x in the direction of y: NaN if either is NaN, y if x == y (so
// nextafter(0.0, -0.0) = -0.0), the smallest subnormal with y's sign if x is zero, else the bit pattern of x
// one step away from or towards zero. Overflow gives +-inf, like C.
fn wg_nextafter_${D}(x: ${T}, y: ${T}) -> ${T} {
    if (wg_isnan_${T}(x) || wg_isnan_${T}(y)) {
        return wg_impl_nan_${T}();
    }
    let sm = wg_impl_sign_mask_${T}();
    let ux = bitcast<${U}>(x);
    let uy = bitcast<${U}>(y);
    let ax = ux & ~sm;
    let ay = uy & ~sm;
    if (ux == uy || (ax == ${U}(0) && ay == ${U}(0))) {
        return y;
    }
    if (ax == ${U}(0)) {
        return bitcast<${T}>((uy & sm) | ${U}(1));
    }
    // order on the bit patterns: sign-magnitude read as a signed key (exact for subnormals too)
    let x_neg = (ux & sm) != ${U}(0);
    let kx = select(${I}(ax), -${I}(ax), x_neg);
    let ky = select(${I}(ay), -${I}(ay), (uy & sm) != ${U}(0));
    let away = (kx < ky) != x_neg;  // moving away from zero
    return bitcast<${T}>(select(ux - ${U}(1), ux + ${U}(1), away));
}
