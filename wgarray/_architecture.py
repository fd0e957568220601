"""The README's architecture pictures, made from the code so that they cannot rot.

1. Layers: every module of the package (found by walking the folder), grouped into the layers of ``LAYERS``, with
   the imports between layers read from each module's source by ``ast`` (imports under ``if TYPE_CHECKING:`` are
   types only and left out).  An import of a layer above the importer's own is drawn red and listed.
2. ``c = a + b; c.numpy()``: the snippet is run under ``sys.setprofile`` (after a warm-up run, so pipelines are
   compiled and pools filled) and every call that crosses from one module into another is kept, collapsed into
   module-level steps: the walk down the layers and back.

Both are Mermaid diagrams written into README.md between ``<!-- architecture:begin -->`` and
``<!-- architecture:end -->``::

    python -m wgarray._architecture            # print the block
    python -m wgarray._architecture --write    # rewrite README.md's block
    python -m wgarray._architecture --check    # exit 1 when README.md's block is out of date (the test suite runs it)
"""
from __future__ import annotations

import argparse
import ast
import fnmatch
import gc
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
README = PACKAGE_DIR.parent / "README.md"
BEGIN, END = "<!-- architecture:begin -->", "<!-- architecture:end -->"

# The layers, bottom up: a module may import its own layer and the layers below it.  A module belongs to the first
# layer that names it exactly, else to the first layer with a matching pattern (fnmatch on the dotted name).
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("dtypes", ("wgarray.dtypes",)),
    ("runtime", ("wgarray.runtime", "wgarray.runtime.*")),
    ("alloc", ("wgarray.alloc", "wgarray.alloc.*")),
    ("device", ("wgarray.device",)),
    ("shaders/kernels", ("wgarray.shaders", "wgarray.shaders.*", "wgarray.kernels", "wgarray.kernels.*")),
    ("_array/ops", ("wgarray._array", "wgarray._ops", "wgarray.ops", "wgarray.ops.*")),
    ("api", ("wgarray.api", "wgarray.api.*", "wgarray._*", "wgarray.linalg", "wgarray.dask")),
    ("__init__", ("wgarray", "wgarray.__main__")),
]
# Upward imports that exist today, each made inside a function (so no import cycle at load time).  The check fails
# on any other; remove an entry when the code stops needing it.
KNOWN_UPWARD: dict[tuple[str, str], str] = {
    ("wgarray._array", "wgarray"): "operators call the namespace functions late",
    ("wgarray.api.inspection", "wgarray"): "capabilities() asks the whole namespace what it can do",
    ("wgarray._array", "wgarray.api.interop"): "numpy's protocols and methods (NEP 13/18) dispatch into api late",
    ("wgarray.api.numpy_extras", "wgarray"): "get_array_module returns the package itself",
}
TOOLS = {"wgarray._architecture"}  # this script: outside the layers


def layer_of(module: str) -> int:
    for i, (_, patterns) in enumerate(LAYERS):
        if module in patterns:
            return i
    for i, (_, patterns) in enumerate(LAYERS):
        if any(fnmatch.fnmatchcase(module, p) for p in patterns):
            return i
    raise LookupError(f"{module} is in no layer of wgarray._architecture.LAYERS")


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (packages by their ``__init__.py``)."""
    found = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        parts = path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        name = ".".join(parts)
        if name not in TOOLS and "__pycache__" not in parts:
            found[name] = path
    return found


@dataclass(frozen=True)
class Import:
    source: str
    target: str
    lazy: bool  # inside a function


def _type_checking_only(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def _in_function(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return True
    return False


def imports(mods: dict[str, Path] | None = None) -> list[Import]:
    """The imports of package modules by package modules, resolved to the deepest module named."""
    mods = modules() if mods is None else mods
    found = set()
    for name, path in mods.items():
        tree = ast.parse(path.read_text(), str(path))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)) or _type_checking_only(node, parents):
                continue
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    up = package.split(".")
                    up = up[:len(up) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
            for target in targets:
                while target and target not in mods:  # import a.b.c of a module a.b
                    target = target.rpartition(".")[0]
                if target and target != name and target not in TOOLS:
                    found.add(Import(name, target, _in_function(node, parents)))
    return sorted(found, key=lambda i: (i.source, i.target))


def upward(imps: list[Import]) -> list[Import]:
    """Imports of a layer above the importer's own."""
    return [i for i in imps if layer_of(i.target) > layer_of(i.source)]


def _short(module: str) -> str:
    return module.removeprefix("wgarray.") if module != "wgarray" else "wgarray"


def layer_diagram(mods: dict[str, Path], imps: list[Import]) -> str:
    by_layer: dict[int, list[str]] = {}
    for name in mods:
        by_layer.setdefault(layer_of(name), []).append(name)
    lines = ["```mermaid", "flowchart BT"]
    for i, (label, _) in enumerate(LAYERS):
        names = sorted(_short(n) for n in by_layer.get(i, []))
        rows = [", ".join(names[k:k + 4]) for k in range(0, len(names), 4)]
        lines.append(f'  L{i}["<b>{i + 1}. {label}</b><br/>{"<br/>".join(rows) or "(no modules)"}"]')
    edges = sorted({(layer_of(i.source), layer_of(i.target)) for i in imps
                    if layer_of(i.source) != layer_of(i.target)})
    red = []
    for n, (a, b) in enumerate(edges):
        lines.append(f"  L{a} --> L{b}")
        if b > a:
            red.append(n)
    for n in red:
        lines.append(f"  linkStyle {n} stroke:#d00,stroke-width:2px")
    lines.append("```")
    ups = upward(imps)
    if ups:
        lines.append("")
        lines.append("Upward imports (red; each inside a function):")
        lines += [f"`{_short(i.source)}` → `{_short(i.target)}`" + ("" if i.lazy else " (at module level)") +
                  (f": {KNOWN_UPWARD[(i.source, i.target)]}" if (i.source, i.target) in KNOWN_UPWARD else "")
                  for i in ups]
        lines[-len(ups):] = [f"* {line}" for line in lines[-len(ups):]]
    return "\n".join(lines)


def trace(snippet: Callable[[], object]) -> list[tuple[str, str, str]]:
    """Calls of ``snippet()`` that cross from one module into another: (caller, callee, function), plus returns
    (callee, caller, "") whenever control goes back to a different module.  wgpu counts as one module; other
    libraries are transparent."""
    steps: list[tuple[str, str, str]] = []
    stack = ["user"]

    def who(frame) -> str | None:
        mod = frame.f_globals.get("__name__", "")
        if mod in TOOLS:  # the snippet itself (``__main__`` when run with -m)
            return None
        if mod == "wgarray" or mod.startswith("wgarray."):
            return _short(mod)
        if mod == "wgpu" or mod.startswith("wgpu."):
            return "wgpu"
        return None

    def profile(frame, event, arg):
        if event == "call":
            caller = stack[-1]
            callee = who(frame) or caller
            if caller == "wgpu":
                callee = "wgpu"  # inside wgpu: not drawn
            stack.append(callee)
            if callee != caller:
                steps.append((caller, callee, frame.f_code.co_name))
        elif event == "return" and len(stack) > 1:
            callee = stack.pop()
            if callee != stack[-1]:
                steps.append((callee, stack[-1], ""))

    gc.disable()
    sys.setprofile(profile)
    try:
        snippet()
    finally:
        sys.setprofile(None)
        gc.enable()
    return steps


def _add_and_read() -> None:
    import numpy as np

    import wgarray as wg
    a = wg.asarray(np.arange(1024, dtype=np.float32))
    b = wg.asarray(np.ones(1024, dtype=np.float32))
    c = a + b  # type: ignore[operator]  # Array's operators are attached from a table
    c.numpy()


def collapse(steps: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """Module-level steps: a call and its return with nothing in between become one call, and consecutive calls
    from one module into another become one step naming the functions (in order of first call)."""
    out: list[tuple[str, str, list[str]]] = []
    i = 0
    while i < len(steps):
        src, dst, fn = steps[i]
        if fn and i + 1 < len(steps) and steps[i + 1] == (dst, src, ""):
            i += 1  # a leaf call: its return is implied
        if fn and out and out[-1][:2] == (src, dst) and out[-1][2]:
            if fn not in out[-1][2]:
                out[-1][2].append(fn)
        else:
            out.append((src, dst, [fn] if fn else []))
        i += 1
    return [(src, dst, ", ".join(fns)) for src, dst, fns in out]


def call_diagram() -> str:
    """The traced walk, taken in a fresh interpreter: a process that has done other work (a test suite, say)
    takes other paths through the same code (cached plans, pooled blocks, pending work)."""
    root = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p))
    code = "from wgarray import _architecture as a; print(a.call_diagram_here())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return done.stdout.rstrip("\n")


def call_diagram_here() -> str:
    _add_and_read()  # warm-up: device, pipelines, pools
    steps = collapse(trace(_add_and_read))
    order = ["user"] + sorted({s for st in steps for s in st[:2]} - {"user", "wgpu"},
                              key=lambda m: (-layer_of("wgarray" if m == "wgarray" else f"wgarray.{m}"), m))
    if any("wgpu" in st[:2] for st in steps):
        order.append("wgpu")
    lines = ["```mermaid", "sequenceDiagram"]
    lines += [f"  participant {m.replace('.', '_')} as {m}" for m in order]
    for src, dst, fns in steps:
        arrow = "->>" if fns else "-->>"
        label = fns.replace("__", "\\_\\_")
        lines.append(f"  {src.replace('.', '_')}{arrow}{dst.replace('.', '_')}: {label or ' '}")
    lines.append("```")
    return "\n".join(lines)


def render() -> str:
    mods = modules()
    imps = imports(mods)
    return "\n".join([
        BEGIN,
        "<!-- generated by `python -m wgarray._architecture --write`; do not edit by hand -->",
        "",
        "Layers and the imports between them (from the code; bottom up):",
        "",
        layer_diagram(mods, imps),
        "",
        "`c = a + b; c.numpy()` across modules (traced, after a warm-up run):",
        "",
        call_diagram(),
        END,
    ])


def readme_block(text: str) -> str:
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[start:end]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m wgarray._architecture", description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="rewrite README.md's block")
    ap.add_argument("--check", action="store_true", help="exit 1 when README.md's block is out of date")
    args = ap.parse_args(argv)
    block = render()
    if not (args.write or args.check):
        print(block)
        return 0
    text = README.read_text()
    if args.check:
        if readme_block(text) != block:
            print("README.md's architecture block is out of date: run `python -m wgarray._architecture --write`")
            return 1
        return 0
    README.write_text(text.replace(readme_block(text), block))
    return 0


if __name__ == "__main__":
    sys.exit(main())
