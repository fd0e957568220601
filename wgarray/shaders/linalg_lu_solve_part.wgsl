    if (SOLVE) {
        // each invocation solves whole columns of X (rows apart by K) with L and U from workgroup memory
        let K = p.K;
        let xb = b * n * K;
        let nan = ${NAN};
        let failed = bad != 0u;
        for (var c = tid; c < K; c = c + WG) {
            if (GEN_ID) {
                for (var i = 0u; i < n; i = i + 1u) {
                    x[xb + i * K + c] = select(${T}(0.0), ${T}(1.0), i == c);
                }
            }
            if (failed) {
                for (var i = 0u; i < n; i = i + 1u) {
                    x[xb + i * K + c] = nan;
                }
                continue;
            }
            for (var j = 0u; j < n; j = j + 1u) {
                let r = pv[j];
                if (r != j) {
                    let t = x[xb + j * K + c];
                    x[xb + j * K + c] = x[xb + r * K + c];
                    x[xb + r * K + c] = t;
                }
            }
            for (var i = 1u; i < n; i = i + 1u) {
                var s = x[xb + i * K + c];
                for (var q = 0u; q < i; q = q + 1u) {
                    s = s - sh[i * n + q] * x[xb + q * K + c];
                }
                x[xb + i * K + c] = s;
            }
            for (var ii = n; ii > 0u; ii = ii - 1u) {
                let i = ii - 1u;
                var s = x[xb + i * K + c];
                for (var q = i + 1u; q < n; q = q + 1u) {
                    s = s - sh[i * n + q] * x[xb + q * K + c];
                }
                x[xb + i * K + c] = s / sh[i * n + i];
            }
        }
    }
