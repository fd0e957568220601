#!/usr/bin/env bash
# Run the Array API standard's public test suite (data-apis/array-api-tests) against this tree's wgarray.
#   benchmarks/array_api_suite.sh PATH_TO_ARRAY_API_TESTS [pytest args, default: array_api_tests]
# The checkout needs its array-api stubs (git submodule update --init) and the suite's requirements
# (hypothesis, ndindex, pytest, pytest-json-report).  MAX_EXAMPLES (default 20), ARRAY_API_TESTS_VERSION
# (default 2024.12) and PYTHON (default python) override; extra args go to pytest (e.g. one test file, -k).
set -euo pipefail
suite=${1:?usage: $0 PATH_TO_ARRAY_API_TESTS [pytest args]}
shift
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$suite"
[ $# -gt 0 ] || set -- array_api_tests
ARRAY_API_TESTS_MODULE=wgarray ARRAY_API_TESTS_VERSION=${ARRAY_API_TESTS_VERSION:-2024.12} \
PYTHONPATH="$repo${PYTHONPATH:+:$PYTHONPATH}" XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp} \
exec "${PYTHON:-python}" -m pytest -q -p no:cacheprovider --max-examples="${MAX_EXAMPLES:-20}" \
    --disable-deadline -rfs "$@"
