#!/usr/bin/env bash
# Run the Array API standard's public test suite (data-apis/array-api-tests) against this tree's wgarray and print
# passed / failed / skipped per test file (from pytest's JUnit XML) and the pass rate.
#   benchmarks/array_api_suite.sh PATH_TO_ARRAY_API_TESTS [pytest args, default: array_api_tests]
# PATH is a checkout of the suite: a real clone (git submodule update --init for its array-api stubs) or the copy
# rebuilt from the code index (see the README section "The standard's test suite"; its MANIFEST.txt names the
# source of every file).  The rebuilt copy reads the standard's 2024.12 docstrings from PATH/_spec: when that is
# missing, this script fetches them from PyPI (types-array-api 1.1.4, array_api/_2024_12.py).
# Needs hypothesis, ndindex, pytest.  MAX_EXAMPLES (default 20), ARRAY_API_TESTS_VERSION (default 2024.12),
# PYTHON (default python) and JUNIT (the XML path, default a temporary file) override; extra args go to pytest
# (e.g. one test file, -k).  On the shared 2-core machine, MAX_EXAMPLES=20 takes about 30 minutes.
# Rebuilding the copy (no GitHub here; read_file of the code index, newest fitting version per file, 2026-12-02):
#   data-apis/array-api-tests: dtype_helpers @035f5b8c, hypothesis_helpers id 34657979, pytest_helpers id 129103543,
#   shape_helpers @1927c109 (+ list axes as @952b9c35), array_helpers @01d47b9a, test_operators_and_elementwise
#   @019e060f, test_manipulation/utility/indexing @05ab7f13, test_searching @00f42f85, test_sorting/set/fft
#   @035f5b8c, test_statistical id 101822631, test_inspection @32dd3964, test_data_type @00c56c96,
#   test_constants/has_names @0b3e170e, test_linalg id 128709665; ev-br/array-api-tests: test_array_object
#   @ec5a3b4e, test_special_cases @0487e9bb; prady0t/array-api-tests: test_signatures @c1d1e72e;
#   HydrogenSulfate/array-api-tests: test_creation_functions @0655103c (Paddle list shapes reverted).  Glue
#   (__init__, _array_module, typing, conftest, stubs) is written anew; PATH/MANIFEST.txt lists every adaptation.
set -euo pipefail
suite=${1:?usage: $0 PATH_TO_ARRAY_API_TESTS [pytest args]}
shift
repo=$(cd "$(dirname "$0")/.." && pwd)
suite=$(cd "$suite" && pwd)
py=${PYTHON:-python}
if grep -q AAT_SPEC_DOCS "$suite/array_api_tests/stubs.py" 2>/dev/null && [ ! -f "$suite/_spec/array_api/_2024_12.py" ]; then
    tmp=$(mktemp -d)
    "$py" -m pip download -q --no-deps -d "$tmp" types-array-api==1.1.4
    "$py" -m zipfile -e "$tmp"/types_array_api-1.1.4-*.whl "$suite/_spec"
    rm -rf "$tmp"
fi
junit=${JUNIT:-$(mktemp --suffix=.xml)}
cd "$suite"
[ $# -gt 0 ] || set -- array_api_tests
rc=0
ARRAY_API_TESTS_MODULE=wgarray ARRAY_API_TESTS_VERSION=${ARRAY_API_TESTS_VERSION:-2024.12} \
PYTHONPATH="$repo${PYTHONPATH:+:$PYTHONPATH}" XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp} \
"$py" -m pytest -q -p no:cacheprovider --max-examples="${MAX_EXAMPLES:-20}" --disable-deadline -rfs \
    -W ignore::UserWarning --junitxml="$junit" "$@" || rc=$?
"$py" - "$junit" <<'EOF'
import collections
import sys
import xml.etree.ElementTree as ET

counts = collections.defaultdict(collections.Counter)
for case in ET.parse(sys.argv[1]).iter("testcase"):
    parts = case.get("classname", "").split(".")
    name = next((p for p in parts if p.startswith("test_")), parts[-1])  # the module, also for class-based tests
    kind = "passed"
    for child in case:
        if child.tag in ("failure", "error"):
            kind = "failed"
        elif child.tag == "skipped":
            kind = "xfailed" if child.get("type") == "pytest.xfail" else "skipped"
    counts[name][kind] += 1
total = collections.Counter()
print(f"{'file':48s} {'passed':>7s} {'failed':>7s} {'skipped':>8s} {'xfailed':>8s}")
for name in sorted(counts):
    c = counts[name]
    total.update(c)
    print(f"{name:48s} {c['passed']:7d} {c['failed']:7d} {c['skipped']:8d} {c['xfailed']:8d}")
print(f"{'total':48s} {total['passed']:7d} {total['failed']:7d} {total['skipped']:8d} {total['xfailed']:8d}")
run = total["passed"] + total["failed"]
if run:
    print(f"passed / (passed + failed) = {total['passed']} / {run} = {100 * total['passed'] / run:.1f} %")
EOF
exit $rc
