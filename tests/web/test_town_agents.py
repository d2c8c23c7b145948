"""Town, agents tab: the village of examples/agents/village.toml living by the agent runtime in
WebAssembly. A villager on its way to the bakery sees the door close (the page's button): it
visibly replans (the panel's reason, its new plan — checked by applying it to what it believes —,
its events); the console stays clean; a bad file is reported with its line; and the events hash
of the module equals the CLI's (`topoplan agents --json`) for the same file, agents, frames,
senses and seed.
"""

import json
import os
import subprocess

from webtest import ROOT, check, run

CLI = os.environ.get("TOPOPLAN_CLI", os.path.join(ROOT, "build", "ci", "cli", "topoplan"))
VILLAGE = os.path.join(ROOT, "examples", "agents", "village.toml")


def name_of(info, var, value):
    return info["variables"][var]["values"][value]


def apply_plan(info, state, plan_names, goal_name):
    """Applies the plan's actions to the believed state (each effect's pre-condition and each
    prevail-condition must hold); True when the goal holds at the end."""
    by_name = {a["name"]: a for a in info["actions"]}
    s = list(state)
    for name in plan_names:
        a = by_name[name]
        for var, value in a["prevail"]:
            check(s[var] == value, f"{name}: prevail {info['variables'][var]['name']}="
                  f"{name_of(info, var, value)} does not hold")
        for var, post, pre in a["effects"]:
            check(pre < 0 or s[var] == pre, f"{name}: pre-condition on "
                  f"{info['variables'][var]['name']} does not hold")
            s[var] = post
    goal = next(g for g in info["goals"] if g["name"] == goal_name)
    return all(x < 0 or s[v] == x for v, x in enumerate(goal["values"]))


def test(b):
    b.open("town.html?view=agents")
    b.wait(lambda d: b.js("return document.body.dataset.agentsReady === '1'"), timeout=60)
    check(b.js("return !document.getElementById('agents-view').classList.contains('hidden')"),
          "the agents tab is shown")
    b.wait(lambda d: int(b.js("return document.body.dataset.agentsFrame")) >= 3, timeout=60)

    # A fresh village without the file's scripted events; the user is the only interruption.
    b.js("window.__agents.pause();"
         "document.getElementById('a-scripted').checked = false;"
         "document.getElementById('a-reset').click();"
         "window.__agents.select(0)")
    info = b.js("return window.__agents.info()")
    check(info["ok"] and info["agents"] == 40 and info["classes"] == ["Villager", "Thief"],
          f"the village: {info.get('classes')}")
    door = next(i for i, v in enumerate(info["variables"]) if v["name"] == "bakeryDoor")
    closed = info["variables"][door]["values"].index("closed")
    # Step until villager 0 believes the door open and still has EnterBakery ahead.
    agent = None
    for _ in range(80):
        b.js("document.getElementById('a-step').click()")
        agent = b.js("return window.__tp.agents.agent(0)")
        if (agent["state"][door] != closed and "EnterBakery" in agent["plan"]
                and agent["plan"].index("EnterBakery") >= agent["step"] and agent["running"]):
            break
    else:
        raise AssertionError(f"villager 0 never had the door open before entering: {agent}")
    before = agent
    print(f"  frame {b.js('return document.body.dataset.agentsFrame')}: villager 0 runs "
          f"{before['running']}, plan {before['plan']}, last replan {before['replan']}")

    # The user closes the door on villager 0 only; one frame later it has replanned.
    b.js("document.getElementById('a-scope').value = 'one';"
         "[...document.querySelectorAll('#a-quick button')]"
         ".find(x => x.textContent === 'Close the bakery door').click();"
         "document.getElementById('a-step').click()")
    after = b.js("return window.__tp.agents.agent(0)")
    reason = b.js("return document.getElementById('a-replan').dataset.reason")
    panel = b.text("a-replan")
    print(f"  after the door closed: {panel}; plan {after['plan']}, running {after['running']}")
    check(reason == "condition-broken" and "broke" in panel, f"the panel's reason: {panel}")
    check(after["state"][door] == closed, "it believes the door closed")
    check("OpenBakeryDoor" in after["plan"][after["step"]:],
          f"the new plan opens the door again: {after['plan']}")
    rest = after["plan"][after["step"]:]
    check(apply_plan(info, after["state"], rest, after["goal"]),
          f"the new plan reaches {after['goal']} from what it believes: {rest}")
    items = b.js("return [...document.querySelectorAll('#a-plan li')].map(li => li.innerText)")
    check(items == after["plan"], f"the panel lists the plan: {items}")
    log = b.text("a-log")
    check("Close the bakery door" in log and "plan of" in log and "(condition-broken)" in log,
          f"the NPC's events show the interruption and the new plan: {log}")
    b.js("document.getElementById('a-run').click()")  # run on: the dots walk
    f0 = int(b.js("return document.body.dataset.agentsFrame"))
    b.wait(lambda d: int(b.js("return document.body.dataset.agentsFrame")) >= f0 + 2, timeout=30)
    b.js("window.__agents.pause()")
    b.screenshot("town-agents")

    # A bad agent table: its line, no world.
    bad = b.js("return window.__tp.agents.create('[domain]\\nname = \"x\"\\n\\n[[variable]]\\n"
               "name = \"v\"\\nvalues = [\"a\", \"b\"]\\n\\n[[event]]\\nframe = -1\\n"
               "set = { v = \"a\" }\\n', 'bad.toml', 3, 1)")
    check(not bad["ok"] and bad["error"]["file"] == "bad.toml" and bad["error"]["line"] == 8,
          f"a bad event is reported at its line: {bad}")
    print(f"  bad file: {bad['error']['text']}")

    # Determinism: the module's events hash equals the CLI's. The worlds below replace the
    # page's, so the page leaves the agents tab first.
    b.js("document.getElementById('tab-crowd').click()")
    text = open(VILLAGE, encoding="utf-8").read()
    runs = [(1000, 200, 0.05, 1), (300, 150, 0.0, 7)]
    for agents, frames, sense, seed in runs:
        made = b.js("return window.__tp.agents.create(arguments[0], 'village.toml', arguments[1], "
                    "arguments[2])", text, agents, seed)
        check(made["ok"], f"village created: {made}")
        page = b.js("return window.__tp.agents.run(arguments[0], arguments[1])", frames, sense)
        check(page["ok"] and page["dropped"] == 0, f"page run: {page}")
        check(os.path.exists(CLI), f"{CLI} is needed for the hash comparison (build the ci preset "
              "or set TOPOPLAN_CLI)")
        out = subprocess.run([CLI, "agents", VILLAGE, "--agents", str(agents), "--frames",
                              str(frames), "--sense", str(sense), "--seed", str(seed), "--json"],
                             check=True, capture_output=True, text=True).stdout
        native = json.loads(out)
        check(native["event_hash"] == page["event_hash"] and
              native["events"] == page["total_events"],
              f"events hash: CLI {native['event_hash']} ({native['events']} events) vs "
              f"WebAssembly {page['event_hash']} ({page['total_events']} events)")
        replans = {k: v for k, v in zip(made["replan_reasons"], page["replans"]) if v}
        for k, v in replans.items():
            check(native["replans"].get(k) == v, f"replans {k}: CLI {native['replans']} vs {replans}")
        print(f"  {agents} agents, {frames} frames, sense {sense}, seed {seed}: hash "
              f"{page['event_hash']} = CLI's, {page['total_events']:,} events, replans {replans}")
    logs = b.logs()
    noisy = [e for e in logs if e["level"] in ("SEVERE", "WARNING")]
    check(not noisy, "console errors or warnings: " + json.dumps(noisy, indent=1))


if __name__ == "__main__":
    run(test)
