// Exponentiation by squaring with wrap-around (the integer power of numerics_sint/uint.wgsl): pow(x, 0) = 1;
// ``b`` is taken as non-negative.
fn wg_pow_squaring_${T}(a: ${T}, b: ${T}) -> ${T} {
    var result = ${T}(1);
    var base = a;
    var e = b;
    while (e != ${T}(0)) {
        if ((e & ${T}(1)) != ${T}(0)) {
            result = result * base;
        }
        base = base * base;
        e = e >> 1u;
    }
    return result;
}
