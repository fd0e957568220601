// Addressing of the Rows member ${P} (see rows_struct.wgsl) when it has at most one outer and one inner dimension
// (kernels/rows.py Rows.simple): the functions of rows.wgsl, as one multiply-add each (absent dimensions have
// stride 0 in the packed block).

fn ${NAME}_base(row: u32) -> i32 {
    return ${P}.off + i32(row) * ${P}.ost[0][0];
}

fn ${NAME}_inner(j: u32) -> i32 {
    return i32(j) * ${P}.ist[0][0];
}

fn ${NAME}_at(row: u32, j: u32) -> u32 {
    return u32(${NAME}_base(row) + ${NAME}_inner(j));
}
