"""Checks the release artefacts (congo_chess-*.tar.gz, congo_chess-*.whl) in a directory before anything
installs them.

    python .ci/check_dist.py DIST            # every check below; exits 1 on the first problem list
    python .ci/check_dist.py --extras DIST   # prints the wheel's extras for the test install

For the sdist: every file git tracks (but CI's own) is in it, so it builds and tests from its own
contents, and nothing built or cached is. For each wheel: the package, its stubs and ``py.typed``, the
extension, both licence files, the ``congo`` command; metadata complete (version equal to the Cargo
workspace's, README as markdown description, licence expression, URLs, classifiers) and no runtime
dependency. Linux wheels go through ``auditwheel show``: the libc its platform tag needs must be no
newer than the one the wheel's file name claims; a manylinux wheel's extension must use the system's
unwinder (libgcc_s). Prints each artefact's size.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from email.parser import Parser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.packaging_support import FILE_PREFIX, cargo_version, metadata_problems  # noqa: E402  (the rules tests hold too)

# Tracked files that belong to the repository's CI or to git, not to a source release.
NOT_IN_SDIST = (".ci/", ".github/")
GIT_FILES = (".gitignore", ".gitattributes")
BUILT_OR_CACHED = re.compile(
    r"(^|/)(target|\.venv|__pycache__|\.git|\.pytest_cache|dist|build)/|\.(so|pyd|pyc)$"
)


def tracked_files() -> list[str] | None:
    """The files git tracks in this checkout, or None outside a git checkout."""
    if shutil.which("git") is None:
        return None
    done = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False)
    return done.stdout.splitlines() if done.returncode == 0 else None


def check_sdist(path: Path, version: str) -> list[str]:
    """Problems with the sdist: missing sources, built or cached files, metadata."""
    prefix = f"{FILE_PREFIX}-{version}/"
    with tarfile.open(path) as archive:
        names = [name for name in archive.getnames() if not archive.getmember(name).isdir()]
        pkg_info = archive.extractfile(prefix + "PKG-INFO")
        assert pkg_info is not None
        metadata = Parser().parsestr(pkg_info.read().decode("utf-8"))
    problems = [f"{path.name}: {name} is outside {prefix}" for name in names if not name.startswith(prefix)]
    members = {name[len(prefix) :] for name in names}
    problems += [
        f"{path.name}: holds {name}, which is built or cached"
        for name in members
        if BUILT_OR_CACHED.search(name)
    ]
    tracked = tracked_files()
    if tracked is None:
        required = [
            "Cargo.toml",
            "Cargo.lock",
            "pyproject.toml",
            "README.md",
            "LICENSE-MIT",
            "LICENSE-APACHE",
        ]
        print(f"  {path.name}: not a git checkout, checking only the files the build needs")
    else:
        required = [
            name
            for name in tracked
            if not name.startswith(NOT_IN_SDIST)
            and Path(name).name not in GIT_FILES
            and (ROOT / name).exists()
        ]
    problems += [f"{path.name}: lacks {name}" for name in required if name not in members]
    description = str(metadata.get_payload())
    problems += [f"{path.name}: {problem}" for problem in metadata_problems(metadata, version, description)]
    return problems


def wheel_tags(path: Path) -> tuple[str, str, set[str]]:
    """(python tag, abi tag, platform tags) of a wheel's file name."""
    python_tag, abi_tag, platforms = path.stem.split("-")[-3:]
    return python_tag, abi_tag, set(platforms.split("."))


def auditwheel_tag(path: Path) -> str:
    """The platform tag ``auditwheel show`` finds the wheel consistent with ("" if it finds none)."""
    auditwheel = shutil.which("auditwheel")
    if auditwheel is None:
        raise SystemExit("auditwheel is not installed: pip install --group release-check")
    output = subprocess.run([auditwheel, "show", str(path)], capture_output=True, text=True, check=False)
    print("\n".join("    " + line for line in output.stdout.strip().splitlines()))
    found = re.search(r'consistent\s+with\s+the\s+following\s+platform\s+tag:\s*"([^"]+)"', output.stdout)
    return found.group(1) if found else ""


def linux_policy(tag: str) -> tuple[str, int, int, str] | None:
    """``manylinux_2_17_x86_64`` as ("manylinux", 2, 17, "x86_64"); None for other tags."""
    legacy = {
        "manylinux2014": "manylinux_2_17",
        "manylinux2010": "manylinux_2_12",
        "manylinux1": "manylinux_2_5",
    }
    for old, new in legacy.items():
        tag = tag.replace(old, new)
    found = re.fullmatch(r"(manylinux|musllinux)_(\d+)_(\d+)_(\w+)", tag)
    return (found[1], int(found[2]), int(found[3]), found[4]) if found else None


def auditwheel_agrees(claimed: set[str], found: str) -> bool:
    """Whether the tags a wheel's name claims need no newer libc than auditwheel found it needs."""
    needs = linux_policy(found)
    if needs is None:
        return False
    family, major, minor, arch = needs
    policies = [p for p in map(linux_policy, claimed) if p is not None and (p[0], p[3]) == (family, arch)]
    return bool(policies) and min(p[1:3] for p in policies) >= (major, minor)


def unwinder_problems(path: Path) -> list[str]:
    """A glibc wheel's extension must take its unwinder from libgcc_s, as glibc and CPython do.

    When CPython (< 3.14) ends a thread blocked in Rust at exit, glibc unwinds it with libgcc_s; in
    an extension that carries a private unwinder (``maturin --zig`` links LLVM's in), the personality
    routine calls that unwinder on libgcc's context and the interpreter crashes (seen: ``congo
    match`` stopped with Ctrl-C died of SIGSEGV in 13 of 20 runs).
    """
    readelf = shutil.which("readelf")
    if readelf is None:
        return [f"{path.name}: readelf (binutils) is needed to check the extension's unwinder"]
    problems = []
    with zipfile.ZipFile(path) as archive, tempfile.TemporaryDirectory() as scratch:
        for name in archive.namelist():
            if not re.fullmatch(r"congo/_core\..*\.so", name):
                continue
            extension = archive.extract(name, scratch)
            elf = subprocess.run(
                [readelf, "-W", "--dyn-syms", "-d", extension], capture_output=True, text=True, check=True
            ).stdout
            imports_unwinder = re.search(r"\sUND\s+_Unwind_Resume\b", elf)
            if "Shared library: [libgcc_s.so.1]" not in elf or not imports_unwinder:
                problems.append(f"{path.name}: {name} does not take _Unwind_Resume from libgcc_s.so.1")
    return problems


def check_wheel(path: Path, version: str) -> list[str]:
    """Problems with one wheel: contents, metadata, and on Linux its platform tag."""
    dist_info = f"{FILE_PREFIX}-{version}.dist-info/"
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        metadata = Parser().parsestr(archive.read(dist_info + "METADATA").decode("utf-8"))
        entry_points = archive.read(dist_info + "entry_points.txt").decode("utf-8")
    problems = []
    required = ["congo/__init__.py", "congo/__main__.py", "congo/py.typed", "congo/_core.pyi"]
    required += ["congo/data/openings.txt"]  # the bundled opening suite of congo match
    required += ["congo/data/book.cbk"]  # the bundled opening book of congo.book
    required += [dist_info + "licenses/LICENSE-MIT", dist_info + "licenses/LICENSE-APACHE"]
    problems += [f"{path.name}: lacks {name}" for name in required if name not in names]
    if not any(re.fullmatch(r"congo/_core\..*\.(so|pyd)", name) for name in names):
        problems.append(f"{path.name}: lacks the extension congo/_core.*")
    strays = sorted(name for name in names if not name.startswith(("congo/", dist_info)))
    problems += [f"{path.name}: holds {name}, outside the package" for name in strays]
    if not re.search(r"^congo\s*=\s*congo\.__main__:main$", entry_points, re.M):
        problems.append(f"{path.name}: no `congo` console script")
    description = str(metadata.get_payload())
    problems += [f"{path.name}: {problem}" for problem in metadata_problems(metadata, version, description)]
    _, _, platforms = wheel_tags(path)
    if any(tag.startswith(("manylinux", "musllinux")) for tag in platforms):
        found = auditwheel_tag(path)
        if not auditwheel_agrees(platforms, found):
            problems.append(f"{path.name}: auditwheel finds it consistent with {found!r}, not {platforms}")
        if any(tag.startswith("manylinux") for tag in platforms):
            problems += unwinder_problems(path)
    elif any(tag.startswith("linux") for tag in platforms):
        problems.append(f"{path.name}: a plain linux wheel, which PyPI refuses (build for manylinux)")
    return problems


def extras(path: Path) -> list[str]:
    """The wheel's extras but ``dev`` and ``docs`` (linters, build tools and the documentation site's
    tools, not test dependencies)."""
    with zipfile.ZipFile(path) as archive:
        metadata_name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(archive.read(metadata_name).decode("utf-8"))
    return [extra for extra in metadata.get_all("Provides-Extra") or [] if extra not in ("dev", "docs")]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("dist", type=Path, help="the directory holding the sdist and wheels")
    parser.add_argument(
        "--extras", action="store_true", help="print the extras to test with, comma-separated"
    )
    args = parser.parse_args()

    sdists = sorted(args.dist.glob(f"{FILE_PREFIX}-*.tar.gz"))
    wheels = sorted(args.dist.glob(f"{FILE_PREFIX}-*.whl"))
    if args.extras:
        print(",".join(extras(wheels[0])))
        return 0

    version = cargo_version()
    problems = [] if len(sdists) == 1 else [f"{args.dist}: {len(sdists)} sdists, expected one"]
    problems += [] if wheels else [f"{args.dist}: no wheel"]
    for sdist in sdists:
        print(f"{sdist.name}: {sdist.stat().st_size / 1024:,.0f} KiB")
        problems += check_sdist(sdist, version)
    for wheel in wheels:
        python_tag, abi_tag, _ = wheel_tags(wheel)
        print(f"{wheel.name}: {wheel.stat().st_size / 1024:,.0f} KiB, for {python_tag}-{abi_tag}")
        problems += check_wheel(wheel, version)
    for problem in problems:
        print("PROBLEM:", problem, file=sys.stderr)
    print(
        f"{len(sdists)} sdist(s), {len(wheels)} wheel(s) of {FILE_PREFIX} {version}: "
        f"{len(problems)} problem(s)"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
