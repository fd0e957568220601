"""Device runtime below the allocators: counters, adapter properties, and the ordered command stream."""
