// Radix sort (kernels/radix.py, the reg scatter): an exclusive workgroup scan of one u32 per invocation, straight-
// line: ${NSEG} invocations scan segments of ${SEG} (loads first, padded one word in 32 against bank conflicts),
// then every invocation adds the segment sums before its own (broadcast loads): two barriers.  Shape.scan_bases:
// the segment invocations compute each segment's base and the total instead, every invocation loads two words:
// three barriers.  rx_sum (private) holds the sum over all invocations after a call.  Call from uniform control
// flow, with a barrier between the return and the next call (the reg scatter has them).
var<workgroup> rx_sc: array<u32, ${NSC}>;
var<workgroup> rx_seg: array<u32, ${NSEG}>;
${BASES}
var<private> rx_sum: u32;

fn rx_exscan(lid: u32, v: u32) -> u32 {
    rx_sc[rx_pad(lid)] = v;
    workgroupBarrier();
    if (lid < ${NSEG}u) {
        let f = lid * ${SEG}u;
${SEGSCAN}
    }
    workgroupBarrier();
    let seg = lid / ${SEG}u;
${SEGSUM}
    return rx_sc[rx_pad(lid)] + before;
}
