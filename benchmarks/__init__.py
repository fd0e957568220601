"""The wgarray benchmark suite: ``python -m benchmarks`` (see benchmarks/README.md).

Each work item runs wgarray and its peers (numpy, minimal raw wgpu, torch and cupy when they have a CUDA device)
on the same work in the same run, synchronised, and reports times, rates and wgarray/peer ratios.
"""
