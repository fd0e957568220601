// The element helpers of the linalg kernels that take real or complex matrices (linalg_qr, linalg_jacobi,
// linalg_spectral_order render one of linalg_scalar_real.wgsl / linalg_scalar_complex.wgsl where they say
// SCALAR): S is the element type (here the real ${T}), T its real type.  Every helper is the identity or the
// plain real operation here, so the real kernels compute what they computed before the complex ones shared them.
const SC_ZERO: ${T} = ${T}(0.0);
const SC_ONE: ${T} = ${T}(1.0);
fn sc_mul(a: ${T}, b: ${T}) -> ${T} { return a * b; }
fn sc_div(a: ${T}, b: ${T}) -> ${T} { return a / b; }
fn sc_conj(a: ${T}) -> ${T} { return a; }
fn sc_re(a: ${T}) -> ${T} { return a; }
fn sc_im(a: ${T}) -> ${T} { return ${T}(0.0); }
fn sc_from(r: ${T}) -> ${T} { return r; }
fn sc_amax(a: ${T}) -> ${T} { return abs(a); }
fn sc_abs(a: ${T}) -> ${T} { return abs(a); }
fn sc_abs2(a: ${T}) -> ${T} { return a * a; }
// the off-diagonal entry g of a 2 x 2 Hermitian block as the rotation takes it (real: g itself, signed) and the
// unit phase that multiplies the rotation's sine (real: 1)
fn sc_offdiag(g: ${T}) -> ${T} { return g; }
fn sc_phase(g: ${T}, r: ${T}) -> ${T} { return ${T}(1.0); }
