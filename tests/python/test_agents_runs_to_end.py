"""Actions that run to their end, from Python (AgentWorld.set_action_runs_to_end): a better goal
aborts the running walk at once unless the walk runs to its end (then the goal waits for it); the
scenario of the C test tests/capi/agents_runs_to_end_test.c. Bad ids and flags raise, naming the
argument. Every plan adopted is checked with the engines' calls (the validator's)."""
import numpy as np
import pytest

import topoplan as tp
from test_agents import SHOP

# pos: home → door → shop; the door must be open to walk in (test_agents.py's shop).
GOALS = {"closed": {"door": "closed"}, "bread": {"bread": "held"}}


def village():
    """A world where "closed" (the door shut) comes before "bread" in the villager's goal list."""
    task = tp.Task.from_dict(SHOP)
    w = tp.AgentWorld(task, capacity=2, decision_period=1000)
    closed = w.add_goal("closed", GOALS["closed"])
    bread = w.add_goal("bread", GOALS["bread"])
    w.set_class_goals(0, w.add_goal_list([closed, bread]))
    return task, w, closed, bread


def update(task, w):
    """One frame; every plan adopted in it is valid from the agent's belief to its goal."""
    ev = w.update(0.0)
    for e in ev[ev["kind"] == tp.EVENT_PLANNED].tolist():
        s = w.state(e[0])
        for a in w.plan(e[0]).tolist():
            assert tp.action_applies(task, s, a), w.describe(ev)
            s = tp.apply_action(task, s, a)
        assert tp.goal_holds(task, s, GOALS[w.goal_name(e[5])]), w.describe(ev)
    return ev


def better_goal_aborts(ev):
    aborts = ev[ev["kind"] == tp.EVENT_ABORT]
    return bool((aborts["detail"] == tp.REPLAN_REASONS.index("better-goal")).any())


@pytest.mark.parametrize("runs_to_end", [False, True])
def test_better_goal_waits_for_an_action_that_runs_to_its_end(runs_to_end):
    task, w, closed, bread = village()
    walk = task.actions.index("WalkToDoor")
    assert w.action_runs_to_end(walk) is False
    w.set_action_runs_to_end("WalkToDoor", runs_to_end)
    assert w.action_runs_to_end(walk) is runs_to_end
    assert w.action_runs_to_end("OpenDoor") is False

    villager = w.add_agent(0, {"pos": "home", "door": "closed", "bread": "shelf"})
    update(task, w)
    assert w.goal(villager) == bread
    assert w.running_action(villager) == walk
    # The door opens during the walk: "closed", earlier in the list, no longer holds.
    w.set_fact(villager, "door", "open")
    ev = update(task, w)
    assert better_goal_aborts(ev) is not runs_to_end, w.describe(ev)
    if runs_to_end:
        # The walk goes on and the goal waits for its end; then the better goal is taken.
        assert w.goal(villager) == bread
        assert w.running_action(villager) == walk
        w.action_finished(villager)
        ev = update(task, w)
        assert not better_goal_aborts(ev), w.describe(ev)
    assert w.goal(villager) == closed
    assert w.last_replan(villager) == "better-goal"


def test_bad_action_or_flag_raises_naming_it():
    _, w, _, _ = village()
    with pytest.raises(IndexError, match=r"action 5 out of range \(5 actions\)"):
        w.set_action_runs_to_end(5, True)
    with pytest.raises(IndexError, match=r"action -1 out of range"):
        w.action_runs_to_end(-1)
    with pytest.raises(KeyError, match="no action 'Fly'"):
        w.action_runs_to_end("Fly")
    with pytest.raises(TypeError, match="runs_to_end: expected a bool"):
        w.set_action_runs_to_end(0, 2)
    with pytest.raises(TypeError, match="runs_to_end: expected a bool"):
        w.set_action_runs_to_end(0, None)
    assert w.action_runs_to_end(0) is False  # nothing was set by the refused calls
    w.set_action_runs_to_end(np.int32(1), np.True_)  # NumPy scalars, as the frame's arrays hold
    assert w.action_runs_to_end("OpenDoor") is True
