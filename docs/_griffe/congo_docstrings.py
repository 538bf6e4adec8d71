"""A griffe extension for congo's API reference (mkdocs.yml loads it; it is not a page of the site).

The reference is made by static analysis: griffe reads ``python/congo`` and the typed stubs of the
Rust extension, ``python/congo/_core.pyi``, without importing the package or its optional extras.
The stubs give the extension's signatures, but its docstrings are written in Rust
(``rust/congo-py``) and live in the compiled module. Two touches, once the package is loaded:

* an object of ``congo._core`` that has no docstring in the stubs takes the one the compiled module
  carries (``__doc__``), when the extension can be imported (it is, wherever congo is installed);
* names bound by unpacking a ``range`` (``A1, B1, … = range(0, 7)`` in ``congo.squares``), which
  static analysis does not see, become attributes with their values;
* the docstrings being read as Markdown, Sphinx roles (``:class:`Board```) become code spans and
  doctest examples (``>>>`` lines and their output, up to a blank line) become ``pycon`` code blocks.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:mod|class|func|meth|attr|data|exc|obj|const|ref|term):`~?([^`]+)`")
RUNTIME_DOC_TYPES = (type, staticmethod, classmethod, property)


def runtime_doc(value: Any) -> str | None:
    """The docstring of a compiled object; None for plain values (whose __doc__ is their type's)."""
    if isinstance(value, (int, float, str, bytes, tuple, list, dict, frozenset)):
        return None
    doc = getattr(value, "__doc__", None)
    if not isinstance(doc, str) or not doc.strip():
        return None
    return inspect.cleandoc(doc)


def unpacked_range(node: ast.stmt) -> list[tuple[str, int]]:
    """``A1, B1 = range(0, 2)`` as [("A1", 0), ("B1", 1)]; [] for any other statement."""
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
        return []
    target, value = node.targets[0], node.value
    if not (isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts)):
        return []
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "range"):
        return []
    try:
        numbers = range(*(ast.literal_eval(arg) for arg in value.args))
    except (ValueError, TypeError):
        return []
    names = [e.id for e in target.elts if isinstance(e, ast.Name)]
    return list(zip(names, numbers)) if len(names) == len(numbers) else []


def fence_doctests(text: str) -> str:
    """Doctest examples (a ``>>>`` line, up to the next blank line) as fenced ``pycon`` blocks."""
    out: list[str] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line.lstrip().startswith(">>>"):
            out.append(line)
            index += 1
            continue
        indent = line[: len(line) - len(line.lstrip())]
        end = index
        while end < len(lines) and lines[end].strip():
            end += 1
        if out and out[-1].strip():
            out.append("")
        out += [f"{indent}```pycon", *lines[index:end], f"{indent}```"]
        index = end
    return "\n".join(out)


class CongoDocstrings(griffe.Extension):
    """Fills the extension's docstrings from the compiled module and turns Sphinx roles into code."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if pkg.name != "congo":
            return
        try:
            core = importlib.import_module("congo._core")
        except ImportError:  # no built extension: signatures from the stubs only
            core = None
        stubs = pkg.members.get("_core")
        if core is not None and isinstance(stubs, griffe.Module):
            self._fill(stubs, core)
        self._unpacked_ranges(pkg)
        self._markdown(pkg)

    def _unpacked_ranges(self, module: griffe.Module) -> None:
        source = module.filepath
        if isinstance(source, Path) and source.suffix == ".py":
            for node in ast.parse(source.read_text(encoding="utf-8")).body:
                for name, value in unpacked_range(node):
                    if name not in module.members:
                        attribute = griffe.Attribute(name, lineno=node.lineno, endlineno=node.end_lineno)
                        attribute.value = str(value)
                        attribute.labels.add("module-attribute")
                        module.set_member(name, attribute)
        for member in module.members.values():
            if isinstance(member, griffe.Module):  # submodules (an imported module is an Alias)
                self._unpacked_ranges(member)

    def _fill(self, obj: griffe.Object, runtime: Any) -> None:
        for name, member in obj.members.items():
            if isinstance(member, griffe.Alias):
                continue
            # vars() of a class gives the raw descriptor (its own docstring), not the bound value.
            namespace = vars(runtime) if isinstance(runtime, type) else {}
            value = namespace[name] if name in namespace else getattr(runtime, name, None)
            if value is None:
                continue
            if member.docstring is None and not name.startswith("__"):
                doc = runtime_doc(value)
                if doc:
                    member.docstring = griffe.Docstring(doc, parent=member)
            if isinstance(member, griffe.Class) and isinstance(value, type):
                self._fill(member, value)

    def _markdown(self, obj: griffe.Object) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(ROLE.sub(r"`\1`", obj.docstring.value))
        for member in obj.members.values():
            if not isinstance(member, griffe.Alias):
                self._markdown(member)
