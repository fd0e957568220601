"""Fusion: chains of elementwise ops (and one final reduction) computed by one kernel.

Two front ends share one expression form (``Node``) and one back end (``kernels/fused.py``):

* ``Fused`` (``wg.fuse``) traces a Python function with ``Proxy`` values once per input signature (dtypes, shapes,
  strides, offsets, which arguments share a base, which are scalars and their types), keeps the program and its
  launch plan under that key, and on later calls goes straight to one dispatch.
* lazy mode (``wg.lazy()``): elementwise results are deferred arrays over a ``LazyMirror`` (no side valid, nothing
  allocated) that holds their expression; consuming one in another elementwise op inlines it; anything else that
  touches its mirror (a read, a non-elementwise op, an in-place write) computes it with one kernel first.  A
  second use, or a chain past ``MAX_STEPS`` ops or ``MAX_LEAVES`` inputs, computes the operand first.

Every op node carries the eager op's dtype decision (``elementwise._decision``): the fused kernel stores each
intermediate exactly as the eager op would have (``kernels/fused.py``), so the results are the eager results bit
for bit.  When one kernel cannot do it (buffers beyond one binding, too many buffers or dimensions, empty arrays),
the nodes run one by one through the eager ops: the same results, without the fusion.
"""
from __future__ import annotations

import importlib
import math
import sys
import threading
import weakref
from typing import Any, Callable, Sequence

import numpy as np

from .. import dtypes as _dt
from .._array import _OPERATORS, Array
from ..alloc.mirror import Mirror
from ..dtypes import DType
from ..kernels import elementwise as _ewk, fused as _fk, reduce as _red, rtable
from ..kernels.ewtable import OPS as EW_OPS
from ..kernels.layout import View, broadcast_strides, contiguous_strides
from . import axes as _axes
from .core import SCALARS, Traced, astype, check_supported, new_array, scalar_for
from .reduction import reduce
from .shape import broadcast_shapes

_ew = importlib.import_module(".elementwise", __package__)  # the module (the package exports its function)

MAX_STEPS = 32  # ops one deferred expression grows to before its operands are computed
MAX_LEAVES = 6  # distinct input arrays of one deferred expression
REDUCTIONS = ("sum", "prod", "max", "min", "mean", "any", "all")


class Node:
    """One value of an expression: a leaf (an input array), a scalar, or an op over nodes with its dtype decision.
    Fused traces give leaves and scalars argument positions (``value`` an int); lazy ones hold the array itself
    and the scalar's value."""

    __slots__ = ("kind", "name", "args", "dtype", "shape", "value", "decision", "steps")

    def __init__(self, kind: str, dtype, shape: tuple[int, ...], value: Any = None, name: str = "",
                 args: tuple = (), decision: tuple | None = None, steps: int = 0) -> None:
        self.kind, self.dtype, self.shape, self.value = kind, dtype, shape, value
        self.name, self.args, self.decision, self.steps = name, args, decision, steps


def op_node(name: str, args: Sequence[Node], dtype: DType | None = None) -> Node:
    """The node of eager ``elementwise(name, *args, dtype=dtype)``: its dtype decision and broadcast shape, or the
    eager op's error.  ``copy`` with a dtype is ``astype``."""
    op = EW_OPS[name]
    if len(args) != op.arity:
        raise TypeError(f"{name} takes {op.arity} arrays, got {len(args)}")
    if name in _ew.COMPARISONS and any(a.kind == "scalar" and issubclass(a.dtype, (float, np.floating))
                                       for a in args) and any(a.kind != "scalar" and a.dtype.kind in "iu" for a in args):
        # numpy compares an integer array with a float scalar by the scalar's value (ops/elementwise)
        raise TypeError(f"wg.fuse: {name} of an integer array with a float scalar is not fused (numpy answers it "
                        "by the scalar's value); compare with an array or an integer")
    key = (name, *[a.dtype for a in args])
    decision = _ew._DECISIONS.get(key)
    if decision is None:
        decision = _ew._DECISIONS[key] = _ew._decide(name, key[1:])
    shape = broadcast_shapes(name, [a.shape for a in args if a.kind != "scalar"])
    out = decision[4] if dtype is None else dtype
    return Node("op", out, shape, name=name, args=tuple(args), decision=decision,
                steps=1 + sum(a.steps for a in args))


# -- from nodes to a program ----------------------------------------------------------------------------------
class _Built:
    """A program for some output nodes, with the leaves and scalar slots it reads, in its order."""

    def __init__(self, outputs: Sequence[Node]) -> None:
        self.leaves: list[Node] = []
        self.slots: list[tuple[Node, DType]] = []
        self.steps: list[_fk.Step] = []
        self.nodes: list[Node] = []
        self.needs: set[DType] = set()
        refs: dict[int, tuple[str, int]] = {}
        leaf_of: dict[int, int] = {}
        for out in outputs:
            self._visit(out, refs, leaf_of)
        self.outputs = tuple(refs[id(o)][1] for o in outputs)
        self.program = _fk.Program(tuple(self.steps), tuple(n.dtype for n in self.leaves),
                                   tuple(sd for _, sd in self.slots), self.outputs)

    def _leaf_key(self, node: Node):
        return ("arg", node.value) if isinstance(node.value, int) else ("array", id(node.value))

    def _visit(self, node: Node, refs: dict, leaf_of: dict) -> tuple[str, int]:
        got = refs.get(id(node))
        if got is not None:
            return got
        if node.kind == "leaf":
            lk = self._leaf_key(node)
            if lk not in leaf_of:
                leaf_of[lk] = len(self.leaves)
                self.leaves.append(node)
            ref = ("in", leaf_of[lk])
        else:
            op, scalar_dts, cdt, cdts, out_dt, needs = node.decision
            self.needs.update(needs)
            args, dts = [], []
            for a, sd in zip(node.args, scalar_dts):
                if a.kind == "scalar":
                    args.append(("s", len(self.slots)))
                    self.slots.append((a, sd))
                    dts.append(sd)
                else:
                    args.append(self._visit(a, refs, leaf_of))
                    dts.append(a.dtype)
            if cdts is None:
                cdts = [_dt.bool if op.compute == "bool" else cdt] * op.arity
            self.steps.append(_fk.Step(op, tuple(args), tuple(dts), tuple(cdts), cdt, node.dtype))
            self.nodes.append(node)
            ref = ("t", len(self.steps) - 1)
        refs[id(node)] = ref
        return ref


def _slot(mirrors: list, m: Mirror) -> int:
    """The position of ``m`` in ``mirrors`` (by identity: Mirror has no __eq__), appended if new."""
    for k, mm in enumerate(mirrors):
        if mm is m:
            return k
    mirrors.append(m)
    return len(mirrors) - 1


def _slots_of(arrays: Sequence[Array]) -> tuple[int, ...]:
    """The binding of each input: views of one base share one."""
    mirrors: list = []
    return tuple(_slot(mirrors, a.mirror) for a in arrays)


def _buffers(arrays: Sequence[Array], slots: Sequence[int]) -> list:
    bufs: list = [None] * (max(slots, default=-1) + 1)
    for a, s in zip(arrays, slots):
        if bufs[s] is None:
            bufs[s] = a.mirror.buffer()
    return bufs


class _Eager:
    """Runs nodes one by one through the eager ops (the fallback, with the eager results by construction)."""

    def __init__(self, leaf: Callable[[Node], Array], scalar: Callable[[Node], Any]) -> None:
        self.leaf, self.scalar, self.env = leaf, scalar, {}

    def __call__(self, node: Node):
        got = self.env.get(id(node))
        if got is not None:
            return got
        if node.kind == "leaf":
            v = self.leaf(node)
        elif node.kind == "scalar":
            v = self.scalar(node)
        else:
            args = [self(a) for a in node.args]
            st = _state()
            st.suspended += 1
            try:
                if node.name == "copy" and node.args[0].kind != "scalar":
                    v = astype(args[0], node.dtype)
                else:
                    v = _ew.elementwise(node.name, *args, dtype=None if node.dtype is node.decision[4]
                                        else node.dtype)
            finally:
                st.suspended -= 1
        self.env[id(node)] = v
        return v


# -- tracing ------------------------------------------------------------------------------------------------------
def _api_caller() -> str:
    """The outermost ``wgarray.api`` function on the stack: the op a traced value was handed to."""
    name = ""
    f = sys._getframe(2)
    while f is not None:
        if f.f_globals.get("__name__", "").startswith("wgarray.api"):
            name = f.f_code.co_name
        f = f.f_back
    return name or "this operation"


def _unsupported(what: str) -> TypeError:
    return TypeError(f"wg.fuse: {what} is not supported inside a fused function (only elementwise ops, "
                     "comparisons, where, astype and one final reduction are)")


class Proxy(Traced):
    """A traced value: records the ops applied to it into its tracer's expression."""

    __slots__ = ("node", "tracer", "reduction")

    def __init__(self, node: Node, tracer: "_Tracer", reduction: tuple | None = None) -> None:
        self.node, self.tracer, self.reduction = node, tracer, reduction

    @property
    def dtype(self) -> DType:
        return self.node.dtype

    @property
    def shape(self) -> tuple[int, ...]:
        return self.node.shape

    @property
    def ndim(self) -> int:
        return len(self.node.shape)

    def _record(self, name: str, args: Sequence[Any], dtype: DType | None) -> "Proxy":
        return Proxy(op_node(name, [self.tracer.node_of(a) for a in args], dtype), self.tracer)

    def _astype(self, dtype: Any) -> "Proxy":
        d = _dt.as_dtype(dtype)
        node = self.tracer.node_of(self)
        return self if d is node.dtype else Proxy(op_node("copy", [node], d), self.tracer)

    def astype(self, dtype: Any, copy: bool = True) -> "Proxy":
        return self._astype(dtype)

    def _reduce(self, name: str, axis: Any, keepdims: bool, dtype: Any) -> "Proxy":
        node = self.tracer.node_of(self)
        if name not in REDUCTIONS:
            raise _unsupported(name)
        if dtype is not None and name in ("sum", "prod") and _dt.as_dtype(dtype) is _dt.bool:
            name, dtype = ("any" if name == "sum" else "all"), None  # as the eager reduce: numpy's rule
        op = rtable.OPS[name]
        axes = _axes.reduced(axis, len(node.shape))
        res = rtable.result(op, node.dtype, None if dtype is None else _dt.as_dtype(dtype))
        return Proxy(node, self.tracer, (name, axes, bool(keepdims), None if dtype is None else _dt.as_dtype(dtype),
                                         res))

    def sum(self, axis=None, dtype=None, keepdims=False):
        return self._reduce("sum", axis, keepdims, dtype)

    def prod(self, axis=None, dtype=None, keepdims=False):
        return self._reduce("prod", axis, keepdims, dtype)

    def mean(self, axis=None, keepdims=False):
        return self._reduce("mean", axis, keepdims, None)

    def max(self, axis=None, keepdims=False):
        return self._reduce("max", axis, keepdims, None)

    def min(self, axis=None, keepdims=False):
        return self._reduce("min", axis, keepdims, None)

    def any(self, axis=None, keepdims=False):
        return self._reduce("any", axis, keepdims, None)

    def all(self, axis=None, keepdims=False):
        return self._reduce("all", axis, keepdims, None)

    # what a fused function may not do with a traced value
    def __bool__(self):
        raise TypeError("wg.fuse: the truth value of a traced array is unknown while tracing (no data-dependent "
                        "control flow in a fused function; use where)")

    def __array__(self, *args, **kwargs):
        raise _unsupported(_api_caller())

    def __array_function__(self, func, types, args, kwargs):
        raise _unsupported(f"numpy's {func.__name__}")

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        raise _unsupported(f"numpy's {ufunc.__name__}")

    def __getitem__(self, key):
        raise _unsupported("indexing")

    def __setitem__(self, key, value):
        raise _unsupported("item assignment")

    def __len__(self):
        raise _unsupported("len")

    def __iter__(self):
        raise _unsupported("iteration")

    def __matmul__(self, other):
        raise _unsupported("matmul")

    __rmatmul__ = __matmul__

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        raise _unsupported(name)


def _proxy_binary(name: str, reflected: bool = False):
    def method(self: Proxy, other):
        if not isinstance(other, (Proxy, Array) + SCALARS):
            return NotImplemented
        return self._record(name, (other, self) if reflected else (self, other), None)
    method.__name__ = name
    return method


for _py, _op in _OPERATORS.items():
    setattr(Proxy, f"__{_py}__", _proxy_binary(_op))
    setattr(Proxy, f"__r{_py}__", _proxy_binary(_op, reflected=True))
for _py, _op in {"lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal",
                 "eq": "equal", "ne": "not_equal"}.items():
    setattr(Proxy, f"__{_py}__", _proxy_binary(_op))
for _py, _op in {"neg": "negative", "pos": "positive", "abs": "abs", "invert": "bitwise_invert"}.items():
    setattr(Proxy, f"__{_py}__", (lambda op: lambda self: self._record(op, (self,), None))(_op))


class _Tracer:
    """Turns the values a fused function sees into nodes: its arguments (by position), arrays it captures, and
    Python or numpy scalars (constants, kept by value)."""

    def __init__(self) -> None:
        self.captured: list[Array] = []

    def node_of(self, a: Any) -> Node:
        if isinstance(a, Proxy):
            if a.tracer is not self:
                raise TypeError("wg.fuse: a traced value of another fused function")
            if a.reduction is not None:
                raise TypeError("wg.fuse: a reduction must be the fused function's last operation")
            return a.node
        if type(a) is Array:
            self.captured.append(a)
            return Node("leaf", a.dtype, a.shape, a)
        if isinstance(a, SCALARS):
            return Node("scalar", type(a), (), ("const", a))
        raise TypeError(f"wg.fuse: unsupported operand type {type(a).__name__}")


class _Entry:
    """One traced signature: the program, where its inputs and scalars come from, and its launch plan."""

    def __init__(self, fused: "Fused", args: Sequence[Any]) -> None:
        tracer = _Tracer()
        proxies = []
        self.device = None
        for pos, a in enumerate(args):
            if type(a) is Array:
                proxies.append(Proxy(Node("leaf", a.dtype, a.shape, pos), tracer))
                if self.device is None:
                    self.device = a.device
            elif isinstance(a, SCALARS):
                proxies.append(Proxy(Node("scalar", type(a), (), pos), tracer))
            else:
                raise TypeError(f"wg.fuse: arguments must be wgarray arrays or scalars, not {type(a).__name__}")
        if self.device is None:
            raise TypeError("wg.fuse: a fused function needs at least one array argument")
        result = fused.func(*proxies)
        self.single = not isinstance(result, tuple)
        results = [result] if self.single else list(result)
        self.reduction = None
        for r in results:
            if not isinstance(r, Proxy):
                raise TypeError(f"wg.fuse: a fused function must return traced arrays, not {type(r).__name__}")
            if r.reduction is not None:
                if len(results) > 1:
                    raise TypeError("wg.fuse: a fused function with a reduction returns that reduction alone")
                self.reduction = r.reduction
        self.passthrough = [r.node.value if r.node.kind == "leaf" else None for r in results]
        outs = [r.node for r in results]
        if self.reduction is not None and outs[0].kind == "leaf":  # a plain reduction of an input
            outs = [op_node("positive", [outs[0]]) if outs[0].dtype.kind != "b" else op_node("copy", [outs[0]])]
            self.passthrough = [None]
        ops = [o for o in outs if o.kind == "op"]
        self.built = _Built(ops) if ops else None
        self.outs = outs
        self.captured = tracer.captured
        self.plan = None
        self.shape = ops[0].shape if ops else ()
        if self.built is not None:
            for d in self.built.needs:
                check_supported(d, self.device)
            arrays = self._arrays(args)
            self.slots = _slots_of(arrays)
            n = math.prod(self.shape)
            if n and all(o.shape == self.shape for o in ops):
                if self.reduction is None:
                    self.plan = _fk.plan(self.device, self.built.program, arrays, self.slots, self.shape)
                else:
                    self._plan_reduction(arrays)

    def _arrays(self, args) -> list[Array]:
        return [args[n.value] if isinstance(n.value, int) else n.value for n in self.built.leaves]

    def _plan_reduction(self, arrays: list[Array]) -> None:
        name, axes, keepdims, dtype, res = self.reduction
        check_supported(res, self.device)
        shape = self.shape
        kept = tuple(n for d, n in enumerate(shape) if d not in axes)
        m = math.prod(shape[d] for d in axes)
        out_dt = self.built.program.steps[self.built.outputs[0]].out
        view = View(None, shape, contiguous_strides(shape), 0, out_dt)
        if not (m and math.prod(kept) and _fk.fits(self.device, self.built.program, arrays, self.slots, shape)
                and _red.fits(self.device, view, math.prod(kept)) and _red.addressable(view, axes)):
            return
        function, members, bindings, order = _fk.map_function(self.built.program, self.slots)
        self.map = (("fused", self.built.program, self.slots), function, members, bindings, order, view, kept,
                    tuple(broadcast_strides(a.shape, a.strides, shape) for a in arrays),
                    tuple(a.offset for a in arrays))
        self.plan = "map"

    def _scalars(self, args) -> list:
        out = []
        for node, sd in self.built.slots:
            v = node.value
            out.append(scalar_for(args[v] if isinstance(v, int) else v[1], sd))
        return out

    def run(self, args: Sequence[Any]):
        if self.plan is None:
            return self._eager(args)
        arrays = self._arrays(args)
        bufs = _buffers(arrays, self.slots)
        scalars = self._scalars(args)
        dev = self.device
        if self.reduction is None:
            n = math.prod(self.shape)
            mirrors = [Mirror(self.built.program.steps[k].out, n, dev) for k in self.built.outputs]
            _fk.run(dev, self.plan, bufs, mirrors, scalars)
            results = iter(Array._contiguous(m, self.shape) for m in mirrors)
            outs = [args[p] if p is not None else next(results) for p in self.passthrough]
            return outs[0] if self.single else tuple(outs)
        name, axes, keepdims, dtype, res = self.reduction
        key, function, members, bindings, order, view, kept, strides, offsets = self.map
        mapped = _red.Map(key, view.dtype, function, members, bindings, tuple(bufs), strides, offsets,
                          _fk.scalar_bytes(scalars, order), tuple(self.built.program.dtypes()))
        out = new_array(kept, res, dev)
        _red.run(dev, rtable.OPS[name], view, axes, out, mapped)
        if keepdims:
            return Array(out.mirror, tuple(1 if d in axes else n for d, n in enumerate(self.shape)))
        return out

    def _eager(self, args: Sequence[Any]):
        ev = _Eager(lambda n: args[n.value] if isinstance(n.value, int) else n.value,
                    lambda n: args[n.value] if isinstance(n.value, int) else n.value[1])
        outs = [ev(o) for o in self.outs]
        if self.reduction is not None:
            name, axes, keepdims, dtype, res = self.reduction
            return reduce(name, outs[0], axes, keepdims, dtype)
        return outs[0] if self.single else tuple(outs)


_MAX_ENTRIES = 1024


class Fused:
    """A fused function: traced and compiled once per input signature, then one dispatch a call."""

    def __init__(self, func: Callable, kernel_name: str | None = None) -> None:
        self.func = func
        self.kernel_name = kernel_name or getattr(func, "__name__", "fused")
        self._cache: dict[tuple, _Entry] = {}

    def __call__(self, *args):
        key = []
        mirrors: list = []
        for a in args:
            if type(a) is Array:
                m = a.mirror
                key.append((m.dtype, a.shape, a.strides, a.offset, _slot(mirrors, m), m.device))
            else:
                key.append(type(a))
        tkey = tuple(key)
        entry = self._cache.get(tkey)
        if entry is None:
            if len(self._cache) >= _MAX_ENTRIES:
                self._cache.clear()
            entry = _Entry(self, args)
            if entry.captured:  # arrays from the enclosing scope: their layout is not in the key
                return entry.run(args)
            self._cache[tkey] = entry
        if entry.device.closed:
            raise RuntimeError(f"{entry.device} has been {entry.device.stream.ended}")
        return entry.run(args)

    def clear_cache(self) -> None:
        self._cache.clear()


# -- lazy mode ------------------------------------------------------------------------------------------------------
class _State(threading.local):
    depth = 0
    suspended = 0


_STATE = _State()


def _state() -> _State:
    return _STATE


class LazyMirror(Mirror):
    """The mirror of a deferred elementwise result: no side is valid and nothing is allocated until something
    touches it, which computes its expression (one fused kernel) into it first."""

    __slots__ = ("expr", "uses")

    def __init__(self, dtype: DType, size: int, device, expr: Node) -> None:
        super().__init__(dtype, size, device)
        self.expr: Node | None = expr
        self.uses = 0

    def materialise(self) -> None:
        expr = self.expr
        if expr is None:
            return
        self.expr = None
        _compute(expr, self)

    @property
    def residency(self) -> frozenset[str]:
        return frozenset() if self.expr is not None else Mirror.residency.fget(self)  # type: ignore[attr-defined]

    def host(self):
        self.materialise()
        return super().host()

    def host_for_write(self, whole: bool = False):
        self.materialise()
        return super().host_for_write(whole)

    def buffer(self):
        self.materialise()
        return super().buffer()

    def buffer_for_write(self, whole: bool = False):
        self.materialise()
        return super().buffer_for_write(whole)

    def copy_to(self, other: Mirror) -> None:
        self.materialise()
        super().copy_to(other)

    def release_device(self) -> None:
        self.materialise()
        super().release_device()


def _compute(expr: Node, out: LazyMirror) -> None:
    built = _Built([expr])
    arrays = [n.value for n in built.leaves]
    dev = out.device
    slots = _slots_of(arrays)
    p = _fk.plan(dev, built.program, arrays, slots, expr.shape) if out.size else None
    if p is not None:
        scalars = [scalar_for(n.value[1], sd) for n, sd in built.slots]
        _fk.run(dev, p, _buffers(arrays, slots), [out], scalars)
        return
    res = _Eager(lambda n: n.value, lambda n: n.value[1])(expr)
    _ewk.run(dev, EW_OPS["copy"], [res], Array(out, expr.shape), res.dtype)


def _lazy_node(a: Any) -> Node:
    if type(a) is not Array:
        return Node("scalar", type(a), (), ("const", a))
    m = a.mirror
    if type(m) is LazyMirror and m.expr is not None:
        whole = a.offset == 0 and a.shape == m.expr.shape and a.strides == contiguous_strides(a.shape)
        if whole and m.uses == 0:
            m.uses = 1
            return m.expr
        m.materialise()  # a second use, or a view of it: computed once, then read
    return Node("leaf", a.dtype, a.shape, a)


def _defer(name: str, args: Sequence[Any], dtype: DType | None):
    """``elementwise``'s hook: trace into a fused function's expression, or defer inside ``wg.lazy()``."""
    for a in args:
        if isinstance(a, Proxy):
            return a._record(name, args, dtype)
    st = _STATE
    if not st.depth or st.suspended:
        return NotImplemented
    dev = None
    for a in args:
        if type(a) is Array:
            if dev is None:
                dev = a.device
            elif a.device is not dev:
                return NotImplemented
        elif not isinstance(a, SCALARS):
            return NotImplemented
    if dev is None or dev.closed:
        return NotImplemented
    try:
        node = op_node(name, [_lazy_node(a) for a in args], dtype)
    except (TypeError, ValueError, OverflowError):
        return NotImplemented  # the eager op raises the error
    leaves: set[int] = set()
    _collect_leaves(node, leaves)
    if node.steps > MAX_STEPS or len(leaves) > MAX_LEAVES:  # too long: compute the deferred operands first
        node = op_node(name, [_materialised(a) for a in args], dtype)
    n = math.prod(node.shape)
    for d in node.decision[5] + (node.dtype,):
        if d.feature is not None and d.feature not in dev.features:
            return NotImplemented
    if not 0 < n * node.dtype.device_itemsize <= dev.properties.limits.max_buffer_size:
        return NotImplemented
    try:
        for n_, sd in _Built([node]).slots:
            scalar_for(n_.value[1], sd)  # an out-of-range Python int raises now, as the eager op would
    except OverflowError:
        return NotImplemented
    mirror = LazyMirror(node.dtype, n, dev, node)
    ref = weakref.ref(mirror)
    seen: set[int] = set()
    for leaf in _leaf_nodes(node, seen):
        lm = leaf.value.mirror
        if lm.readers is None:
            lm.readers = []
        lm.readers.append(ref)
    return Array._contiguous(mirror, node.shape)


def _materialised(a: Any) -> Node:
    if type(a) is Array and type(a.mirror) is LazyMirror:
        a.mirror.materialise()
    return _lazy_node(a) if type(a) is not Array else Node("leaf", a.dtype, a.shape, a)


def _leaf_nodes(node: Node, seen: set[int]):
    if id(node) in seen:
        return
    seen.add(id(node))
    if node.kind == "leaf":
        yield node
    for a in node.args:
        yield from _leaf_nodes(a, seen)


def _collect_leaves(node: Node, out: set[int]) -> None:
    for leaf in _leaf_nodes(node, set()):
        out.add(id(leaf.value.mirror))


class lazy:
    """``with wg.lazy():`` elementwise results inside the block are deferred (see the module docstring)."""

    def __enter__(self) -> "lazy":
        _STATE.depth += 1
        _ew.LAZY += 1
        return self

    def __exit__(self, *exc) -> None:
        _STATE.depth -= 1
        _ew.LAZY -= 1


_ew.DEFER = _defer
