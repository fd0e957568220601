"""A table-driven sweep of bad input over every public function of the namespace (and ``wg.linalg``).

Each function gets a baseline call that works (``BASELINE`` and ``GOOD``); then every parameter, by its role
(array, partner array, axis, size, dtype, device, number, flag/string), is replaced by each value of each class of
bad input that applies to that role (``BAD``).  Every (function, bad input) pair must give a result or raise one
of the exception classes users can expect (``expect.EXPECTED``), with a message, not from inside wgpu and without wgpu
logging an error; afterwards the sentinel arrays (every residency, views) and the baseline inputs read back their
values and the device computes.

The sweep runs once per module (``sweep`` fixture); ``SUMMARY`` holds the counts the tests assert on: pairs tried,
and per class of bad input the outcomes (exception class names, or "result").  Nothing is printed.
"""
from __future__ import annotations

import inspect
import logging
import math
from collections import Counter, defaultdict

import numpy as np
import pytest

import wgarray as wg
from wgarray.kernels.ewtable import OPS as EW_OPS

from expect import WgpuLog, unexpected

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

# device management and introspection of adapters are not array functions
SKIP = {"adapters", "adapter_properties", "default_device", "devices", "open_device", "synchronize", "stats",
        "get_array_module",  # (which module handles these arguments: numpy or wgarray, never an error)
        "fuse", "lazy"}  # a decorator and a context manager (tests/api/test_fusion.py)

SUMMARY: dict = {"functions": 0, "pairs": 0, "results": 0, "raised": 0, "by_class": defaultdict(Counter),
                 "functions_by_class": defaultdict(set), "pairs_by_function": Counter(), "outcomes": []}


def public_functions() -> dict[str, object]:
    out = {}
    for name in dir(wg):
        obj = getattr(wg, name)
        if name.startswith("_") or name in SKIP or isinstance(obj, type) or not callable(obj):
            continue
        if inspect.ismodule(obj):
            continue
        out[name] = obj
    for name in wg.linalg.__all__:
        obj = getattr(wg.linalg, name)
        # LinAlgError, SlogdetResult: classes; errors(): the error-mode setting (tests/api/test_linalg_factor.py)
        if name not in out and not isinstance(obj, type) and name != "errors":
            out[f"linalg.{name}"] = obj
    return out


# -- arrays ------------------------------------------------------------------------------------------------------
H = np.arange(12, dtype=np.float32).reshape(3, 4) - 4.5


class Inputs:
    """The baseline inputs and the sentinels (never passed to a function); both must survive every error."""

    def __init__(self, other) -> None:
        self.other = other
        self.f = wg.asarray(H)  # float32 (3, 4), host-resident
        self.i = wg.asarray(np.arange(12, dtype=np.int32).reshape(3, 4)).copy()  # device-resident
        self.b = wg.asarray(H > 0)
        self.b.copy()  # valid on both sides
        self.idx = wg.asarray(np.array([0, 2], dtype=np.int32))
        self.idx2 = wg.asarray(np.array([[0, 1, 2, 3]] * 3, dtype=np.int32) % 3)
        self.sorted1 = wg.asarray(np.array([-1.0, 0.5, 2.0, 7.0], dtype=np.float32))
        self.col = wg.asarray(H[:, :1])  # (3, 1)
        self.v3 = wg.asarray(H[:2, :3])  # (2, 3), for cross
        self.spd = wg.asarray(np.array([[4, 1, 0], [1, 3, 1], [0, 1, 2]], dtype=np.float32))  # for the factorisations
        self.baseline_arrays = [self.f, self.i, self.b, self.idx, self.idx2, self.sorted1, self.col, self.v3,
                                self.spd]
        self.baseline_values = [x.numpy() for x in self.baseline_arrays]
        # sentinels
        self.s_host = wg.asarray(H.copy())
        self.s_device = wg.asarray(H.copy()).copy()
        self.s_both = wg.asarray(H.copy())
        self.s_both.copy()
        self.s_view = self.s_device[1:, ::-2]
        self.s_other = wg.asarray(H.copy(), device=other).copy()
        # bad arrays
        self.wrong_shape = wg.asarray(np.ones((2, 5), np.float32))
        self.on_other = wg.asarray(H.copy(), device=other)
        # a huge broadcast view: 2**33 elements over one float (more than any kernel addresses)
        self.huge_view = wg.broadcast_to(wg.ones((1, 1)), (1, 2**33))
        # a copy of every baseline array on a device that is then closed
        closing = wg.open_device()
        self.on_closed = wg.asarray(H.copy(), device=closing)
        self._closed = {id(x): wg.asarray(x.numpy(), device=closing) for x in self.baseline_arrays}
        closing.close()

    def closed_like(self, good) -> wg.Array:
        """An array like ``good`` (the baseline value) on the closed device."""
        return self._closed.get(id(good), self.on_closed)

    def check(self, what: str) -> None:
        for x, want in zip(self.baseline_arrays, self.baseline_values):
            got = x.numpy()
            assert got.tobytes() == want.tobytes(), f"a baseline input changed after {what}"
        for x in (self.s_host, self.s_device, self.s_both):
            assert x.numpy().tobytes() == H.tobytes(), f"a sentinel changed after {what}"
        assert self.s_view.numpy().tobytes() == H[1:, ::-2].tobytes(), f"a sentinel view changed after {what}"
        assert (self.s_device + 1).numpy().tobytes() == (H + 1).tobytes(), f"the device computes wrongly after {what}"
        assert wg.sum(self.s_host).item() == float(H.sum()), f"the device reduces wrongly after {what}"
        assert (self.s_other * 2).numpy().tobytes() == (H * 2).tobytes(), f"the second device fails after {what}"


# -- baseline calls ------------------------------------------------------------------------------------------------
def good_values(name: str, inp: Inputs) -> dict:
    """Argument values (by parameter name) of a call of ``name`` that works."""
    f, i, b = inp.f, inp.i, inp.b
    generic = {"x": f, "x1": f, "x2": f, "condition": b, "obj": [1, 2], "arrays": [f, f], "shape": (2, 3),
               "fill_value": 1.5, "start": 0, "stop": 5, "num": 4, "n_rows": 3, "indices": inp.idx, "repeats": 2,
               "repetitions": (2, 1), "shift": 1, "source": 0, "destination": 1, "axes": (1, 0),
               "dtype": wg.float32, "type": wg.float32, "from_": wg.int8, "to": wg.int16, "kind": "integral",
               "arrays_and_dtypes": (f, wg.int8),
               # numpy's parameter names (the numpy functions of api/numpy_extras.py)
               "a": f, "b": f, "a1": f, "a2": f, "ary": f, "m": f, "v": f, "array": f, "tup": [f, f],
               "indices_or_sections": 3, "arys": (f,), "operands": (f,), "args": (f,), "subscripts": "ij->ji",
               "bins": inp.sorted1, "xp": inp.sorted1, "fp": inp.sorted1, "pad_width": 1, "q": 0.5, "n": 2}
    special = {
        "matmul": {"x2": f.mT}, "linalg.matmul": {"x2": f.mT}, "tensordot": {"axes": 1, "x2": f.mT},
        "searchsorted": {"x1": inp.sorted1}, "take_along_axis": {"indices": inp.idx2}, "squeeze": {"x": inp.col,
                                                                                                  "axis": 1},
        "meshgrid": {"arrays": (inp.sorted1, inp.idx)}, "broadcast_arrays": {"arrays": (f, inp.col)},
        "broadcast_to": {"shape": (2, 3, 4)}, "reshape": {"shape": (4, 3)}, "cumulative_sum": {"axis": 1},
        "expand_dims": {"axis": 1},
        "cumulative_prod": {"axis": 1}, "linalg.cross": {"x1": inp.v3, "x2": inp.v3}, "astype": {"dtype": wg.int32},
        "isdtype": {"dtype": wg.int8}, "linalg.outer": {"x1": inp.sorted1, "x2": inp.idx},
        "linalg.eigh": {"x": f[:, :3]}, "linalg.eigvalsh": {"x": f[:, :3]},  # square (the lower triangle is read)
        "linalg.cholesky": {"x": inp.spd}, "linalg.inv": {"x": inp.spd}, "linalg.det": {"x": inp.spd},
        "linalg.slogdet": {"x": inp.spd}, "linalg.solve": {"x1": inp.spd, "x2": inp.col},
        "linalg.matrix_power": {"x": inp.spd, "n": 2},
        "from_dlpack": {"x": np.arange(4, dtype=np.float32)}, "iinfo": {"type": wg.int32}, "clip": {"min": -1.0, "max": 1.0},
        "logical_and": {"x1": b, "x2": b}, "logical_or": {"x1": b, "x2": b}, "logical_xor": {"x1": b, "x2": b},
        "logical_not": {"x": b},
        "convolve": {"a": inp.sorted1, "v": inp.sorted1}, "percentile": {"q": 50.0}, "bincount": {"x": inp.idx},
        "dot": {"b": f.mT}, "inner": {"b": f}, "vdot": {"b": f},
    }
    for bit in ("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"):
        special[bit] = {"x1": i, "x2": i}
    special["bitwise_invert"] = {"x": i}
    values = dict(generic)
    values.update(special.get(name, {}))
    return values


# parameters passed in the baseline even though they have defaults
BASELINE_OPTIONAL = {"cumulative_sum": {"axis"}, "cumulative_prod": {"axis"}, "clip": {"min", "max"},
                     "tensordot": {"axes"}}


def build(sig: inspect.Signature, values: dict) -> tuple[list, dict]:
    """Positional and keyword arguments for ``values`` (parameter name -> value) under ``sig``."""
    params = list(sig.parameters.values())
    args, kwargs = [], {}
    for k, p in enumerate(params):
        if p.kind == p.VAR_POSITIONAL:
            args.extend(values.get(p.name, ()))
        elif p.kind == p.POSITIONAL_ONLY or (p.name in values and any(
                q.kind == q.VAR_POSITIONAL and values.get(q.name) for q in params[k + 1:])):  # einsum(subscripts, *ops)
            if p.name in values:
                args.append(values[p.name])
            elif any(q.name in values for q in params[k + 1:] if q.kind == q.POSITIONAL_ONLY):
                args.append(p.default)
        elif p.name in values:
            kwargs[p.name] = values[p.name]
    return args, kwargs


def baseline(name: str, fn, inp: Inputs) -> tuple[inspect.Signature, dict]:
    """The signature and the values of a working call: required parameters, plus BASELINE_OPTIONAL ones."""
    sig = inspect.signature(fn)
    good = good_values(name, inp)
    values = {}
    for p in sig.parameters.values():
        if p.kind == p.VAR_POSITIONAL or p.default is p.empty or p.name in BASELINE_OPTIONAL.get(name, ()):
            if p.kind == p.VAR_KEYWORD:
                continue
            values[p.name] = good[p.name]
    return sig, values


# -- roles and classes of bad input ---------------------------------------------------------------------------------
SEQUENCE_PARAMS = {"arrays", "arrays_and_dtypes", "tup", "arys", "operands"}  # a sequence of arrays
ARRAY_PARAMS = {"x", "x1", "x2", "condition", "indices", "obj", "arrays", "arrays_and_dtypes",
                "a", "b", "a1", "a2", "ary", "m", "v", "array", "xp", "fp", "bins", "tup", "arys", "operands"}
AXIS_PARAMS = {"axis", "source", "destination"}
SIZE_PARAMS = {"shape", "num", "n_rows", "n_cols", "repeats", "repetitions", "n"}
DTYPE_PARAMS = {"dtype", "type", "from_", "to"}
NUMBER_PARAMS = {"fill_value", "start", "stop", "step", "min", "max", "correction", "offset", "k", "shift", "ord"}
CHOICE_PARAMS = {"side", "indexing", "kind", "keepdims", "copy", "endpoint", "descending", "stable",
                 "include_initial"}


def role(fn_name: str, param: str) -> str | None:
    if fn_name == "permute_dims" and param == "axes":
        return "axis"
    if fn_name.endswith("tensordot") and param == "axes":
        return "size"
    for r, names in (("array", ARRAY_PARAMS), ("axis", AXIS_PARAMS), ("size", SIZE_PARAMS), ("dtype", DTYPE_PARAMS),
                     ("number", NUMBER_PARAMS), ("choice", CHOICE_PARAMS)):
        if param in names:
            return r
    if param == "device":
        return "device"
    return None


def bad_inputs(inp: Inputs, fn_name: str, param: str, good, sig_params: list[str]):
    """(class of bad input, value) pairs for one parameter."""
    r = role(fn_name, param)
    array_params = [p for p in sig_params if role(fn_name, p) == "array"]
    out = []

    def seq(v):  # sequence parameters take the bad value as one of their elements
        if param in SEQUENCE_PARAMS:
            return (v,) + tuple(good[1:]) if isinstance(good, tuple) else [v] + list(good[1:])
        return v

    if r == "array":
        out += [("non-array object", seq(v)) for v in (object(), "abc", None)]
        out += [("unsupported kind", seq(v)) for v in (inp.b, inp.f, inp.i)]
        out += [("0-d or empty array", seq(v)) for v in (wg.asarray(np.float32(2.5)), wg.zeros((0, 4)))]
        out.append(("array of a closed device", seq(inp.closed_like(good))))
        if param == array_params[0] and param not in SEQUENCE_PARAMS | {"obj"}:
            out.append(("huge broadcast view", inp.huge_view))
        if len(array_params) > 1 and param != array_params[0] or param in SEQUENCE_PARAMS:
            partner = good[1] if param in SEQUENCE_PARAMS and len(good) > 1 else good
            if isinstance(partner, wg.Array) or param not in SEQUENCE_PARAMS:
                if param in SEQUENCE_PARAMS:
                    out.append(("wrong-shaped partner", type(good)([good[0], inp.wrong_shape])))
                    out.append(("partner on another device", type(good)([good[0], inp.on_other])))
                else:
                    out.append(("wrong-shaped partner", inp.wrong_shape))
                    # the partner as it should be but on another device: only the device is wrong
                    other = wg.asarray(good.numpy(), device=inp.other) if isinstance(good, wg.Array) else inp.on_other
                    out.append(("partner on another device", other))
    elif r == "axis":
        bad = [99, -99] if param != "axes" else [(0, 99), (0, -99)]
        out += [("out-of-range axis", v) for v in bad]
        out += [("non-integer axis", v) for v in ((1.5, math.nan, "0") if param != "axes" else ((0, 1.5), "01"))]
    elif r == "size":
        neg = (2, -3) if param in ("shape", "repetitions") else -1
        out += [("negative size", v) for v in (neg, -5)]
        out += [("non-integer size", v) for v in (2.5, math.nan, "3")]
        out += [("huge size", v) for v in (2**40, 2**64, (2**40, 2**40) if param == "shape" else 2**63)]
    elif r == "dtype":
        # complex64/complex128 are supported now: unsupported means object, str, void, datetime, long double
        out += [("unsupported dtype", v) for v in ("V8", np.str_, "M8[s]", "abc", object, 7)]
    elif r == "device":
        out += [("not a device", v) for v in ("cpu", 0, object())]
    elif r == "number":
        out += [("bad scalar", v) for v in ("abc", b"x", math.nan, 2**70, [1, 2])]
    elif r == "choice":
        out += [("bad choice", v) for v in ("nope", 3, [True])]
    return out


# checks of the message / class for some classes of bad input: (predicate on the exception, what was wanted)
MESSAGE_RULES = {
    "partner on another device": (lambda e: isinstance(e, ValueError) and "device" in str(e),
                                  "a ValueError naming the devices"),
    # alone: RuntimeError; with a partner on an open device: the ValueError naming both (one of them closed)
    "array of a closed device": (lambda e: isinstance(e, (RuntimeError, ValueError)) and "closed" in str(e),
                                 "an error saying the device is closed"),
    "out-of-range axis": (lambda e: isinstance(e, (IndexError, ValueError)), "an AxisError/IndexError/ValueError"),
    "unsupported dtype": (lambda e: isinstance(e, TypeError), "a TypeError"),
}


def short(v) -> str:
    if isinstance(v, wg.Array):
        return f"<{v.dtype.name}{list(v.shape)}>"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(short(e) for e in v) + "]"
    r = repr(v)
    return r if len(r) < 40 else r[:37] + "..."


def run_sweep(other) -> dict:
    inp = Inputs(other)
    log = WgpuLog()
    logger = logging.getLogger("wgpu")
    logger.addHandler(log)
    failures: list[str] = []
    baseline_failures: list[str] = []
    try:
        functions = public_functions()
        SUMMARY["functions"] = len(functions)
        for name, fn in functions.items():
            sig, values = baseline(name, fn, inp)
            args, kwargs = build(sig, values)
            try:
                fn(*args, **kwargs)
            except Exception as e:  # noqa: BLE001
                baseline_failures.append(f"{name}: {type(e).__name__}: {e}")
                continue
            params = [p.name for p in sig.parameters.values() if p.kind != p.VAR_KEYWORD]
            for param in params:
                good = values.get(param, good_values(name, inp).get(param))
                for cls, bad in bad_inputs(inp, name, param, good, params):
                    trial = dict(values)
                    trial[param] = bad
                    a, k = build(sig, trial)
                    call = f"{name}({param}={short(bad)})"
                    logged = len(log.records)
                    SUMMARY["pairs"] += 1
                    SUMMARY["pairs_by_function"][name] += 1
                    SUMMARY["functions_by_class"][cls].add(name)
                    try:
                        res = fn(*a, **k)
                    except Exception as e:  # noqa: BLE001 - classifying every exception is the point
                        SUMMARY["raised"] += 1
                        SUMMARY["by_class"][cls][type(e).__name__] += 1
                        SUMMARY["outcomes"].append((cls, call, type(e).__name__))
                        why = unexpected(e)
                        if why is None and cls in MESSAGE_RULES and not MESSAGE_RULES[cls][0](e):
                            why = f"wanted {MESSAGE_RULES[cls][1]}"
                        if why is None and cls == "unsupported kind" and name in EW_OPS and not isinstance(e, TypeError):
                            why = "an elementwise function should reject an unsupported dtype with TypeError"
                        if why:
                            failures.append(f"{call}: {why}: {type(e).__name__}: {str(e)[:200]}")
                        del e
                        try:
                            inp.check(call)
                        except AssertionError as ae:
                            failures.append(str(ae))
                            return {"failures": failures, "baseline_failures": baseline_failures}
                    else:
                        SUMMARY["results"] += 1
                        SUMMARY["by_class"][cls]["result"] += 1
                        SUMMARY["outcomes"].append((cls, call, "result"))
                        del res
                    if len(log.records) > logged:
                        failures.append(f"{call}: wgpu logged {[r.getMessage()[:200] for r in log.records[logged:]]}")
        wg.default_device().synchronize()
        inp.check("the sweep")
    finally:
        logger.removeHandler(log)
    return {"failures": failures, "baseline_failures": baseline_failures}


@pytest.fixture(scope="module")
def sweep():
    other = wg.open_device()
    try:
        yield run_sweep(other)
    finally:
        other.close()


def test_every_baseline_call_works(sweep):
    assert not sweep["baseline_failures"], "\n".join(sweep["baseline_failures"])


def test_bad_input_gives_expected_exceptions(sweep):
    assert not sweep["failures"], f"{len(sweep['failures'])} failures:\n" + "\n".join(sweep["failures"])


def test_sweep_coverage(sweep):
    assert SUMMARY["functions"] >= 130
    assert SUMMARY["pairs"] > 1500
    for cls in ("non-array object", "unsupported kind", "wrong-shaped partner", "out-of-range axis",
                "negative size", "partner on another device", "array of a closed device", "unsupported dtype"):
        assert sum(SUMMARY["by_class"][cls].values()) > 0, cls
    # every function meets several bad inputs, and every function taking an array meets non-array objects
    few = {name: SUMMARY["pairs_by_function"][name] for name in public_functions() if SUMMARY["pairs_by_function"][name] < 3}
    assert not few, few
    no_array = set(public_functions()) - SUMMARY["functions_by_class"]["non-array object"]
    assert no_array <= {"arange", "linspace", "eye", "empty", "zeros", "ones", "full", "can_cast", "finfo", "iinfo",
                        "isdtype"}, no_array
