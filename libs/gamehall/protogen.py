"""Generate the Python protobuf/gRPC modules from protos/ (``make proto``).

The generated code is committed under libs/gamehall/{v1,internal/v1,events/v1}; the test
suite regenerates it into a temporary folder and fails if the committed copy is stale.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROTO_ROOT = ROOT / "protos"
LIBS = ROOT / "libs"
PACKAGES = ("gamehall/v1", "gamehall/internal/v1", "gamehall/events/v1")
INIT_DOC = '"""Generated from protos/ by `make proto`; do not edit."""\n'


def proto_files() -> list[Path]:
    return sorted(PROTO_ROOT.glob("gamehall/**/*.proto"))


def generate(out: Path) -> list[Path]:
    """Run protoc into `out` (a folder playing the role of libs/); returns the files written."""
    from grpc_tools import protoc

    include = str(resources.files("grpc_tools").joinpath("_proto"))
    files = [str(p.relative_to(PROTO_ROOT)) for p in proto_files()]
    args = [
        "protoc",
        f"-I{PROTO_ROOT}",
        f"-I{include}",
        f"--python_out={out}",
        f"--pyi_out={out}",
        f"--grpc_python_out={out}",
        *files,
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    written: set[Path] = set()
    for package in PACKAGES:
        parts = Path(package).parts
        for depth in range(2, len(parts) + 1):
            init = out.joinpath(*parts[:depth], "__init__.py")
            init.parent.mkdir(parents=True, exist_ok=True)
            init.write_text(INIT_DOC)
            written.add(init)
        written.update(p for p in (out / package).iterdir() if p.is_file())
    return sorted(written)


def stale_files() -> list[str]:
    """Generated files whose committed copy differs from a fresh generation (empty when fresh)."""
    with tempfile.TemporaryDirectory() as tmp:
        fresh = generate(Path(tmp))
        problems = []
        for path in fresh:
            rel = path.relative_to(tmp)
            committed = LIBS / rel
            if not committed.exists() or committed.read_bytes() != path.read_bytes():
                problems.append(str(rel))
        for package in PACKAGES:
            for committed in (LIBS / package).glob("*_pb2*.py*"):
                if not (Path(tmp) / committed.relative_to(LIBS)).exists():
                    problems.append(f"{committed.relative_to(LIBS)} (no longer generated)")
        return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail if the committed code is stale")
    args = parser.parse_args()
    if args.check:
        stale = stale_files()
        if stale:
            sys.exit("stale generated code (run `make proto`): " + ", ".join(stale))
        print("generated code is fresh")
        return
    for package in PACKAGES:
        for old in (LIBS / package).glob("*_pb2*.py*"):
            old.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        for path in generate(Path(tmp)):
            target = LIBS / path.relative_to(tmp)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
            print(f"wrote {target.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
