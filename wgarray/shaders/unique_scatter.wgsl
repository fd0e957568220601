// Scatter of the groups of a sorted 1-D array: pos is the exclusive scan of the boundary flags
// (unique_flags.wgsl) with the count at pos[n], so element i starts group pos[i] iff pos[i + 1] != pos[i].
// The first element of each group gives the unique value, its start and (through the sort permutation, stable
// so the smallest original index comes first) its first occurrence; every element gives its group number to
// its original position (inverse indices).
struct Params {
    n: u32,
    count: u32,
    _pad0: u32,
    _pad1: u32,
}

${BINDINGS}

${ENTRY}
    let i = thread_index;
    if (i >= p.n) {
        return;
    }
    let u = pos[i];
${EVERY}
    if (pos[i + 1u] != u) {
${FIRST}
    }
}
