#!/usr/bin/env bash
# Run the Array API standard's public test suite (data-apis/array-api-tests) against this tree's wgarray and print
# passed / failed / skipped per test file (from pytest's JUnit XML) and the pass rate.
#   benchmarks/array_api_suite.sh PATH_TO_ARRAY_API_TESTS [pytest args, default: array_api_tests]
# PATH is a checkout of the suite: a real clone (git submodule update --init for its array-api stubs) or the copy
# rebuilt from the code index (README section "The standard's test suite"; benchmarks/array_api_suite/MANIFEST.tsv
# names the source of every file).  The rebuilt copy reads the standard's 2024.12 docstrings from PATH/_spec: when
# that is missing, this script fetches them from PyPI (types-array-api 1.1.4, array_api/_2024_12.py).
# Needs hypothesis, ndindex, pytest.  MAX_EXAMPLES (default 20), ARRAY_API_TESTS_VERSION (default 2024.12),
# PYTHON (default python), JUNIT (the XML path, default a temporary file) and WGARRAY_ROOT (the tree whose wgarray
# is tested, default this one) override; extra args go to pytest
# (e.g. one test file, -k).  On the shared 2-core machine, MAX_EXAMPLES=20 takes 16-30 minutes.
# Rebuilding the copy (no GitHub here): benchmarks/array_api_suite_fetch.md (what to fetch, from where;
# benchmarks/array_api_suite/MANIFEST.tsv names repository, path, commit, index id and SHA-256 of every fetched
# file), then `python benchmarks/array_api_suite/assemble.py PATH` adds wgarray's glue and the listed adaptations.
# ndindex (the suite's one extra dependency) is installed into PATH/_deps when the interpreter lacks it.
set -euo pipefail
suite=${1:?usage: $0 PATH_TO_ARRAY_API_TESTS [pytest args]}
shift
repo=$(cd "${WGARRAY_ROOT:-$(dirname "$0")/..}" && pwd)
suite=$(cd "$suite" && pwd)
py=${PYTHON:-python}
if grep -q AAT_SPEC_DOCS "$suite/array_api_tests/stubs.py" 2>/dev/null && [ ! -f "$suite/_spec/array_api/_2024_12.py" ]; then
    tmp=$(mktemp -d)
    "$py" -m pip download -q --no-deps -d "$tmp" types-array-api==1.1.4
    "$py" -m zipfile -e "$tmp"/types_array_api-1.1.4-*.whl "$suite/_spec"
    rm -rf "$tmp"
fi
deps=""
if ! "$py" -c "import ndindex" 2>/dev/null; then
    [ -d "$suite/_deps/ndindex" ] || "$py" -m pip install -q --target "$suite/_deps" ndindex
    deps="$suite/_deps"
fi
junit=${JUNIT:-$(mktemp --suffix=.xml)}
cd "$suite"
[ $# -gt 0 ] || set -- array_api_tests
rc=0
ARRAY_API_TESTS_MODULE=wgarray ARRAY_API_TESTS_VERSION=${ARRAY_API_TESTS_VERSION:-2024.12} \
PYTHONPATH="$repo${deps:+:$deps}${PYTHONPATH:+:$PYTHONPATH}" XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp} \
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
