"""Generate the Python protobuf/gRPC modules from protos/ (``make proto``).

The public API (`protos/gamehall/v1`) is generated into the SDK's distribution as `gamehall_sdk.v1`
(sdk/gamehall_sdk/v1): third-party clients get it without the server. The internal services and the
events are generated into the server's libraries (libs/gamehall/{internal/v1,events/v1}). protoc names
a module after its proto path (`gamehall.v1.common_pb2`), so the imports of the public modules are
rewritten to `gamehall_sdk.v1` in every generated file; the protos' own names (files, packages) stay.
The generated code is committed; the test suite regenerates it into a temporary folder and fails if
the committed copy is stale.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROTO_ROOT = ROOT / "protos"
INIT_DOC = '"""Generated from protos/ by `make proto`; do not edit."""\n'


@dataclass(frozen=True)
class Target:
    """Where the modules of one proto package go: `source` under protoc's output, `dest` under ROOT."""

    source: str
    dest: str
    inits: tuple[str, ...]
    """Folders (under ROOT) that get the generated-code `__init__.py`."""


TARGETS = (
    Target("gamehall/v1", "sdk/gamehall_sdk/v1", ("sdk/gamehall_sdk/v1",)),
    Target(
        "gamehall/internal/v1", "libs/gamehall/internal/v1", ("libs/gamehall/internal", "libs/gamehall/internal/v1")
    ),
    Target("gamehall/events/v1", "libs/gamehall/events/v1", ("libs/gamehall/events", "libs/gamehall/events/v1")),
)
PUBLIC_IMPORT = re.compile(r"^(from|import) gamehall\.v1\b", re.MULTILINE)
PUBLIC_MODULE_NAME = re.compile(r"'gamehall\.v1\.(\w+_pb2)'")


def proto_files() -> list[Path]:
    return sorted(PROTO_ROOT.glob("gamehall/**/*.proto"))


def _rewrite(text: str) -> str:
    """A generated module with the public API imported from `gamehall_sdk.v1`."""
    text = PUBLIC_IMPORT.sub(lambda m: f"{m.group(1)} gamehall_sdk.v1", text)
    return PUBLIC_MODULE_NAME.sub(lambda m: f"'gamehall_sdk.v1.{m.group(1)}'", text)


def generate(out: Path) -> list[Path]:
    """Run protoc and lay its modules out in `out` as they lie under ROOT; returns the files written."""
    from grpc_tools import protoc

    include = str(resources.files("grpc_tools").joinpath("_proto"))
    files = [str(p.relative_to(PROTO_ROOT)) for p in proto_files()]
    with tempfile.TemporaryDirectory() as raw_dir:
        raw = Path(raw_dir)
        args = [
            "protoc",
            f"-I{PROTO_ROOT}",
            f"-I{include}",
            f"--python_out={raw}",
            f"--pyi_out={raw}",
            f"--grpc_python_out={raw}",
            *files,
        ]
        if protoc.main(args) != 0:
            raise SystemExit("protoc failed")
        written: set[Path] = set()
        for target in TARGETS:
            dest = out / target.dest
            dest.mkdir(parents=True, exist_ok=True)
            for module in sorted((raw / target.source).iterdir()):
                if module.is_file():
                    (dest / module.name).write_text(_rewrite(module.read_text()))
                    written.add(dest / module.name)
            for folder in target.inits:
                init = out / folder / "__init__.py"
                init.parent.mkdir(parents=True, exist_ok=True)
                init.write_text(INIT_DOC)
                written.add(init)
    return sorted(written)


def stale_files() -> list[str]:
    """Generated files whose committed copy differs from a fresh generation (empty when fresh)."""
    with tempfile.TemporaryDirectory() as tmp:
        fresh = generate(Path(tmp))
        problems = []
        for path in fresh:
            rel = path.relative_to(tmp)
            committed = ROOT / rel
            if not committed.exists() or committed.read_bytes() != path.read_bytes():
                problems.append(str(rel))
        for target in TARGETS:
            for committed in (ROOT / target.dest).glob("*_pb2*.py*"):
                if not (Path(tmp) / committed.relative_to(ROOT)).exists():
                    problems.append(f"{committed.relative_to(ROOT)} (no longer generated)")
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
    for target in TARGETS:
        for old in (ROOT / target.dest).glob("*_pb2*.py*"):
            old.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        for path in generate(Path(tmp)):
            target_path = ROOT / path.relative_to(tmp)
            target_path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target_path)
            print(f"wrote {target_path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
