// A strided view seen as [rows, inner]: outer (row) coordinates and inner coordinates each walk their own
// (collapsed) shape and strides, in elements.  Used by axis-wise kernels (scan, sort, compaction, search).
struct Rows {
    off: i32,
    ondim: u32,
    indim: u32,
    _pad: u32,
    oshape: array<vec4<u32>, 2>,
    ost: array<vec4<i32>, 2>,
    ishape: array<vec4<u32>, 2>,
    ist: array<vec4<i32>, 2>,
}
