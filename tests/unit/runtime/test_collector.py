"""The collector settings a serving process takes (run in a child interpreter: freezing is process-wide)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import gc, json, sys, weakref
from gamehall.runtime import collector
class Node: pass
garbage = Node()
garbage.me = garbage  # a cycle, garbage once dropped: only the cyclic collector frees it
watch = weakref.ref(garbage)
del garbage
collector.settle(int(sys.argv[1]))
print(json.dumps({"frozen": gc.get_freeze_count(), "threshold": gc.get_threshold(), "freed": watch() is None}))
"""


@pytest.mark.parametrize(("asked", "young"), [(7000, 7000), (0, 700)])
def test_settle_freezes_the_start_up_heap_and_sets_the_young_threshold(asked: int, young: int) -> None:
    out = subprocess.run([sys.executable, "-c", PROBE, str(asked)], capture_output=True, text=True, check=True)
    settled = json.loads(out.stdout)
    assert settled["frozen"] > 1000  # the interpreter's and gamehall's modules, out of later collections
    assert settled["threshold"] == [young, 10, 10]
    assert settled["freed"]  # the cycle made before settling was collected, not frozen for good
