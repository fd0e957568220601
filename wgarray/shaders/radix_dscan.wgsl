// Radix sort pass, step 2: for each of its ``per`` digits d, a workgroup scans digit d's block counts
// counts[d * nb .. d * nb + nb) in place (exclusive) and stores their sum in totals[d]; the GPU scatter adds the
// exclusive scan of the 256 totals.  The CPU kernels run it as one workgroup over one "digit" holding every
// count (nb = 2^bits x chunks, digit-major): the scan is then each chunk's first slot of each digit.  Inactive key
// passes and a plan's payload copy return at once.  With per = 0 instead one workgroup of 256 invocations scans
// one digit each, serially and without barriers (few blocks on a GPU).
struct Params {
    nb: u32,
    per: u32,
    mode: u32,
    slot: u32,  // mode 0: the key pass, inactive from the plan's count on, or the payload copy (radix_digit.wgsl)
}

${BINDINGS}

${WGSCAN}

${ENTRY}
    if (p.mode == 0u && p.slot + plan[3] >= plan[0]) {
        return;
    }
    if (p.per == 0u) {
        for (var d = lid; d < 256u; d = d + ${WG}u) {
            var acc = 0u;
            for (var i = d * p.nb; i < d * p.nb + p.nb; i = i + 1u) {
                let c = counts[i];
                counts[i] = acc;
                acc = acc + c;
            }
            totals[d] = acc;
        }
        return;
    }
    for (var d = wid.x * p.per; d < wid.x * p.per + p.per; d = d + 1u) {
        let chunk = (p.nb + ${WG}u - 1u) / ${WG}u;
        let lo = d * p.nb + min(lid * chunk, p.nb);
        let hi = d * p.nb + min(lid * chunk + chunk, p.nb);
        // a chunk of at most ${REGS} counts (Shape.dscan_regs) is loaded at once into registers (all loads in
        // flight, then all stores), a longer one scanned in two loops over memory
        let held = chunk <= ${REGS}u;
        var s = 0u;
${LOAD}
        if (!held) {
            for (var i = lo; i < hi; i = i + 1u) {
                s = s + counts[i];
            }
        }
        var acc = rx_exscan(lid, s);
${STORE}
        if (!held) {
            for (var i = lo; i < hi; i = i + 1u) {
                let c = counts[i];
                counts[i] = acc;
                acc = acc + c;
            }
        }
        if (lid == 0u) {
            totals[d] = rx_total;
        }
    }
}
