// Group sizes from group starts: counts[u] = (start of group u + 1, or n for the last) - start of group u.
struct Params {
    n: u32,
    count: u32,
    _pad0: u32,
    _pad1: u32,
}

${BINDINGS}

${ENTRY}
    let u = thread_index;
    if (u >= p.count) {
        return;
    }
    var end = p.n;
    if (u + 1u < p.count) {
        end = starts[u + 1u];
    }
    counts[u] = i32(end - starts[u]);
}
