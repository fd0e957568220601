// The Jacobi rotation shared by linalg_jacobi.wgsl and linalg_blockjac.wgsl (rendered into both where they say ROTATION):
// (c, s) of the rotation that diagonalises [[app, apq], [apq, aqq]] (the smaller of the two angles), applied to a
// pair of columns as x' = c x - s y, y' = s x + c y.
fn rotation(app: ${T}, aqq: ${T}, apq: ${T}) -> vec2<${T}> {
    let zeta = (aqq - app) / (${T}(2.0) * apq);
    let az = abs(zeta);
    let r = select(sqrt(${T}(1.0) + az * az), az, az > ${T}(${BIG}));
    let t = select(${T}(-1.0), ${T}(1.0), zeta >= ${T}(0.0)) / (az + r);
    let c = ${T}(1.0) / sqrt(${T}(1.0) + t * t);
    return vec2<${T}>(c, t * c);
}

// whether the pair is rotated: |a_pq| > max(tol sqrt|a_pp| sqrt|a_qq|, TINY) (the relative test)
fn wants(app: ${T}, aqq: ${T}, apq: ${T}, tol: ${T}) -> bool {
    return abs(apq) > max(tol * sqrt(abs(app)) * sqrt(abs(aqq)), ${T}(${TINY}));
}
