"""One table of limits (include/topoplan/runtime/limits.h), every door: the same out-of-range
value is refused by the C API (libtopoplan_c through ctypes), by Python and by the command line
with the same range clause ("must be an integer in [1, 10000]"), and the library's doors (C and
Python) with the same whole message. TOPOPLAN_CLI and TOPOPLAN_C_LIBRARY name the built CLI and
libtopoplan_c.so (scripts/test.sh sets them; default: build/ci)."""
import ctypes
import os
import re
import subprocess
from pathlib import Path

import pytest

import topoplan as tp

ROOT = Path(os.environ.get("TOPOPLAN_SOURCE_DIR", Path(__file__).resolve().parents[2]))
HORSE = str(ROOT / "domains" / "horse-breeder.toml")
WESTERN = str(ROOT / "domains" / "western.toml")
WIZARD = str(ROOT / "domains" / "udgoap" / "wizard.toml")
VILLAGE = str(ROOT / "examples" / "agents" / "village.toml")
CLI = os.environ.get("TOPOPLAN_CLI", str(ROOT / "build" / "ci" / "cli" / "topoplan"))
LIBC = os.environ.get("TOPOPLAN_C_LIBRARY", str(ROOT / "build" / "ci" / "src" / "capi" /
                                                "libtopoplan_c.so"))
# Towns and UDGOAP are in the research library (the whole C API); the game's library lacks them.
if Path(LIBC).with_name("libtopoplan_c_research.so").exists():
    LIBC = str(Path(LIBC).with_name("libtopoplan_c_research.so"))
RANGE = re.compile(r"must be (?:an integer|a number) in \[[^\]]*\]")


class Problem(ctypes.Structure):
    _fields_ = [("init", ctypes.POINTER(ctypes.c_int32)), ("goal", ctypes.POINTER(ctypes.c_int32)),
                ("num_variables", ctypes.c_int32), ("npc_class", ctypes.c_int32)]


class PlanOptions(ctypes.Structure):
    _fields_ = [("max_expansions", ctypes.c_int64), ("max_memory_bytes", ctypes.c_int64),
                ("max_seconds", ctypes.c_double), ("objective", ctypes.c_int32),
                ("reserved", ctypes.c_int32)]


class PlanStats(ctypes.Structure):
    _fields_ = [("cost", ctypes.c_int64), ("length", ctypes.c_int32), ("reserved", ctypes.c_int32),
                ("expanded", ctypes.c_int64), ("generated", ctypes.c_int64),
                ("seconds", ctypes.c_double), ("engine", ctypes.c_char * 64)]


class TownDef(ctypes.Structure):
    _fields_ = [("npcs", ctypes.c_int64), ("situations_per_class", ctypes.c_int32),
                ("backgrounds", ctypes.c_int32), ("errand_fraction", ctypes.c_double),
                ("seed", ctypes.c_uint64)]


class CrowdDef(ctypes.Structure):
    _fields_ = [("worker_count", ctypes.c_int32), ("threads", ctypes.c_int32),
                ("enqueue_task", ctypes.c_void_p), ("finish_task", ctypes.c_void_p),
                ("user_task_context", ctypes.c_void_p), ("cache", ctypes.c_void_p),
                ("npcs_per_block", ctypes.c_int32), ("worker_memo_entries", ctypes.c_int32)]


class CrowdChain(ctypes.Structure):
    _fields_ = [("fallback", ctypes.c_char_p), ("class_fallback", ctypes.c_void_p),
                ("num_class_fallback", ctypes.c_int32), ("reserved", ctypes.c_int32),
                ("fallback_budget", ctypes.c_int64), ("max_expansions", ctypes.c_int64),
                ("max_memory_bytes", ctypes.c_int64), ("max_seconds", ctypes.c_double)]


class AgentsDef(ctypes.Structure):
    _fields_ = [("capacity", ctypes.c_int32), ("decision_period", ctypes.c_int32),
                ("max_plan_age", ctypes.c_int64), ("max_plans_per_frame", ctypes.c_int32),
                ("max_plan_length", ctypes.c_int32), ("threads", ctypes.c_int32),
                ("cache_entries", ctypes.c_int32), ("min_agents_per_part", ctypes.c_int32)]


class UdgoapLimits(ctypes.Structure):
    _fields_ = [("max_expansions", ctypes.c_int64), ("max_generated", ctypes.c_int64),
                ("max_plan_length", ctypes.c_int32), ("reserved", ctypes.c_int32)]


@pytest.fixture(scope="module")
def c():
    if "TOPOPLAN_C_LIBRARY" not in os.environ and not Path(LIBC).exists():
        pytest.skip("no libtopoplan_c.so: set TOPOPLAN_C_LIBRARY")
    lib = ctypes.CDLL(LIBC)
    lib.topoplan_status_string.restype = ctypes.c_char_p
    return lib


class CApi:
    def __init__(self, lib):
        self.lib = lib
        self.err = ctypes.create_string_buffer(512)

    def message(self, status):
        assert status != 0, "accepted"
        assert self.lib.topoplan_status_string(status) == b"invalid argument"
        return self.err.value.decode()

    def task(self, path):
        t = ctypes.c_void_p()
        assert self.lib.topoplan_task_load(path.encode(), 0, ctypes.byref(t), self.err, 512) == 0
        return t

    def plan(self, status_ok=False, **limits):
        task = self.task(HORSE)
        problem = Problem()
        assert self.lib.topoplan_task_instance(task, 0, ctypes.byref(problem)) == 0
        options = PlanOptions()
        self.lib.topoplan_plan_options_init(ctypes.byref(options))
        for k, v in limits.items():
            setattr(options, k, v)
        actions = (ctypes.c_int32 * 64)()
        stats = PlanStats()
        s = self.lib.topoplan_plan(task, b"astar", ctypes.byref(problem), ctypes.byref(options),
                                   actions, 64, ctypes.byref(stats), self.err, 512)
        self.lib.topoplan_task_free(task)
        if status_ok:
            return self.lib.topoplan_status_string(s).decode(), self.err.value.decode()
        return self.message(s)

    def crowd(self, chain=None, **fields):
        task, planner = self.crowd_planner()
        d = CrowdDef()
        self.lib.topoplan_crowd_def_init(ctypes.byref(d))
        for k, v in fields.items():
            setattr(d, k, v)
        ch = CrowdChain()
        self.lib.topoplan_crowd_chain_init(ctypes.byref(ch))
        for k, v in (chain or {}).items():
            setattr(ch, k, v)
        out = ctypes.c_void_p()
        s = self.lib.topoplan_crowd_create_with_chain(planner, ctypes.byref(d), ctypes.byref(ch),
                                                      ctypes.byref(out), self.err, 512)
        return self.message(s)

    def crowd_planner(self):
        task = self.task(WESTERN)
        planner = ctypes.c_void_p()
        assert self.lib.topoplan_crowd_planner_create(task, ctypes.byref(planner), self.err,
                                                      512) == 0
        return task, planner

    def town(self, **fields):
        task, planner = self.crowd_planner()
        d = TownDef()
        self.lib.topoplan_town_def_init(ctypes.byref(d))
        for k, v in fields.items():
            setattr(d, k, v)
        town = ctypes.c_void_p()
        s = self.lib.topoplan_town_create(planner, ctypes.byref(d), ctypes.byref(town), self.err,
                                          512)
        return self.message(s)

    def cache(self, capacity=64, max_plan_length=16, table_actions=1024):
        task, planner = self.crowd_planner()
        out = ctypes.c_void_p()
        s = self.lib.topoplan_plan_cache_create_with_table(planner, capacity, max_plan_length,
                                                           table_actions, ctypes.byref(out),
                                                           self.err, 512)
        return self.message(s)

    def agents(self, **fields):
        task, planner = self.crowd_planner()
        d = AgentsDef()
        self.lib.topoplan_agents_def_default(ctypes.byref(d))
        for k, v in fields.items():
            setattr(d, k, v)
        out = ctypes.c_void_p()
        s = self.lib.topoplan_agents_create(planner, ctypes.byref(d), ctypes.byref(out), self.err,
                                            512)
        return self.message(s)

    def udgoap(self, **fields):
        world, agent = ctypes.c_void_p(), ctypes.c_void_p()
        assert self.lib.topoplan_udgoap_load(WIZARD.encode(), ctypes.byref(world),
                                             ctypes.byref(agent), self.err, 512) == 0
        limits = UdgoapLimits()
        self.lib.topoplan_udgoap_limits_init(ctypes.byref(limits))
        for k, v in fields.items():
            setattr(limits, k, v)
        steps = (ctypes.c_int32 * 128)()
        length = ctypes.c_int32()
        s = self.lib.topoplan_udgoap_plan(world, agent, ctypes.byref(limits), steps, 64,
                                          ctypes.byref(length), None, self.err, 512)
        return self.message(s)


def python_message(fn):
    with pytest.raises(ValueError) as e:
        fn()
    return str(e.value)


def cli_message(*args):
    r = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, (args, r.returncode, r.stderr)
    return r.stderr


def core(message):
    """The words after the door's own prefix: "'name' (what) must be ... found v"."""
    return message[message.index("'"):].strip()


def test_every_door_words_every_limit_the_same(c):
    api = CApi(c)
    task = tp.load_task(HORSE)
    planner = tp.CrowdPlanner(tp.load_task(WESTERN))
    _, agent = tp.load_scenario(WIZARD)
    western = tp.load_task(WESTERN)
    cli_ok = Path(CLI).exists() or "TOPOPLAN_CLI" in os.environ
    # (C message, Python message, CLI arguments or None)
    rows = [
        (api.plan(max_expansions=0),
         python_message(lambda: tp.plan(task, 0, "astar", max_expansions=0)),
         ["plan", HORSE, "--planner", "astar", "--max-expansions", "0"]),
        (api.plan(max_seconds=float("inf")),
         python_message(lambda: tp.plan(task, 0, "astar", max_seconds=float("inf"))),
         ["plan", HORSE, "--max-seconds", "inf"]),
        (api.plan(max_seconds=2e9),
         python_message(lambda: tp.plan(task, 0, "astar", max_seconds=2e9)),
         ["plan", HORSE, "--max-seconds", "2e9"]),
        (api.plan(max_memory_bytes=0),
         python_message(lambda: tp.plan(task, 0, "astar", max_memory_bytes=0)), None),
        (api.cache(capacity=0), python_message(lambda: tp.PlanCache(planner, 0)), None),
        (api.cache(max_plan_length=256),
         python_message(lambda: tp.PlanCache(planner, 64, 256)), None),
        (api.cache(table_actions=-1),
         python_message(lambda: tp.PlanCache(planner, 64, 16, -1)), None),
        (api.udgoap(max_plan_length=10**6),
         python_message(lambda: agent.plan(max_plan_length=10**6)),
         ["agent", WIZARD, "--max-plan-length", "1000000"]),
        (api.udgoap(max_expansions=0), python_message(lambda: agent.plan(max_expansions=0)),
         ["agent", WIZARD, "--max-expansions", "0"]),
        (api.town(situations_per_class=10**6), None,
         ["crowd", "--situations", "1000000", "--npcs", "10"]),
        (api.town(npcs=10**8), None, ["crowd", "--npcs", "100000000"]),
        (api.town(backgrounds=10**8), None, None),
        (api.crowd(threads=0), python_message(lambda: tp.Crowd(planner, 0)),
         ["crowd", "--threads", "0", "--npcs", "10"]),
        (api.crowd(threads=2000), python_message(lambda: tp.Crowd(planner, 2000)),
         ["crowd", "--threads", "2000", "--npcs", "10"]),
        (api.crowd(worker_count=0), None, None),
        (api.crowd(npcs_per_block=0), python_message(lambda: tp.Crowd(planner, 1, None, 0)), None),
        (api.crowd(worker_memo_entries=-1),
         python_message(lambda: tp.Crowd(planner, 1, None, 64, -1)), None),
        (api.crowd(chain={"fallback_budget": 0}),
         python_message(lambda: tp.Crowd(planner, fallback_budget=0)), None),
        (api.crowd(chain={"max_expansions": 2**41}),
         python_message(lambda: tp.Crowd(planner, fallback_max_expansions=2**41)), None),
        (api.crowd(chain={"max_memory_bytes": 0}),
         python_message(lambda: tp.Crowd(planner, fallback_max_memory_bytes=0)), None),
        (api.crowd(chain={"max_seconds": float("inf")}),
         python_message(lambda: tp.Crowd(planner, fallback_max_seconds=float("inf"))), None),
        (api.agents(capacity=0), python_message(lambda: tp.AgentWorld(western, capacity=0)),
         ["agents", VILLAGE, "--agents", "0"]),
        (api.agents(capacity=2**28 + 1),
         python_message(lambda: tp.AgentWorld(western, capacity=2**28 + 1)),
         ["agents", VILLAGE, "--agents", str(2**28 + 1)]),
        (api.agents(threads=0), python_message(lambda: tp.AgentWorld(western, threads=0)),
         ["agents", VILLAGE, "--threads", "0"]),
        (api.agents(threads=257), python_message(lambda: tp.AgentWorld(western, threads=257)),
         ["agents", VILLAGE, "--threads", "257"]),
        (api.agents(max_plans_per_frame=0),
         python_message(lambda: tp.AgentWorld(western, max_plans_per_frame=0)),
         ["agents", VILLAGE, "--max-plans", "0"]),
        (api.agents(decision_period=0),
         python_message(lambda: tp.AgentWorld(western, decision_period=0)), None),
        (api.agents(max_plan_age=2**31),
         python_message(lambda: tp.AgentWorld(western, max_plan_age=2**31)), None),
        (api.agents(max_plan_length=256),
         python_message(lambda: tp.AgentWorld(western, max_plan_length=256)), None),
        (api.agents(min_agents_per_part=63),
         python_message(lambda: tp.AgentWorld(western, min_agents_per_part=63)), None),
    ]
    for c_msg, py_msg, cli_args in rows:
        assert RANGE.search(c_msg), c_msg
        if py_msg is not None:
            assert core(py_msg) == core(c_msg), (py_msg, c_msg)
        if cli_args is not None and cli_ok:
            cli = cli_message(*cli_args)
            assert RANGE.search(cli).group(0) == RANGE.search(c_msg).group(0), (cli, c_msg)
    assert cli_ok, "no CLI: set TOPOPLAN_CLI"


def test_a_limit_reached_names_the_field_of_its_door(c):
    """A search stopped by its limit says what to raise in the caller's terms: the C struct's
    field, Python's keyword, the CLI's flag (limits.h, limit_words_for)."""
    api = CApi(c)
    status, c_msg = api.plan(status_ok=True, max_expansions=1)
    assert status == "limit reached", (status, c_msg)
    assert "raise topoplan_plan_options.max_expansions, topoplan_plan_options.max_memory_bytes " \
           "or topoplan_plan_options.max_seconds" in c_msg, c_msg
    r = tp.plan(tp.load_task(HORSE), 0, "astar", max_expansions=1)
    assert r.status == "limit reached"
    assert "raise max_expansions=, max_memory_bytes= or max_seconds=" in r.message, r.message
    _, agent = tp.load_scenario(WIZARD)
    u = agent.plan(max_expansions=1)
    assert u["status"] == "limit reached" and "raise max_expansions=" in u["message"], u
    for text in (c_msg, r.message, u["message"]):
        assert "--" not in text and "SearchLimits" not in text, text
    if Path(CLI).exists() or "TOPOPLAN_CLI" in os.environ:
        p = subprocess.run([CLI, "plan", HORSE, "--planner", "astar", "--max-expansions", "1"],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 12, (p.returncode, p.stderr)
        assert "raise --max-expansions, --max-memory or --max-seconds" in p.stderr, p.stderr
        a = subprocess.run([CLI, "agent", WIZARD, "--max-expansions", "1"], capture_output=True,
                           text=True, timeout=60)
        assert "raise --max-expansions" in a.stderr, a.stderr


# A scenario file's value out of range (limits::kSimAll): the C API's topoplan_sim_parse, Python's
# simulate and the CLI's sim all quote the file's line and the table's words, the words check()
# of the config uses (tests/sim/arena_config_test.cpp walks every entry through the reader).
SCENARIOS = [
    ('scenario.kind = "arena"\nwizard.melee.range = 2001\n[[spot]]\nname = "a"\nx = 0\ny = 0\n',
     "t.toml:2: 'range' of wizard.melee: 'melee_range' (metres of melee reach) must be a number "
     "in [0, 1000], found 2001"),
    ('scenario.kind = "hospital"\ncrowd.threads = 0\n',
     "t.toml:2: 'threads' of [crowd]: 'threads' (crowd planning threads) must be an integer in "
     "[1, 256], found 0"),
    ('scenario.kind = "arena"\nscenario.dt = 2\n[[spot]]\nname = "a"\nx = 0\ny = 0\n',
     "t.toml:2: 'dt' of [scenario]: 'dt' (simulated seconds per tick) must be a number in "
     "[0.001, 1], found 2"),
]


@pytest.mark.parametrize("text,words", SCENARIOS)
def test_a_scenario_value_out_of_range_has_the_tables_words_at_every_door(c, tmp_path, text,
                                                                           words):
    path = tmp_path / "t.toml"
    path.write_text(text)
    api = CApi(c)
    sim = ctypes.c_void_p()
    data = text.encode()
    status = c.topoplan_sim_parse(data, len(data), b"t.toml", None, ctypes.byref(sim), api.err,
                                  512)
    assert c.topoplan_status_string(status) == b"input error", status
    assert api.err.value.decode() == words
    with pytest.raises(tp.InputError) as e:
        tp.simulate(str(path), "fsm", 1)
    assert str(e.value) == str(path)[:-len("t.toml")] + words
    if Path(CLI).exists() or "TOPOPLAN_CLI" in os.environ:
        r = subprocess.run([CLI, "sim", str(path), "--quiet"], capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 33, (r.returncode, r.stderr)
        assert str(path)[:-len("t.toml")] + words in r.stderr, r.stderr


def test_the_sim_threads_flag_and_the_file_share_one_range():
    if not (Path(CLI).exists() or "TOPOPLAN_CLI" in os.environ):
        pytest.skip("no CLI: set TOPOPLAN_CLI")
    hospital = str(ROOT / "domains" / "sim" / "hospital.toml")
    cli = cli_message("sim", hospital, "--threads", "0")
    assert RANGE.search(cli).group(0) == "must be an integer in [1, 256]", cli
    assert RANGE.search(SCENARIOS[1][1]).group(0) == RANGE.search(cli).group(0)


@pytest.mark.parametrize("key,value", [("decision_period", "0"), ("max_plan_age", "1073741825"),
                                       ("action_frames", "0"), ("decision_period", "1.5")])
def test_the_agents_file_words_its_settings_as_the_table(c, tmp_path, key, value):
    """The [agents] table of an agents domain file (examples/agents/village.toml), read by
    `topoplan agents`: file:line and the table's words, those of AgentWorldDef at the C API."""
    if not (Path(CLI).exists() or "TOPOPLAN_CLI" in os.environ):
        pytest.skip("no CLI: set TOPOPLAN_CLI")
    text = Path(VILLAGE).read_text()
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(key + " ="))
    lines[at] = f"{key} = {value}"
    path = tmp_path / "village.toml"
    path.write_text("\n".join(lines) + "\n")
    r = subprocess.run([CLI, "agents", str(path), "--agents", "4", "--frames", "2"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 33, (r.returncode, r.stderr)
    assert f"{path}:{at + 1}: '{key}' of [agents]: '{key}' (" in r.stderr, r.stderr
    assert f"], found {value}" in r.stderr, r.stderr
    if key != "action_frames":  # a setting of the file's script, not of AgentWorldDef
        field = {"max_plan_age": 2**30 + 1, "decision_period": 0}[key]
        c_msg = CApi(c).agents(**{key: field})
        assert RANGE.search(c_msg).group(0) == RANGE.search(r.stderr).group(0), (c_msg, r.stderr)


def test_agent_world_update_refuses_a_bad_dt_in_the_tables_words():
    """AgentWorld.update's dt is the table's row (kAgentsUpdateDt), as topoplan_agents_update
    checks it: an infinite or NaN time would make every drive with a rate NaN."""
    world = tp.AgentWorld(tp.load_task(WESTERN), capacity=4)
    for bad, found in ((float("inf"), "inf"), (float("nan"), "nan"), (-1.0, "-1"), (2e9, "2e+09")):
        with pytest.raises(ValueError) as err:
            world.update(bad)
        message = str(err.value)
        assert message.startswith("AgentWorld.update: 'dt' (seconds since the last update)"), message
        assert RANGE.search(message).group(0) == "must be a number in [0, 1e+09]", message
        assert message.endswith("found " + found), message
    world.update(0.0)
    world.update(1e9)
