#!/usr/bin/env python3
"""The village (village.toml) on the agent runtime, from Python: villagers who want to eat and
rest, a bakery door that gets closed on them, bread that gets stolen, thieves who wait for the
guard to look away. The script plays the engine exactly as `topoplan agents village.toml` does
(an action takes [agents] action_frames frames, then the engine writes its effects as sensed
facts; the [[event]]s are what some agents sense at some frame) and prints what happens:

    python3 examples/agents/village.py                 # 8 agents, the story
    python3 examples/agents/village.py --agents 1000 --frames 200 --quiet --hash
    python3 examples/agents/village.py --record village.jsonl

Every plan the runtime adopts is checked here with the engines' small calls (action_applies,
apply_action, goal_holds) from the agent's believed state; the exit code is 1 if one fails.
--hash prints the events' hash, the event_hash of `topoplan agents ... --json` for the same
agents and frames.
"""
import argparse
import os
import sys

import numpy as np

import topoplan as tp
from topoplan.agents import FNV_OFFSET, build_world, event_hash, load_agents_file, record

HERE = os.path.dirname(os.path.abspath(__file__))
MASK = (1 << 64) - 1


def splitmix_unit(seed: int) -> float:
    """SplitMix64(seed).unit(), the coin of `topoplan agents` (runtime/random.h)."""
    z = (seed + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    z ^= z >> 31
    return (z >> 11) * 2.0**-53


def chosen(seed: int, frame: int, agent: int, share: float) -> bool:
    """Whether agent `agent` senses a scripted event of `share` at `frame` (as the CLI draws)."""
    if share >= 1.0:
        return True
    s = seed ^ ((frame * 0x9E3779B97F4A7C15) & MASK) ^ ((agent << 20) & MASK)
    return splitmix_unit(s) < share


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?", default=os.path.join(HERE, "village.toml"))
    ap.add_argument("--agents", type=int, default=8)
    ap.add_argument("--frames", type=int, default=140)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-agents-per-part", type=int, default=16384,
                    help="agents per part of the parallel examination (AgentWorld argument)")
    ap.add_argument("--record", help="write the decisions as JSON Lines to this file")
    ap.add_argument("--quiet", action="store_true", help="print the summary only")
    ap.add_argument("--hash", action="store_true", help="print the events' hash")
    args = ap.parse_args(argv)

    af = load_agents_file(args.file)
    task = af.task
    world = build_world(af, capacity=args.agents, threads=args.threads,
                        max_plans_per_frame=args.agents,
                        min_agents_per_part=args.min_agents_per_part)
    # Goals as partial states (for the checks below), by goal id.
    goal_values = {g: [-1] * len(task.variables) for g in range(world.num_goals)}
    for gid, g in enumerate(af.goals):
        for var, value in g.facts.items():
            v = task.variables.index(var)
            goal_values[gid][v] = task.values(v).index(value)
    # Agents: classes in turn, each from its class's first instance (else every first value).
    num_classes = max(1, len(task.classes))
    start = [[0] * len(task.variables) for _ in range(num_classes)]
    for c in range(num_classes):
        for inst in task.instances:
            if inst.npc_class in (c, -1):
                start[c] = list(inst.init)
                break
    for i in range(args.agents):
        world.add_agent(i % num_classes, start[i % num_classes])

    span = af.action_frames + 1
    wheel = [[] for _ in range(span)]  # (agent, action) finishing at that frame
    effects = {a: _effects(task, a) for a in range(len(task.actions))}  # by names
    out = np.zeros(4 * args.agents + 64, dtype=tp.EVENT_DTYPE)
    h = FNV_OFFSET
    replans = dict.fromkeys(tp.REPLAN_REASONS[1:], 0)
    kinds = dict.fromkeys(tp.EVENT_KINDS, 0)
    bad_plans = 0
    next_event = 0
    rec = open(args.record, "w", encoding="utf-8") if args.record else None
    for frame in range(args.frames):
        # The engine: actions that ran their frames are done; it writes their effects.
        due = wheel[frame % span]
        for agent, action in due:
            if world.running_action(agent) == action:
                for var, value in effects[action]:
                    world.set_fact(agent, var, value)
        due.clear()
        # What the agents sense: the file's events.
        while next_event < len(af.events) and af.events[next_event].frame <= frame:
            ev = af.events[next_event]
            next_event += 1
            if ev.frame < frame:
                continue
            for i in range(args.agents):
                if (ev.npc_class == -1 or world.npc_class(i) == ev.npc_class) and chosen(
                        args.seed + ev.line, frame, i, ev.share):
                    for var, value in ev.set.items():
                        world.set_fact(i, var, value)
        events = world.update(1.0 / 60, out)
        stats = world.last_stats
        for reason, n in stats["replans"].items():
            replans[reason] += n
        if stats["events_dropped"]:
            print(f"frame {frame}: {stats['events_dropped']} events dropped", file=sys.stderr)
            return 1
        h = event_hash(events, h)
        if rec:
            record(world, events, rec, frame)
        lines = world.describe(events) if not args.quiet else []
        for k, e in enumerate(events.tolist()):
            agent, kind, _, _, action, goal = e
            kinds[tp.EVENT_KINDS[kind]] += 1
            if kind == tp.EVENT_START:
                wheel[(frame + af.action_frames) % span].append((agent, action))
            if kind == tp.EVENT_PLANNED:
                bad_plans += not _plan_holds(task, world, agent, goal_values[goal])
            if not args.quiet:
                print(f"frame {frame:3}: {lines[k]}")
    if rec:
        rec.close()
    print("replans by reason: " + ", ".join(f"{r} {n}" for r, n in replans.items()))
    print("events: " + ", ".join(f"{k} {n}" for k, n in kinds.items()))
    if args.hash:
        print(f"event_hash {h:016x}")
    if bad_plans:
        print(f"{bad_plans} plans do not reach their goal from the believed state", file=sys.stderr)
        return 1
    return 0


def _effects(task, action):
    """[(variable, value)] that `action` writes (its post-conditions)."""
    return list(task.to_dict()["actions"][action]["post"].items())


def _plan_holds(task, world, agent, goal) -> bool:
    """The agent's plan from its believed state, checked step by step, then its goal."""
    s = world.state(agent)
    for a in world.plan(agent).tolist():
        if not tp.action_applies(task, s, a):
            print(f"agent {agent}: {task.actions[a]}: {tp.failed_condition(task, s, a)}",
                  file=sys.stderr)
            return False
        s = tp.apply_action(task, s, a)
    return tp.goal_holds(task, s, goal)


if __name__ == "__main__":
    sys.exit(main())
