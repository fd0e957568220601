// Addressing of the Rows member ${P} (see rows_struct.wgsl), as functions prefixed ${NAME}_.

// element offset of the first element of row ``row``
fn ${NAME}_base(row: u32) -> i32 {
    var base: i32 = ${P}.off;
    var rem = row;
    for (var d: i32 = i32(${P}.ondim) - 1; d >= 0; d = d - 1) {
        let e = ${P}.oshape[d / 4][d % 4];
        base = base + i32(rem % e) * ${P}.ost[d / 4][d % 4];
        rem = rem / e;
    }
    return base;
}

// element offset of inner (flat, C-order) position ``j`` within a row
fn ${NAME}_inner(j: u32) -> i32 {
    if (${P}.indim <= 1u) {
        return i32(j) * ${P}.ist[0][0];
    }
    var off: i32 = 0;
    var rem = j;
    for (var d: i32 = i32(${P}.indim) - 1; d >= 0; d = d - 1) {
        let e = ${P}.ishape[d / 4][d % 4];
        off = off + i32(rem % e) * ${P}.ist[d / 4][d % 4];
        rem = rem / e;
    }
    return off;
}

fn ${NAME}_at(row: u32, j: u32) -> u32 {
    return u32(${NAME}_base(row) + ${NAME}_inner(j));
}
