"""The README's architecture pictures are made from the code (``python -m wgarray._architecture``): the layering
holds (no module imports a layer above its own, beyond the few listed in ``KNOWN_UPWARD``) and README.md shows what
the code does now."""
from __future__ import annotations

from wgarray import _architecture as arch


def test_every_module_has_a_layer():
    for name in arch.modules():
        arch.layer_of(name)  # raises LookupError for a module no layer claims


def test_no_module_imports_a_layer_above_its_own():
    ups = arch.upward(arch.imports())
    unknown = [(i.source, i.target) for i in ups if (i.source, i.target) not in arch.KNOWN_UPWARD]
    assert not unknown, f"upward imports: {unknown} (layers: {[name for name, _ in arch.LAYERS]})"
    assert all(i.lazy for i in ups), [i for i in ups if not i.lazy]
    stale = set(arch.KNOWN_UPWARD) - {(i.source, i.target) for i in ups}
    assert not stale, f"KNOWN_UPWARD lists imports the code no longer makes: {stale}"


def test_readme_picture_is_up_to_date():
    block = arch.readme_block(arch.README.read_text())
    assert block == arch.render(), "README.md's architecture block is stale: run `python -m wgarray._architecture --write`"
