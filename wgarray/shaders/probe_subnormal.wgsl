// Does this device keep f32 subnormals through arithmetic?  out[0] = in[0] * in[1] with a subnormal in[0]:
// a device that flushes subnormals writes 0.
@group(0) @binding(0) var<storage, read_write> v: array<f32>;

@compute @workgroup_size(1)
fn main() {
    v[2] = v[0] * v[1];
}
