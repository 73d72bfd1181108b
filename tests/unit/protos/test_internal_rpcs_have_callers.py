"""Every internal RPC (protos/gamehall/internal/v1) has a caller in production code (issue 37).

An RPC that only its own tests call is a dead path kept alive by them: its servicer, client wrapper,
converters and store functions are maintained, reviewed and secured for nothing. This test lists every
`rpc Name(` of the internal protos and looks for a call site in the code that runs the platform
(services/, libs/gamehall/ and the SDK, without generated code, benchmarks and test helpers):

- a stub call, `<anything but self>.Name(...)`;
- or a dispatch by name, the string "Name" given to a call (`on_owner(match_id, "Play", ...)`,
  `self._call("GetMatch", ...)`, `on_any("DescribeGame", ...)`),

in a module that imports the RPC's generated module (`gamehall.internal.v1.<file>_pb2[_grpc]`), since a
caller builds the RPC's request message: so a public RPC of the same name (`gamehall.v1` MatchService's
GetMatch, say) called by the CLI does not keep an internal one alive. A call the play stream carries
(`gamehall.runtime.play_stream.CALL_FIELDS`: Play and the reads, dispatched by name to `on_owner` or a
`PlayStream`'s `call`) is a call of LiveMatchService/PlayStream, not of a unary RPC of that name. A call
inside a client wrapper counts even when the wrapper itself is no longer called: the search is one level deep.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

from gamehall.runtime.play_stream import CALL_FIELDS

ROOT = Path(__file__).resolve().parents[3]
PROTOS = ROOT / "protos" / "gamehall" / "internal" / "v1"
PRODUCTION = ("services", "libs/gamehall", "sdk/gamehall_sdk")
"""Where the platform's code lives (tests/ is not production, nor are the folders below)."""
NOT_PRODUCTION = ("libs/gamehall/bench/", "libs/gamehall/testing/")
"""Benchmarks (`make bench`, `make soak`) and helpers shared by tests: they call RPCs to measure or drive the
platform, which keeps no RPC alive."""
INTERNAL_PACKAGE = "gamehall.internal.v1"

CALLED_FROM_OUTSIDE = {
    "DiagnosticsService/Echo": "the baseline every benchmark row is measured against (gamehall.bench) and an "
    "operator's probe of an internal port with grpcurl (README: server reflection); no service calls it by design",
}
"""RPCs with no caller in the platform's own code on purpose, each with the reason."""

STREAM_DISPATCHERS = frozenset({"on_owner", "call"})
"""Methods that send a call named in CALL_FIELDS on the play stream (gamehall.runtime.rules_replicas, play_stream)."""

SERVICE = re.compile(r"^\s*service\s+(\w+)\s*\{(.*?)^\}", re.MULTILINE | re.DOTALL)
RPC = re.compile(r"^\s*rpc\s+(\w+)\s*\(", re.MULTILINE)


def internal_rpcs() -> dict[str, str]:
    """`Service/Rpc` of every internal RPC, and the proto file (stem) that declares it."""
    found: dict[str, str] = {}
    for proto in sorted(PROTOS.glob("*.proto")):
        for service in SERVICE.finditer(proto.read_text()):
            for rpc in RPC.finditer(service.group(2)):
                found[f"{service.group(1)}/{rpc.group(1)}"] = proto.stem
    return found


def production_modules() -> Iterator[tuple[str, ast.AST]]:
    for folder in PRODUCTION:
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if re.search(r"_pb2(_grpc)?\.py$", path.name) or relative.startswith(NOT_PRODUCTION):
                continue
            yield relative, ast.parse(path.read_text(), relative)


def imported_protos(tree: ast.AST) -> set[str]:
    """The internal proto files (stems) whose generated modules `tree` imports, at module level or in a function."""
    stems: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == INTERNAL_PACKAGE:
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(INTERNAL_PACKAGE + "."):
            names = [(node.module or "").rsplit(".", 1)[1]]
        elif isinstance(node, ast.Import):
            names = [a.name.rsplit(".", 1)[1] for a in node.names if a.name.startswith(INTERNAL_PACKAGE + ".")]
        else:
            continue
        stems.update(re.sub(r"_pb2(_grpc)?$", "", name) for name in names if re.search(r"_pb2(_grpc)?$", name))
    return stems


def called_names(tree: ast.AST) -> set[str]:
    """Names called on a stub (`x.Name(...)`, `x` not `self`) or given as a string to a call (dispatch by name)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and not (isinstance(func.value, ast.Name) and func.value.id == "self"):
            names.add(func.attr)
        on_stream = isinstance(func, ast.Attribute) and func.attr in STREAM_DISPATCHERS
        for argument in [*node.args, *(keyword.value for keyword in node.keywords)]:
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                names.add("PlayStream" if on_stream and argument.value in CALL_FIELDS else argument.value)
    return names


@functools.cache
def callers() -> dict[str, list[str]]:
    """Per internal RPC (`Service/Rpc`), the production modules that call it (parsed once per session)."""
    rpcs = internal_rpcs()
    found: dict[str, list[str]] = {rpc: [] for rpc in rpcs}
    for module, tree in production_modules():
        stems, names = imported_protos(tree), called_names(tree)
        for rpc, stem in rpcs.items():
            if stem in stems and rpc.split("/")[1] in names:
                found[rpc].append(module)
    return found


def test_every_internal_rpc_has_a_production_caller() -> None:
    uncalled = sorted(rpc for rpc, modules in callers().items() if not modules and rpc not in CALLED_FROM_OUTSIDE)
    assert uncalled == [], (
        "internal RPCs that no production code calls (delete them with their servicer, client, converters and "
        f"store code, or name the outside caller in CALLED_FROM_OUTSIDE): {uncalled}"
    )


def test_the_allow_list_names_only_rpcs_that_exist_and_need_it() -> None:
    """An allowed RPC that was deleted, or that found a production caller, leaves the list."""
    found = callers()
    assert sorted(rpc for rpc in CALLED_FROM_OUTSIDE if rpc not in found) == []
    assert sorted(rpc for rpc in CALLED_FROM_OUTSIDE if found[rpc]) == []


def test_the_search_sees_each_kind_of_call_site() -> None:
    """The scan itself: a stub call and a dispatch by name count, in a module that imports the RPC's generated
    module; a servicer's own method, a call on `self`, a bare mention and a module that imports no internal
    proto do not."""
    caller = ast.parse(
        "from gamehall.internal.v1 import live_pb2, persistence_pb2_grpc\n"
        "async def f(stub, replicas):\n"
        "    await stub.GetMatch(request)\n"
        "    await replicas.on_owner(match_id, 'OpenMatch', request)\n"
        "    await replicas.on_owner(match_id, 'GetView', request)\n"
        "    await self.Forfeit(request)\n"
        "    methods = ['ListLegalActions']\n"
        "class S:\n"
        "    async def TimeOut(self, request, context): ...\n"
    )
    assert imported_protos(caller) == {"live", "persistence"}
    assert {"GetMatch", "OpenMatch", "PlayStream"} <= called_names(caller)  # GetView goes on the play stream
    assert not {"Forfeit", "GetView", "TimeOut"} & called_names(caller)
    public_and_internal = "from gamehall_sdk.v1 import match_pb2_grpc\nimport gamehall.internal.v1.rules_pb2\n"
    assert imported_protos(ast.parse(public_and_internal)) == {"rules"}
    rpcs = internal_rpcs()
    assert rpcs["LiveMatchService/PlayStream"] == "live"
    assert rpcs["PersistenceService/GetMatch"] == "persistence"
