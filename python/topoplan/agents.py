"""The agent runtime from Python: helpers around topoplan.AgentWorld (docs/python.md, "Agents").

AgentWorld itself is the C++ runtime (topoplan/agents/agents.h); this module adds what is
convenient in Python and not on a frame's hot path:

* load_agents_file(path): a domain file with the agent sections `topoplan agents` reads
  ([agents], [[goal]], [[event]]; docs/agents.md) — the task, the goals by class, the scripted
  events, the settings;
* build_world(...): an AgentWorld with those goals set up per class;
* record(world, events, out): the decisions of one update (plans adopted, no plan) as JSON Lines,
  the lines `topoplan agents --record` writes;
* event_hash(events, h): the FNV-1a hash over the events that `topoplan agents --json` prints
  (event_hash), to compare a Python run with a C++ run of the same inputs.
"""
from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from typing import IO, Any, Dict, List, Optional

import numpy as np

from ._topoplan import (
    EVENT_NO_PLAN,
    EVENT_PLANNED,
    PLAN_STATUSES,
    REPLAN_REASONS,
    AgentWorld,
    InputError,
    Task,
    parse_task,
)

_AGENT_SECTIONS = ("agents", "goal", "event")
_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.-]+)\s*\]\]?")


@dataclass
class Goal:
    name: str
    facts: Dict[str, str]
    classes: List[int]  # empty: every class


@dataclass
class SensedEvent:
    frame: int
    npc_class: int  # -1: every class
    share: float
    set: Dict[str, str]
    line: int


@dataclass
class AgentsFile:
    task: Task
    goals: List[Goal] = field(default_factory=list)
    events: List[SensedEvent] = field(default_factory=list)  # by frame, then file order
    decision_period: int = 30
    max_plan_age: int = 0
    action_frames: int = 3


def _split(text: str):
    """The domain's lines (agent sections blanked, so that line numbers stay the file's) and the
    agent sections' text."""
    domain, agent = [], []
    inside = False
    for line in text.splitlines():
        m = _HEADER.match(line)
        if m:
            inside = m.group(1) in _AGENT_SECTIONS
        (agent if inside else domain).append(line)
        (domain if inside else agent).append("")
    return "\n".join(domain) + "\n", "\n".join(agent) + "\n"


def load_agents_file(path: str) -> AgentsFile:
    """Reads a domain file with agent sections. Bad input raises InputError naming the file."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    domain_text, agent_text = _split(text)
    task = parse_task(domain_text, filename=path)
    try:
        spec = tomllib.loads(agent_text)
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{path}: {e}") from None
    classes = task.classes

    def class_ids(value: Any, where: str) -> List[int]:
        names = [value] if isinstance(value, str) else list(value)
        out = []
        for n in names:
            if n not in classes:
                raise InputError(f"{path}: {where}: no class '{n}'")
            out.append(classes.index(n))
        return out

    af = AgentsFile(task=task)
    settings = spec.get("agents", {})
    for key in settings:
        if key not in ("decision_period", "max_plan_age", "action_frames"):
            raise InputError(f"{path}: [agents]: unknown key '{key}'")
    af.decision_period = int(settings.get("decision_period", af.decision_period))
    af.max_plan_age = int(settings.get("max_plan_age", af.max_plan_age))
    af.action_frames = int(settings.get("action_frames", af.action_frames))
    for g in spec.get("goal", []):
        af.goals.append(Goal(g["name"], dict(g.get("facts", {})),
                             class_ids(g["class"], "[[goal]] " + g["name"]) if "class" in g else []))
    # Line numbers of [[event]] headers: the CLI seeds each event's coin with its line.
    lines = [i + 1 for i, line in enumerate(text.splitlines())
             if (m := _HEADER.match(line)) and m.group(1) == "event" and line.strip().startswith("[[")]
    for e, line in zip(spec.get("event", []), lines):
        c = class_ids(e["class"], "[[event]]")[0] if "class" in e else -1
        af.events.append(SensedEvent(int(e["frame"]), c, float(e.get("share", 1.0)),
                                     dict(e.get("set", {})), line))
    af.events.sort(key=lambda e: e.frame)  # stable: file order within a frame
    return af


def build_world(af: AgentsFile, capacity: int, **kwargs: Any) -> AgentWorld:
    """An AgentWorld for the file's task: its goals, each class's list in file order."""
    w = AgentWorld(af.task, capacity=capacity, decision_period=af.decision_period,
                   max_plan_age=af.max_plan_age, **kwargs)
    num_classes = max(1, len(af.task.classes))
    ids = [w.add_goal(g.name, g.facts) for g in af.goals]
    for c in range(num_classes):
        lst = [i for i, g in zip(ids, af.goals) if not g.classes or c in g.classes]
        w.set_class_goals(c, w.add_goal_list(lst))
    return w


_FNV_PRIME = 1099511628211
_MASK = (1 << 64) - 1
FNV_OFFSET = 1469598103934665603


def event_hash(events: np.ndarray, h: int = FNV_OFFSET) -> int:
    """Continues the FNV-1a hash of `topoplan agents` over a frame's events."""
    for e in events.tolist():
        agent, kind, detail, step, action, goal = e
        for x in (agent & 0xFFFFFFFF, kind, detail, step, action & 0xFFFFFFFF, goal & 0xFFFFFFFF):
            h = ((h ^ x) * _FNV_PRIME) & _MASK
    return h


def record(world: AgentWorld, events: np.ndarray, out: IO[str], tick: Optional[int] = None) -> int:
    """Writes the decisions among one update's events (a plan adopted, no plan) as JSON Lines
    (tick, agent, class, goal, plan or no_plan, reason); call it right after update(). Returns
    the lines written."""
    task = world.task
    classes = task.classes
    actions = task.actions
    if tick is None:
        tick = world.frame - 1
    written = 0
    for e in events[(events["kind"] == EVENT_PLANNED) | (events["kind"] == EVENT_NO_PLAN)].tolist():
        agent, kind, detail, _, _, goal = e
        j: Dict[str, Any] = {"tick": tick, "agent": agent,
                             "class": classes[world.npc_class(agent)] if classes else "",
                             "goal": world.goal_name(goal)}
        if kind == EVENT_PLANNED:
            j["plan"] = [actions[a] for a in world.plan(agent).tolist()]
            j["reason"] = REPLAN_REASONS[detail]
        else:
            j["no_plan"] = PLAN_STATUSES[detail]
            j["reason"] = world.last_replan(agent)
        out.write(json.dumps(j, separators=(",", ":")) + "\n")
        written += 1
    return written
