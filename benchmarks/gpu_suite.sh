#!/usr/bin/env bash
# The suite (CI profile) on a machine with many cores and one GPU: the test files dealt round-robin to $1 (8)
# pytest processes (pytest-xdist is not used: its workers collect differently), each under a time limit of $2 s.
# Writes $OUT/suite-K.txt; prints each group's last line.  From the GPU machine: bash .gpu/enter.sh bash benchmarks/gpu_suite.sh 8 420
procs=${1:-8}; limit=${2:-420}; out=${OUT:-/tmp}
mapfile -t files < <(ls tests/*/test_*.py | sort)
for k in $(seq 0 $((procs - 1))); do
  group=(); for i in "${!files[@]}"; do [ $((i % procs)) -eq "$k" ] && group+=("${files[$i]}"); done
  HYPOTHESIS_PROFILE=ci timeout "$limit" python -m pytest -q -p no:cacheprovider -rfE "${group[@]}" >"$out/suite-$k.txt" 2>&1 &
done
wait
for k in $(seq 0 $((procs - 1))); do echo "group $k: $(tail -n 1 "$out/suite-$k.txt")"; done
grep -h "^FAILED\|^ERROR" "$out"/suite-*.txt | cut -c1-300
