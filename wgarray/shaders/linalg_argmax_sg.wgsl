// The pivot search's reduction by subgroup operations (kernels.linalg_factor.TSLU_SUBGROUP; rendered into
// linalg_lu_tslu.wgsl in place of linalg_argmax.wgsl): the same winner as the tree (the largest key, the smaller
// index on ties) with one barrier instead of log2 WG.  Each subgroup's best by subgroupMax / subgroupMin goes to
// red_v / red_i[slot] (slot: the subgroup's ticket, no assumption on how lid maps to subgroups; red_v / red_i
// hold WG entries, so any subgroup size fits), then every invocation reduces the subgroups' winners itself: in a loop, or (SG_FINAL,
// kernels.linalg_factor.TSLU_SG_FINAL) by subgroup operations again, a subgroup's worth of winners at a time.  Every invocation returns the winner;
// the caller must pass a barrier before red_v / red_i are written again.  Call from uniform control flow.
var<workgroup> sg_ticket: atomic<u32>;
var<private> sg_slot: u32;   // this subgroup's slot in red_v / red_i
var<private> sg_first: bool; // the subgroup's lowest active invocation (writes the slot)
var<private> sg_count: u32;  // subgroups in the workgroup
var<private> sg_lane: u32;   // this invocation's lane (SG_FINAL)
var<private> sg_size: u32;   // invocations a subgroup (SG_FINAL)
const SG_FINAL: bool = ${SG_FINAL};

// Number the subgroups (once, before the first wg_argmax; uniform control flow: it holds barriers).
fn wg_argmax_setup(tid: u32) {
    if (tid == 0u) {
        atomicStore(&sg_ticket, 0u);
    }
    workgroupBarrier();
    let lane = subgroupExclusiveAdd(1u);
    sg_lane = lane;
    sg_size = subgroupAdd(1u);
    sg_first = lane == 0u;
    var tk = 0u;
    if (sg_first) {
        tk = atomicAdd(&sg_ticket, 1u);
    }
    sg_slot = subgroupBroadcastFirst(tk);
    workgroupBarrier();
    sg_count = atomicLoad(&sg_ticket);
}

fn wg_argmax(tid: u32, key: ${T}, idx: u32) -> u32 {
    let m = subgroupMax(key);
    let wi = subgroupMin(select(0xffffffffu, idx, key == m));
    if (sg_first) {
        red_v[sg_slot] = m;
        red_i[sg_slot] = wi;
    }
    workgroupBarrier();
    if (SG_FINAL) {
        var bv = ${T}(-1.0);
        var bi = 0xffffffffu;
        for (var g0 = 0u; g0 < sg_count; g0 = g0 + sg_size) {
            let g = g0 + sg_lane;
            var v = ${T}(-1.0);  // (the key of no row)
            var i = 0xffffffffu;
            if (g < sg_count) {
                v = red_v[g];
                i = red_i[g];
            }
            let m2 = subgroupMax(v);
            let i2 = subgroupMin(select(0xffffffffu, i, v == m2));
            if (m2 > bv || (m2 == bv && i2 < bi)) {
                bv = m2;
                bi = i2;
            }
        }
        return bi;
    }
    var bv = red_v[0];
    var bi = red_i[0];
    for (var g = 1u; g < sg_count; g = g + 1u) {
        let v2 = red_v[g];
        let i2 = red_i[g];
        if (v2 > bv || (v2 == bv && i2 < bi)) {
            bv = v2;
            bi = i2;
        }
    }
    return bi;
}
