// Radix sort (kernels/radix.py): an exclusive workgroup scan of one u32 per invocation, in ${NSEG} serial
// segments of ${SEG} and a serial scan of the segment sums (three barriers, whatever the workgroup size).
var<workgroup> rx_sc: array<u32, ${WG}>;
var<workgroup> rx_seg: array<u32, ${NSEG}>;
var<workgroup> rx_total: u32;

// The sum of ``v`` over the invocations before ``lid``; rx_total holds the sum over all of them until the next
// call.  Call from uniform control flow.
fn rx_exscan(lid: u32, v: u32) -> u32 {
    rx_sc[lid] = v;
    workgroupBarrier();
    if (lid < ${NSEG}u) {
        var acc = 0u;
        for (var i = 0u; i < ${SEG}u; i = i + 1u) {
            let t = rx_sc[lid * ${SEG}u + i];
            rx_sc[lid * ${SEG}u + i] = acc;
            acc = acc + t;
        }
        rx_seg[lid] = acc;
    }
    workgroupBarrier();
    if (lid == 0u) {
        var acc = 0u;
        for (var i = 0u; i < ${NSEG}u; i = i + 1u) {
            let t = rx_seg[i];
            rx_seg[i] = acc;
            acc = acc + t;
        }
        rx_total = acc;
    }
    workgroupBarrier();
    let r = rx_sc[lid] + rx_seg[lid / ${SEG}u];
    workgroupBarrier();
    return r;
}
