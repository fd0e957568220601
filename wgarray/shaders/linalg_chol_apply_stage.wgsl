// (A part of linalg_chol_apply.wgsl and linalg_chol_inv_apply.wgsl: STAGE.)  The workgroup's R rows of A21 from
// row r0 on (nb columns from k0, padded with zeros to R x SB) into the tile at.
    for (var e = lid; e < R * SB; e = e + ${WG}u) {
        let r = r0 + e / SB;
        let c = e % SB;
        var v = ${T}(0.0);
        if (r < n && c < nb) {
            v = a[abase + r * n + k0 + c];
        }
        at[e] = v;
    }
