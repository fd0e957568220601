// One Stockham autosort pass of radix ${R} over rows of length n in global memory (transforms too long for
// workgroup memory): invocation j of a row reads the ${R} elements j + r n/${R}, multiplies them by the twiddles
// w^(k r) (k = j mod ns, w the root of unity of length ns ${R}, read from the table of length n at stride
// tstride = n / (ns ${R})), applies the ${R}-point DFT (${BUTTERFLY_KIND}) and writes the results to
// (j - k) ${R} + k + r ns.  After the passes the product of whose radices is n the row is in natural order (no
// bit reversal).  Reads are coalesced over j; writes are coalesced in runs of ns.  ``scale`` is the norm factor
// on the last pass and 1 before it.
struct Params {
    rows: u32,
    n: u32,
    ns: u32,
    tstride: u32,
    scale: ${T},
}

${BINDINGS}

${COMMON}

${TABLE}

${ENTRY}
    let m = p.n / ${R}u;
    if (thread_index >= p.rows * m) {
        return;
    }
    let row = thread_index / m;
    let j = thread_index - row * m;
    let base = row * p.n;
    let k = j % p.ns;
    let o = base + (j - k) * ${R}u + k;
${LOADS}
    if (p.ns > 1u) {
${TWIDDLES}
    }
${BUTTERFLY}
${STORES}
}
