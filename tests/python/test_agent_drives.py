"""Drives as a goal source from Python (AgentWorld.add_drive, add_drive_list, set_drives,
drives): the goal each agent pursues is the brute-force maximum of its entries' utility gains,
a drive written past the margin replans for the better goal, rates move the drives, NumPy in and
out, and bad arguments raise naming them."""
import numpy as np
import pytest

import topoplan as tp
from test_agents import SHOP, HOME_SHUT, check_plans

GOALS = {0: {"bread": "held"}, 1: {"door": "open"}}


def drive_world(margin):
    task = tp.Task.from_dict(SHOP)
    w = tp.AgentWorld(task, capacity=8, decision_period=1000)
    bread = w.add_goal("bread", GOALS[0])
    door = w.add_goal("door", GOALS[1])
    hunger = w.add_drive("hunger", min=0, max=100, rate=-2, initial=50)
    air = w.add_drive("air", initial=50)
    w.set_class_goals(0, w.add_drive_list([{"goal": bread, "drive": "hunger"},
                                           {"goal": door, "drive": air, "curve": "linear",
                                            "slope": 1, "weight": 1.0}], margin=margin))
    w.set_action_drive("TakeBread", hunger, 40)
    for _ in range(3):
        w.add_agent(0, HOME_SHUT)
    return task, w, bread, door, hunger, air


def expected_goals(values):
    """Brute force: linear curves, weight 1 — gain = 1 - value / 100, the first of equal gains."""
    gains = 1.0 - values / 100.0
    best = np.argmax(gains, axis=1)  # argmax takes the first maximum
    return np.where(gains.max(axis=1) > 0, best, -1), gains.max(axis=1)


def test_goal_is_the_highest_gain_and_drives_move():
    task, w, bread, door, hunger, air = drive_world(0.05)
    agents = np.arange(3, dtype=np.int32)
    w.set_drives(agents, hunger, np.array([10.0, 90.0, 50.0]))
    w.set_drives(agents, "air", np.array([80.0, 5.0, 50.0]))
    values = w.drives()
    assert values.shape == (3, 2) and values.dtype == np.float64
    want, score = expected_goals(values)
    ev = w.update(0.0)
    check_plans(task, w, ev, GOALS)
    assert [w.goal(a) for a in range(3)] == want.tolist() == [bread, door, bread]
    assert [w.goal_score(a) for a in range(3)] == pytest.approx(score.tolist())
    # Hunger decays at 2 per second; only the asked agents come out.
    w.update(1.5)
    assert w.drives(np.array([0, 2], dtype=np.int32))[:, 0].tolist() == [7.0, 47.0]
    # Air 0.92 is within agent 0's 0.9 + 0.05 ... air 1.0 is beyond: a better goal.
    w.set_drives(0, air, np.array([8.0]))
    w.update(0.0)
    assert w.goal(0) == bread and w.last_stats["planned"] == 0
    w.set_drives(0, air, np.array([0.0]))
    ev = w.update(0.0)
    check_plans(task, w, ev, GOALS)
    assert w.goal(0) == door and w.last_replan(0) == "better-goal"
    assert w.last_stats["replans"]["better-goal"] == 1


def test_bad_drive_arguments():
    _, w, bread, _, hunger, _ = drive_world(0.0)
    with pytest.raises(ValueError, match="before the first agent"):
        w.add_drive("late")
    with pytest.raises(KeyError, match="no drive 'thirst'"):
        w.set_drives(0, "thirst", np.array([1.0]))
    with pytest.raises(IndexError, match="drive 5 out of range"):
        w.set_action_drive(0, 5, 1.0)
    with pytest.raises(TypeError, match="float64"):
        w.set_drives(np.array([0], dtype=np.int32), hunger, np.array([1], dtype=np.int32))
    with pytest.raises(ValueError, match="finite"):
        w.set_drives(np.array([0], dtype=np.int32), hunger, np.array([np.nan]))
    with pytest.raises(ValueError, match="unknown key 'wieght'"):
        w.add_drive_list([{"goal": bread, "drive": hunger, "wieght": 2}])
    with pytest.raises(ValueError, match="no curve 'cubic'"):
        w.add_drive_list([{"goal": bread, "drive": hunger, "curve": "cubic"}])
    with pytest.raises(ValueError, match="needs 'goal' and 'drive'"):
        w.add_drive_list([{"goal": bread}])
    with pytest.raises(ValueError, match="margin"):
        w.add_drive_list([], margin=-1)
    with pytest.raises(ValueError, match="no goal 9"):
        w.add_drive_list([{"goal": 9, "drive": hunger}])
    with pytest.raises(TypeError, match="weight: expected a number"):
        w.add_drive_list([{"goal": bread, "drive": hunger, "weight": "heavy"}])
