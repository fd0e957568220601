// Radix sort's subgroup kernels (radix_scatter_sg.wgsl, radix_hist_count_sg.wgsl): ballot masks of ${MASKT} (u32 where
// subgroups have at most 32 invocations, else vec4<u32>, ballot's full 128-lane mask).

fn rx_pop(m: ${MASKT}) -> u32 {
    return ${POP};
}

// The bits of lanes o .. o + 31 below ``lane`` (one word of a 128-lane mask).
fn rx_lt(lane: u32, o: u32) -> u32 {
    if (lane <= o) {
        return 0u;
    }
    if (lane >= o + 32u) {
        return 0xffffffffu;
    }
    return (1u << (lane - o)) - 1u;
}

// The lanes of the subgroup below ``lane``, as a ballot mask.
fn rx_below(lane: u32) -> ${MASKT} {
    return ${BELOW};
}

// The lowest lane of a non-zero mask.
fn rx_first(m: ${MASKT}) -> u32 {
    return ${FIRST};
}

// The lanes of the subgroup holding a key (``ok``) whose 8-bit digit equals this invocation's ``d``: the AND, over
// the digit's bits, of the ballot of that bit or its complement.  Call from subgroup-uniform control flow.
fn rx_peers(ok: bool, d: u32) -> ${MASKT} {
    var m = subgroupBallot(ok)${BX};
    for (var i = 0u; i < 8u; i = i + 1u) {
        let bi = subgroupBallot(((d >> i) & 1u) == 1u)${BX};
        m = m & select(~bi, bi, ((d >> i) & 1u) == 1u);
    }
    return m;
}
