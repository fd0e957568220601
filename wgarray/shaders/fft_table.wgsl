// The twiddle w^i of the transform's table (computed by fft_twiddle.wgsl), conjugated for the inverse.
fn tw(i: u32) -> vec2<${T}> {
    let w = table[i];
    return vec2<${T}>(w.x, ${SIGN}w.y);
}
