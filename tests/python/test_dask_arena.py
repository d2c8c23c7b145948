"""The arena's tuning sweep on Dask (scripts/arena-tune.py, docs/sim.md): a LocalCluster of two
workers runs a small sweep through the Python package, sharded by candidate and episode range,
and gives exactly the lifespans of the single-process run — and of `topoplan sim` (the CLI's
lifespans hash) when the CLI is there (TOPOPLAN_CLI; scripts/test.sh sets it)."""
import importlib.util
import json
import os
import subprocess
import tempfile
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")  # scripts/install-deps.sh installs it

ROOT = Path(os.environ.get("TOPOPLAN_SOURCE_DIR", Path(__file__).resolve().parents[2]))
CLI = os.environ.get("TOPOPLAN_CLI", str(ROOT / "build" / "ci" / "cli" / "topoplan"))


def tune_module():
    spec = importlib.util.spec_from_file_location("arena_tune", ROOT / "scripts" / "arena-tune.py")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def candidates(t):
    base = (ROOT / "domains" / "sim" / "arena.toml").read_text()
    base = t.edit_section(base, "udgoap", "template", '"arena-udgoap.toml"')
    tpl = (ROOT / "domains" / "sim" / "arena-udgoap.toml").read_text()
    return [t.variant(base, tpl, fsm=(35, 0)), t.variant(base, tpl, fsm=(80, 40))]


def test_stream_seed_matches_the_library():
    t = tune_module()
    # sim::stream_seed(1, 0) and (7, 3) (src/sim/core.cpp): splitmix64 twice after the mix.
    x = 1
    x = (x + 0x9E3779B97F4A7C15) & t.MASK
    assert t.stream_seed(1, 0) == t.splitmix64(x)[1]
    assert t.stream_seed(7, 3) != t.stream_seed(7, 4)
    assert t.lifespans_hash([]) == 0xcbf29ce484222325


def test_local_cluster_sweep_equals_the_single_process_run():
    t = tune_module()
    cands = candidates(t)
    single = []
    for arena, tpl in cands:
        spans = t.run_shard(arena, tpl, "fsm", 2, 0, 5)
        single.append((sum(spans) / len(spans), t.lifespans_hash(spans)))
    # The two configurations differ: the sweep is not comparing one thing with itself.
    assert single[0][1] != single[1][1]
    engine = t.DaskEngine("local:2", shard=2)  # shards of 2, 2, 1 episodes
    try:
        assert len(engine.client.scheduler_info()["workers"]) == 2
        dask = engine.means(cands, "fsm", 2, 5)
    finally:
        engine.close()
    assert dask == single
    if not Path(CLI).exists():
        return
    with tempfile.TemporaryDirectory() as d:
        path = t.write_scenario(d, *cands[1])
        out = subprocess.run([CLI, "sim", path, "--selector", "fsm", "--episodes", "5", "--seed",
                              "2", "--json", "--quiet"], check=True, capture_output=True,
                             text=True).stdout
    assert json.loads(out)["selectors"][0]["lifespans_hash"] == single[1][1]
