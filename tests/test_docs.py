"""Every example of the documentation runs as written.

Each ```python block of README.md and docs/*.md is run, the blocks of a file in order in one fresh
interpreter whose working directory is a temporary directory (a block may use what an earlier block
of its page made); each ```pycon block is run as a doctest in the same namespace, its output
compared. A block preceded by the line ``<!-- illustration: REASON -->`` is not run (it needs an
outside engine, a cluster, a browser, or is a pattern); ``<!-- requires: numpy, pyarrow -->`` skips
the page when a module it names is not installed (an optional extra). Shell blocks are illustrations.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import io
import json
import re
import subprocess
import sys
import tokenize
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

import pytest

import congo

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
RUNNABLE = ("python", "pycon")

FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
MARKER = re.compile(r"^<!--\s*(illustration|requires)\s*:(.*?)-->\s*$")


@dataclass
class Block:
    """A fenced code block of a page, with the markers on the lines just above it."""

    page: str
    line: int  # of the opening fence, 1-based
    language: str
    code: str
    illustration: str | None = None
    requires: list[str] = field(default_factory=list)


def blocks(path: Path) -> list[Block]:
    """The fenced code blocks of a Markdown page, in order."""
    text = path.read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        block = Block(path.name, line, match.group(1), match.group(2))
        # The marker lines immediately above the fence (blank lines between are allowed).
        above = text[: match.start()].splitlines()
        while above and not above[-1].strip():
            above.pop()
        while above and (marker := MARKER.match(above[-1].strip())):
            kind, value = marker.group(1), marker.group(2).strip()
            if kind == "illustration":
                block.illustration = value
            else:
                block.requires += [name.strip() for name in value.split(",") if name.strip()]
            above.pop()
        found.append(block)
    return found


def runnable(path: Path) -> list[Block]:
    return [b for b in blocks(path) if b.language in RUNNABLE and b.illustration is None]


# Run in the fresh interpreter: the blocks arrive as JSON on stdin. A python block is executed, a
# pycon block is a doctest; all share one namespace, as if the reader typed them one after another.
RUNNER = r"""
import doctest, json, sys, traceback
namespace = {"__name__": "__main__"}
flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
for block in json.load(sys.stdin):
    where = f"{block['page']}, the block at line {block['line']}"
    if block["language"] == "python":
        try:
            exec(compile(block["code"], where, "exec"), namespace)
        except BaseException:
            traceback.print_exc()
            sys.exit(f"FAILED: {where}")
    else:
        parser = doctest.DocTestParser()
        test = parser.get_doctest(block["code"], namespace, where, block["page"], block["line"])
        runner = doctest.DocTestRunner(optionflags=flags)
        runner.run(test, clear_globs=False)
        namespace = test.globs  # doctest ran the examples in a copy of the namespace
        if runner.failures:
            sys.exit(f"FAILED: {where} ({runner.failures} example(s) printed otherwise)")
"""


def page_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", [p for p in PAGES if runnable(p)], ids=page_id)
def test_every_example_of_the_page_runs(path: Path, tmp_path: Path) -> None:
    chosen = runnable(path)
    missing = sorted({n for b in chosen for n in b.requires if importlib.util.find_spec(n) is None})
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (an optional extra)")
    done = subprocess.run(
        [sys.executable, "-c", RUNNER],
        input=json.dumps([asdict(b) for b in chosen]),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-6000:]


def test_every_page_has_been_looked_at() -> None:
    # A page with code blocks but none of them runnable is fine; a page must not be missed by PAGES.
    assert {p.name for p in PAGES} >= {"README.md", "api.md", "analysis.md", "tablebase.md"}


@pytest.mark.parametrize("path", PAGES, ids=page_id)
def test_markers_say_why_and_stand_above_a_block(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    marked = {b.line for b in blocks(path) if b.illustration is not None or b.requires}
    for number, line in enumerate(text.splitlines(), 1):
        marker = MARKER.match(line.strip())
        if marker is None:
            continue
        assert marker.group(2).strip(), f"{path.name}:{number}: a marker without its reason"
        following = [n for n in marked if n > number]
        assert following, f"{path.name}:{number}: a marker with no code block under it"
    for block in blocks(path):
        if block.illustration is not None:
            assert block.language in RUNNABLE, f"{path.name}:{block.line}: only code blocks run"


@pytest.mark.parametrize("path", PAGES, ids=page_id)
def test_no_placeholder_in_a_block_a_reader_copies(path: Path) -> None:
    # `...` in a runnable block is a placeholder that fails (or silently does nothing) when copied;
    # a pycon block's `...` is the continuation prompt or the doctest ellipsis, both meant.
    for block in runnable(path):
        if block.language != "python":
            continue
        tokens = tokenize.generate_tokens(io.StringIO(block.code).readline)
        ellipses = [t.start[0] for t in tokens if t.type == tokenize.OP and t.string == "..."]
        assert not ellipses, f"{path.name}: the block at line {block.line} has `...` at its line {ellipses}"


def test_the_block_reader_sees_markers_and_languages(tmp_path: Path) -> None:
    page = (
        "text\n\n<!-- illustration: needs a cluster -->\n```python\nray.init()\n```\n\n"
        "<!-- requires: numpy -->\n\n```python\nimport numpy\n```\n\n```sh\nls\n```\n"
    )
    scratch = tmp_path / "page.md"
    scratch.write_text(page, encoding="utf-8")
    found = blocks(scratch)
    assert [(b.language, b.illustration, b.requires) for b in found] == [
        ("python", "needs a cluster", []),
        ("python", None, ["numpy"]),
        ("sh", None, []),
    ]
    assert [b.line for b in found] == [4, 10, 14]


def test_api_tutorial(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The examples in docs/api.md run and print what the page shows (doctest)."""
    monkeypatch.chdir(tmp_path)  # the tutorial writes board.svg and games.pgn
    failures, tried = doctest.testfile(
        str(DOCS / "api.md"),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        raise_on_error=False,
        verbose=False,
    )
    assert tried > 30
    assert failures == 0
    assert (tmp_path / "board.svg").read_text().startswith("<svg")


# --- The API reference (mkdocs.yml, docs/reference/) covers every public name ----------------------


def _installed_package() -> Path:
    """The imported package's directory: the source tree, or an installed wheel's copy."""
    spec = importlib.util.find_spec("congo")
    assert spec is not None
    assert spec.origin is not None
    return Path(spec.origin).resolve().parent


PACKAGE = _installed_package()
REFERENCE = DOCS / "reference"
SITE_INVENTORY = ROOT / "build" / "site" / "objects.inv"  # written by `mkdocs build` (.ci/run docs)
DIRECTIVE = re.compile(r"^::: ([\w.]+)[ \t]*\n((?:[ \t]+.*\n?)*)", re.M)


def module_sources() -> dict[str, Path]:
    """Every public module of the package by dotted name (no part starting with an underscore)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if any(part.startswith("_") for part in parts):
            continue
        if parts[:2] == ["congo", "cli"] and len(parts) == 3:
            # A command's module (register/run, the one pattern of congo.cli): documented as a
            # command in docs/cli.md, which tests/test_cli.py checks names every command and option.
            continue
        found[".".join(parts)] = path
    return found


def static_all(path: Path) -> list[str] | None:
    """A module's ``__all__``, read without importing it (its optional extras need not be installed)."""
    import ast

    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            return list(ast.literal_eval(node.value))
    return None


def public_names() -> dict[str, list[str]]:
    """``{module: its __all__}`` for ``congo`` and each public submodule that defines ``__all__``."""
    names = {}
    for module, path in module_sources().items():
        exported = static_all(path)
        if exported is not None:
            names[module] = exported
    return names


def reexported_by_congo() -> dict[str, set[str]]:
    """``{module: names}`` that ``congo/__init__.py`` imports from it, documented as ``congo.NAME``."""
    import ast

    found: dict[str, set[str]] = {}
    for node in ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.module:
            found.setdefault(node.module, set()).update(alias.asname or alias.name for alias in node.names)
    return found


def directives() -> dict[str, list[str] | None]:
    """``{identifier: the members option, or None for every public member}`` of the reference pages."""
    found: dict[str, list[str] | None] = {}
    for page in sorted(REFERENCE.glob("*.md")):
        for match in DIRECTIVE.finditer(page.read_text(encoding="utf-8")):
            members = re.search(r"^\s+members:\s*\n((?:\s+- .*\n?)+)", match.group(2), re.M)
            found[match.group(1)] = None if members is None else re.findall(r"- (\w+)", members.group(1))
    return found


def same_as_congo(module: str, name: str, reexported: dict[str, set[str]]) -> bool:
    """Whether ``module.name`` is the object ``congo.name`` (documented once, under ``congo``)."""
    if name in reexported.get(module, set()):
        return True
    try:
        imported = importlib.import_module(module)
    except ImportError:  # an optional extra that is not installed
        return False
    return getattr(imported, name, None) is getattr(importlib.import_module("congo"), name, object())


def uncovered(documented: Callable[[str], bool]) -> list[str]:
    """The public names for which ``documented(dotted name)`` holds neither directly nor via congo."""
    congo_names = set(public_names()["congo"])
    reexported = reexported_by_congo()
    missing = []
    for module, names in public_names().items():
        for name in names:
            if documented(f"{module}.{name}"):
                continue
            if (
                name in congo_names
                and same_as_congo(module, name, reexported)
                and documented(f"congo.{name}")
            ):
                continue
            missing.append(f"{module}.{name}")
    return missing


def test_every_public_module_is_in_the_reference() -> None:
    pages = directives()
    reexported = reexported_by_congo()
    for module, path in module_sources().items():
        exported = static_all(path)
        # congo.bulk, congo.pieces, …: modules whose public names are all documented as congo.NAME.
        through_congo = module in reexported and (exported is None or set(exported) <= reexported[module])
        assert module in pages or through_congo, f"{module} has no page in docs/reference/"


def test_every_public_name_has_a_directive_in_the_reference() -> None:
    pages = directives()

    def documented(dotted: str) -> bool:
        module, _, name = dotted.rpartition(".")
        members = pages.get(module, [])
        return members is None or name in members

    assert uncovered(documented) == []


def read_inventory(path: Path) -> set[str]:
    """The object names of a Sphinx inventory (``objects.inv``, version 2), as mkdocstrings writes it."""
    import zlib

    header, _, body = path.read_bytes().partition(b"zlib.\n")
    assert header.startswith(b"# Sphinx inventory version 2"), header[:40]
    return {line.split(" ", 1)[0] for line in zlib.decompress(body).decode("utf-8").splitlines()}


def test_every_public_name_is_in_the_built_site() -> None:
    if not SITE_INVENTORY.exists():
        pytest.skip("the site is not built here (mkdocs build --strict; the docs step of .ci/run)")
    entries = read_inventory(SITE_INVENTORY)
    assert "congo.Board" in entries
    missing = uncovered(entries.__contains__)
    assert missing == [], f"not in {SITE_INVENTORY} (rebuild it with `mkdocs build --strict`?)"


def test_the_reference_shows_the_docstrings_written_in_rust() -> None:
    # The stubs have signatures only; docs/_griffe/congo_docstrings.py adds the compiled docstrings.
    page = SITE_INVENTORY.parent / "reference" / "congo" / "index.html"
    if not page.exists():
        pytest.skip("the site is not built here (mkdocs build --strict; the docs step of .ci/run)")
    import congo

    text = page.read_text(encoding="utf-8")
    for documented in (congo.Move, congo.Position, congo.LegalMoveGenerator):
        opening = re.split(r"[,:;.`]", documented.__doc__ or "")[0]  # plain words, as rendered
        assert opening, documented
        assert opening in text, documented


def test_error_docs_count_every_error_class() -> None:
    errors = [
        name
        for name in congo.__all__
        if isinstance(getattr(congo, name), type) and issubclass(getattr(congo, name), ValueError)
    ]
    api = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    table = api[api.index("### Errors") :]
    for name in errors:
        assert f"`{name}`" in table, name
    errors_rs = (ROOT / "rust" / "congo-py" / "src" / "errors.rs").read_text(encoding="utf-8")
    assert errors_rs.startswith(
        f"//! The {['zero', 'one', 'two', 'three', 'four', 'five', 'six'][len(errors)]} "
    )
