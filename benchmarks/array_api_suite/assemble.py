"""Assemble the rebuilt Array API suite (data-apis/array-api-tests) from its fetched files and wgarray's glue.

    python benchmarks/array_api_suite/assemble.py DEST

DEST/fetched/ holds the 23 third-party files named by MANIFEST.tsv (beside this script), each written there
byte for byte as the code index's read_file returned it (benchmarks/array_api_suite_fetch.md says how).  This
script checks every one against the manifest's character count and SHA-256, copies them to DEST/array_api_tests/,
applies the adaptations below (each a marked, minimal edit: a helper the newer test modules call that the chosen
helper version lacks, or a fork's local change reverted to upstream's behaviour), and copies the glue
(glue/conftest.py, glue/array_api_tests/{__init__,_array_module,typing,stubs}.py, written for wgarray, not fetched).
Run it again at will: it starts from the fetched copies each time.  Then benchmarks/array_api_suite.sh DEST runs
the suite (it fetches the standard's 2024.12 docstrings from PyPI into DEST/_spec when missing).
"""
import csv
import hashlib
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MARK = "# --- wgarray rebuild: adapted (benchmarks/array_api_suite/assemble.py) ---"

PYTEST_HELPERS = f'''

{MARK}
# Helpers the 2024-25 test modules call (upstream's later pytest_helpers has them; the version kept here does not).
import cmath as _cmath


def format_snippet(s: str) -> str:
    return f"\\n\\n{{'=' * 10}} repro snippet {{'=' * 10}}\\n{{s}}\\n{{'=' * 35}}"


def add_note(exc: BaseException, note: str) -> None:
    if hasattr(exc, "add_note"):
        exc.add_note(note)


def assert_default_complex(func_name: str, out_dtype: DataType):
    f_dtype = dh.dtype_to_name[out_dtype]
    f_default = dh.dtype_to_name[dh.default_complex]
    msg = (
        f"out.dtype={{f_dtype}}, should be default "
        f"complex dtype {{f_default}} [{{func_name}}()]"
    )
    assert out_dtype == dh.default_complex, msg


def assert_float_to_complex_dtype(func_name: str, *, in_dtype: DataType, out_dtype: DataType):
    if in_dtype == xp.float32:
        expected = xp.complex64
    else:
        assert in_dtype == xp.float64  # sanity check
        expected = xp.complex128
    assert_dtype(func_name, in_dtype=in_dtype, out_dtype=out_dtype, expected=expected)


def assert_scalar_isclose(func_name: str, *, rel_tol: float = 0.25, abs_tol: float = 1, type_: ScalarType,
                          idx: Shape, out: Scalar, expected: Scalar, repr_name: str = "out", kw: dict = {{}}):
    assert type_ in [float, complex]  # sanity check
    msg = f"{{repr_name}}={{out}}, but should be roughly {{expected}} [{{func_name}}({{fmt_kw(kw)}})]"
    if type_ is float:
        assert math.isclose(float(out), expected, rel_tol=rel_tol, abs_tol=abs_tol), msg
    else:
        assert _cmath.isclose(complex(out), expected, rel_tol=rel_tol, abs_tol=abs_tol), msg
'''

DTYPE_HELPERS = f'''

{MARK}
# Helpers the 2024-25 test modules call (upstream's later dtype_helpers has them).
def is_scalar(x):
    return isinstance(x, (int, float, complex, bool))


def available_kinds():
    return {{kind for kind, dtypes in kind_to_dtypes.items() if len(dtypes) > 0}}


widest_real_dtype = _name_to_dtype.get("float64", _name_to_dtype.get("float32"))
widest_complex_dtype = _name_to_dtype.get("complex128", _name_to_dtype.get("complex64"))
'''

HYPOTHESIS_HELPERS = f'''

{MARK}
# The array-and-Python-scalar pairs of the 2024.12 scalar tests (upstream's later hypothesis_helpers has it):
# (array, scalar) or (scalar, array) of one dtype; floats in [1/64, 64] (upstream's range), ints over the dtype's
# range; min_value / max_value narrow both sides.
@composite
def array_and_py_scalar(draw, dtypes, **bounds):
    dtype = draw(sampled_from(dtypes))
    if dtype == bool_dtype:
        scalar = draw(booleans())
        elements = None
    elif dh.is_int_dtype(dtype):
        m, M = dh.dtype_ranges[dtype]
        lo, hi = bounds.get("min_value", m), bounds.get("max_value", M)
        scalar = draw(integers(lo, hi))
        elements = {{"min_value": lo, "max_value": hi}} if bounds else None
    else:
        lo, hi = bounds.get("min_value", 1.0 / (2 << 5)), bounds.get("max_value", 2 << 5)
        scalar = draw(floats(lo, hi, width=32 if dtype == float32 else 64))
        elements = {{"allow_nan": False, "allow_infinity": False, "min_value": lo, "max_value": hi}}
    array = draw(arrays(dtype, shape=shapes(min_dims=1), elements=elements))
    return (scalar, array) if draw(booleans()) else (array, scalar)
'''

ARRAY_HELPERS = f'''

{MARK}
def _matrix_transpose(x):  # hypothesis_helpers.symmetric_matrices calls it (upstream's later array_helpers)
    return _array_module.matrix_transpose(x)
'''

SHAPE_HELPERS = f'''

{MARK}
normalize_axis = normalise_axis  # the newer test modules' spelling
'''

# (file, old, new, count): exact replacements; count is how often ``old`` must occur.
REPLACE = [
    ("array_helpers.py", 'def assert_exactly_equal(x, y):', 'def assert_exactly_equal(x, y, msg_extra=None):  '
     + MARK + " msg_extra as test_linalg passes it", 1),
    ("array_helpers.py", '    assert all(exactly_equal(x, y)), "The input arrays have different values"',
     '    assert all(exactly_equal(x, y)), "The input arrays have different values" + (\n'
     '        f" ({msg_extra})" if msg_extra else "")', 1),
    # the 2024-25 test modules pass these helpers' arguments by keyword; this version makes them positional-only
    ("pytest_helpers.py", "    /,\n", "", 4),
    ("pytest_helpers.py", "out: Array, /, **kw", "out: Array, **kw", 1),
    ("pytest_helpers.py", "expected: Array, /, *, out_repr", "expected: Array, *, out_repr", 1),
    # complex values (drawn since 2022.12): cmath where this version uses math, complex arrays compared part by part
    ("pytest_helpers.py", "    if math.isnan(fill_value):", "    if _cmath.isnan(fill_value):  " + MARK, 1),
    ("pytest_helpers.py", "    elif math.isnan(expected):", "    elif _cmath.isnan(expected):  " + MARK, 1),
    ("pytest_helpers.py", "        assert math.isnan(out), msg", "        assert _cmath.isnan(out), msg", 1),
    ("pytest_helpers.py", "        assert math.isclose(out, expected, rel_tol=0.25, abs_tol=1), msg",
     "        assert _cmath.isclose(out, expected, rel_tol=0.25, abs_tol=1), msg", 1),
    ("pytest_helpers.py", "    if dh.is_float_dtype(out.dtype):\n        for idx in sh.ndindex(out.shape):",
     "    if out.dtype in dh.complex_dtypes:  " + MARK + "\n"
     "        for part in (xp.real, xp.imag):\n"
     "            exp = part(expected) if expected.dtype in dh.complex_dtypes else expected\n"
     "            assert_array_elements(func_name, part(out), exp, out_repr=f\"{part.__name__}({out_repr})\", **kw)\n"
     "    elif dh.is_float_dtype(out.dtype):\n        for idx in sh.ndindex(out.shape):", 1),
    # prady0t's fork skips a missing ``device`` keyword; upstream fails it (reverted to upstream's check)
    ("test_signatures.py",
     '        # revert back before pushing\n        if stub_param.name not in sig.parameters.keys():\n'
     '            if stub_param.name == "device":\n'
     '                pytest.skip("\'device\' argument not supported by this array module")\n'
     '            assert False, f"Argument \'{stub_param.name}\' missing from signature"\n',
     '        assert (  ' + MARK + ' upstream\'s strict check\n'
     '            stub_param.name in sig.parameters.keys()\n'
     '        ), f"Argument \'{stub_param.name}\' missing from signature"\n', 1),
    ("test_signatures.py",
     "     # revert back before pushing" + " " * 7 + "\n    def call(*a, **kw):\n        try:\n"
     "            func(*a, **kw)\n        except TypeError as e:\n            if \"device\" in kw:\n"
     "                kw_wo_device = {k: v for k, v in kw.items() if k != \"device\"}\n                try:\n"
     "                    func(*a, **kw_wo_device)\n                except TypeError:\n"
     "                    raise e from None\n                else:\n                    pytest.skip(\n"
     "                        f\"'device' argument not supported by this array module: {e}\"\n"
     "                    )\n            raise\n",
     f"    call = func  {MARK} upstream calls func directly (no device leniency)\n", 1),
    # HydrogenSulfate's (Paddle) fork compares shapes as lists; upstream (and the standard) use tuples
    ("test_creation_functions.py", "expected=list(shape)", "expected=shape", 3),
    ("test_creation_functions.py", "expected=list(x.shape)", "expected=x.shape", 5),
    ("test_creation_functions.py", "out_shape=tuple(out.shape)", "out_shape=out.shape", 3),
    ("test_creation_functions.py", "out_shape=list(out.shape)", "out_shape=out.shape", 1),
]
APPEND = {"pytest_helpers.py": PYTEST_HELPERS, "dtype_helpers.py": DTYPE_HELPERS,
          "hypothesis_helpers.py": HYPOTHESIS_HELPERS, "array_helpers.py": ARRAY_HELPERS,
          "shape_helpers.py": SHAPE_HELPERS}


def main(dest: Path) -> None:
    fetched, pkg = dest / "fetched", dest / "array_api_tests"
    pkg.mkdir(parents=True, exist_ok=True)
    bad = []
    with open(HERE / "MANIFEST.tsv", newline="") as f:
        rows = [r for r in csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")]
    for row in rows:
        src = fetched / row["file"]
        text = src.read_text(encoding="utf-8") if src.exists() else None
        if text is None or len(text) != int(row["chars"]) or \
                hashlib.sha256(text.encode()).hexdigest() != row["sha256"]:
            bad.append(f"{row['file']}: {'missing' if text is None else 'differs from the manifest'}")
            continue
        shutil.copyfile(src, pkg / row["file"])
    if bad:
        sys.exit("not assembled, fetch these again:\n  " + "\n  ".join(bad))
    for name, old, new, count in REPLACE:
        path = pkg / name
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == count, f"{name}: {old[:60]!r} occurs {text.count(old)} times, expected {count}"
        path.write_text(text.replace(old, new), encoding="utf-8")
    for name, extra in APPEND.items():
        with open(pkg / name, "a", encoding="utf-8") as f:
            f.write(extra)
    shutil.copyfile(HERE / "glue" / "conftest.py", dest / "conftest.py")
    for glue in (HERE / "glue" / "array_api_tests").glob("*.py"):
        shutil.copyfile(glue, pkg / glue.name)
    print(f"assembled {len(rows)} fetched files + glue into {dest}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)))
