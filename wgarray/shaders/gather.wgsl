// Gather / scatter through integer index arrays (numpy's advanced indexing, take, take_along_axis).
// The iteration space is the (collapsed) shape of the indexing result.  Walker 0 addresses the target array
// (x) through its strides in that shape (0 along the dimensions the index arrays produce), walker 1 the other
// operand (the gathered output or the scattered values), walkers 2.. the index arrays; each index value
// selects a position along its own axis of x (negative values count from the end).  Modes:
//   gather: out[i] = x[addr];  scatter: x[addr] = values[...];  check: only validate the indices.
// Checked indices that are out of bounds raise ``flag`` to flag_base + 1 + the index array's number and read
// element 0 instead.
${HELPERS}

struct Params {
    n: u32,
    ndim: u32,
    flag_base: u32,
    _pad1: u32,
    shape: array<vec4<u32>, 2>,
    offs: array<vec4<i32>, 4>,
    st: array<array<vec4<i32>, 2>, ${NWALK}>,
    axis_st: array<vec4<i32>, 2>,
    extent: array<vec4<i32>, 2>,
}

${BINDINGS}

${ENTRY}
    let i = thread_index;
    if (i >= p.n) {
        return;
    }
    var rem = i;
${DECL}
    for (var d: i32 = i32(p.ndim) - 1; d >= 0; d = d - 1) {
        let e = p.shape[d / 4][d % 4];
        let c = i32(rem % e);
        rem = rem / e;
${WALK}
    }
${INDEX}
${BODY}
}
