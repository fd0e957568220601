// The device half of the dtype codec, for dtypes narrower than their WGSL storage (bool, int8, uint8, int16,
// uint16, float16): arrays cross the bus at their host size, packed ${PER} to a u32 word, and are widened here
// after an upload or narrowed here before a download.  One thread per wide element (widen) or per word (narrow).
${HELPERS}

struct Params {
    n: u32,
    words: u32,
    _pad0: u32,
    _pad1: u32,
}

${BINDINGS}

fn widen(raw: u32) -> u32 {
    return ${WIDEN};
}

fn narrow(v: u32) -> u32 {
    return ${NARROW};
}

${ENTRY}
    let t = thread_index;
${BODY}
}
