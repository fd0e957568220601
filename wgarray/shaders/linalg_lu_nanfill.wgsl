// NaN into every element of the matrices whose factorisation failed (info != 0): solve/inv of a singular matrix
// and cholesky of one that is not positive definite give NaN, never a wrong finite answer (the "nan" error mode;
// the "raise" mode reads info too and raises LinAlgError).
struct Params {
    per: u32,
    total: u32,
    off: u32,
    gx: u32,
}

@group(0) @binding(0) var<storage, read> info: array<u32>;
@group(0) @binding(1) var<storage, read_write> x: array<${T}>;
@group(1) @binding(0) var<uniform> p: Params;

@compute @workgroup_size(${WG})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let e = gid.y * p.gx * ${WG}u + gid.x;
    if (e >= p.total) {
        return;
    }
    if (info[e / p.per] != 0u) {
        x[p.off + e] = ${NAN};
    }
}
