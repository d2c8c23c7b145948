"""topoplan: real-time action planning for game NPCs, from Python.

The planners are the C++ library's (ℙ / TopoPlan, the exact search, GOAP A*, ...); this package
is a thin layer over them (pybind11). docs/python.md is the quick start.

    import topoplan as tp
    task = tp.load_task("domains/horse-breeder.toml")
    result = tp.plan(task, "feed-horses")          # an instance by name, index or Instance
    print(result.names, result.cost, result.engine)
    assert tp.validate(task, "feed-horses", result.actions).valid

Domains as dicts (Task.from_dict / Task.to_dict), values by name::

    {"name": "d",
     "variables": [{"name": "v", "values": ["a", "b"]}],
     "actions": [{"name": "go", "cost": 1, "pre": {"v": "a"}, "post": {"v": "b"},
                  "prevail": {}}],
     "classes": [{"name": "walker", "actions": ["go"]}],          # optional
     "instances": [{"name": "i", "init": {"v": "a"}, "goal": {"v": "b"},
                    "class": "walker"}]}                           # optional

Bad input raises topoplan.InputError (a ValueError) with "file:line: message" or the name of
what is wrong.
"""
from __future__ import annotations

import os

from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Union

from ._topoplan import (  # noqa: F401  (re-exported)
    EVENT_ABORT,
    EVENT_DTYPE,
    EVENT_GOAL_CHANGED,
    EVENT_GOAL_REACHED,
    EVENT_KINDS,
    EVENT_NO_PLAN,
    EVENT_PLANNED,
    EVENT_START,
    PLAN_STATUSES,
    REPLAN_REASONS,
    AgentWorld,
    action_applies,
    apply_action,
    failed_condition,
    goal_holds,
    CROWD_BAD_INPUT,
    CROWD_BUFFER_TOO_SMALL,
    CROWD_CACHE_HIT,
    CROWD_NO_PLAN,
    CROWD_SOLVED,
    CROWD_UNSOLVABLE,
    Crowd,
    CrowdPlanner,
    InputError,
    Instance,
    PlanCache,
    Planner,
    Task,
    TopoPlanner,
    UdgoapAgent,
    UdgoapWorld,
    __version__,
    check,
    family,
    load_scenario,
    load_task,
    parse_task,
    simulate,
)
from . import _topoplan

InstanceRef = Union[None, int, str, Instance]

# Every public name; test_hypothesis_every_door.py calls each callable here with random
# arguments (a new one needs a strategy there).
__all__ = [
    "AgentWorld", "EVENT_ABORT", "EVENT_DTYPE", "EVENT_GOAL_CHANGED", "EVENT_GOAL_REACHED",
    "EVENT_KINDS", "EVENT_NO_PLAN", "EVENT_PLANNED", "EVENT_START", "PLAN_STATUSES",
    "REPLAN_REASONS", "action_applies", "apply_action", "failed_condition", "goal_holds",
    "CROWD_BAD_INPUT", "CROWD_BUFFER_TOO_SMALL", "CROWD_CACHE_HIT", "CROWD_NO_PLAN",
    "CROWD_SOLVED", "CROWD_UNSOLVABLE", "Crowd", "CrowdPlanner", "InputError", "Instance",
    "PlanCache", "PlanResult", "Planner", "Task", "TopoPlanner", "UdgoapAgent", "UdgoapWorld", "Validation",
    "check", "family", "load_scenario", "load_task", "parse_task", "plan", "planners", "save_task", "simulate",
    "validate",
]


@dataclass
class PlanResult:
    """What a planner returned. `status` is one of "solved", "unsolvable" (proven),
    "limit reached", "gave up", "unsupported"; `engine` names the planner that answered."""

    status: str
    actions: List[int]
    names: List[str]
    cost: int
    message: str
    engine: str
    expanded: int
    generated: int
    seconds: float

    def __bool__(self) -> bool:
        return self.status == "solved"


@dataclass
class Validation:
    valid: bool
    failed_step: int  # 0-based (reason's "step N" is failed_step + 1); -1: no step failed
    reason: str
    final_state: List[int] = field(default_factory=list)
    cost: int = 0

    def __bool__(self) -> bool:
        return self.valid


def _task(task: object) -> Task:
    """`task` itself, or TypeError: the functions below reach into it before the extension
    would refuse it."""
    if not isinstance(task, Task):
        raise TypeError(f"task must be a Task, not {type(task).__name__}")
    return task


def planners() -> List[str]:
    """The planner names plan() accepts, in the library's order ("auto" first)."""
    return [name for name, _ in _topoplan.planners()]


def plan(task: Task, instance: InstanceRef = None, planner: str = "auto", *,
         max_expansions: Optional[int] = None,
         max_memory_bytes: Optional[int] = None,
         max_seconds: Optional[float] = None, objective: str = "cost") -> PlanResult:
    """Plans one instance (None: the task's first; an index; a name; an Instance) with the
    planner called `planner` (see planners() and docs/planners.md). A limit left None keeps the
    planner's default; for "auto" the limits bound its A* stage (default 500,000 expansions,
    256 MiB, 1 s). A limit outside its range (topoplan::limits: max_expansions >= 1,
    max_memory_bytes >= 1, max_seconds in [0, 1e9]) raises ValueError. The GIL is released while the planner runs."""
    r = _topoplan._plan(_task(task), instance, planner, max_expansions, max_memory_bytes,
                        None if max_seconds is None else float(max_seconds), objective)
    names = task.actions
    return PlanResult(status=r["status"], actions=list(r["actions"]),
                      names=[names[a] for a in r["actions"]], cost=r["cost"],
                      message=r["message"], engine=r["engine"], expanded=r["expanded"],
                      generated=r["generated"], seconds=r["seconds"])


def validate(task: Task, instance: InstanceRef, actions: Sequence[Union[int, str]]) -> Validation:
    """Checks a plan (action ids or names) from the instance's initial state."""
    _task(task)
    ids = []
    for a in actions:
        if isinstance(a, str):
            found = task.find_action(a)
            if found is None:
                raise KeyError(f"no action called '{a}'")
            ids.append(found)
        else:
            ids.append(int(a))
    r = _topoplan._validate(task, instance, ids)
    return Validation(valid=r["valid"], failed_step=r["failed_step"], reason=r["reason"],
                      final_state=list(r["final_state"]), cost=r["cost"])


def save_task(task: Task, path: str, format: str = "auto") -> None:
    """Writes the task: native TOML (every instance) or, for format "sas" or a .sas path,
    Fast Downward SAS (the first instance)."""
    _task(task)
    # A path, never a file descriptor: open(1, "w") would write to stdout and close it.
    if isinstance(path, (int, bool)) or not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, not {type(path).__name__}")
    path = os.fsdecode(os.fspath(path))
    sas = format == "sas" or (format == "auto" and path.endswith(".sas"))
    if format not in ("auto", "sas", "native"):
        raise ValueError("format: auto, native or sas")
    text = task.to_sas() if sas else task.to_native()
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
