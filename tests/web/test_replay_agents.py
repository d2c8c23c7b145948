"""Replay of an agents recording: `topoplan agents examples/agents/village.toml --record F.jsonl`
opened in the Replay page (file input) plays as a simulation's replay: the agents by class, a
timeline over the recorded frames, every decision as an event, the selected agent's goal, plan
and replan reason as the file says at that tick, and the replans by reason at the end.
"""

import json
import os
import subprocess

from webtest import ROOT, check, run

CLI = os.environ.get("TOPOPLAN_CLI", os.path.join(ROOT, "build", "ci", "cli", "topoplan"))
VILLAGE = os.path.join(ROOT, "examples", "agents", "village.toml")


def test(b):
    check(os.path.exists(CLI), f"{CLI} is needed to make the recording (build the ci preset or set "
          "TOPOPLAN_CLI)")
    out = os.path.join(ROOT, "build", "web-sim", "village-record.jsonl")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    subprocess.run([CLI, "agents", VILLAGE, "--agents", "30", "--frames", "150", "--record", out],
                   check=True, capture_output=True)
    decisions = [json.loads(line) for line in open(out, encoding="utf-8") if line.strip()]
    check(len(decisions) > 30, f"{len(decisions)} decisions recorded")
    ticks = sorted({d["tick"] for d in decisions})
    reasons = {}
    for d in decisions:
        reasons[d["reason"]] = reasons.get(d["reason"], 0) + 1
    check("condition-broken" in reasons, f"the village's events break plans: {reasons}")

    b.open("replay.html")
    b.driver.find_element("id", "file").send_keys(out)
    b.wait(lambda d: b.js("return document.body.dataset.loaded === '1'"), timeout=30)
    title = b.text("replay-title")
    print("  " + title)
    check("agents recording" in title and "30 agents" in title and
          f"{len(ticks)} recorded ticks" in title and f"{len(decisions)} events" in title, title)
    check(b.js("return document.getElementById('replay-errors').classList.contains('hidden')"),
          "no line rejected")
    check(b.text("time").startswith(f"tick {ticks[0]} / {ticks[-1]}"), b.text("time"))

    # Agent 0 at the tick of its last condition-broken replan (or its last decision).
    mine = [d for d in decisions if d["agent"] == 0]
    pick = ([d for d in mine if d["reason"] == "condition-broken"] or mine)[-1]
    b.js("document.getElementById('agent').value = '0';"
         "document.getElementById('agent').dispatchEvent(new Event('change'));"
         "const t = document.getElementById('timeline');"
         "t.value = String(arguments[0]); t.dispatchEvent(new Event('input'))",
         ticks.index(pick["tick"]))
    shown = {k: b.text(k) for k in ("a-kind", "a-goal", "a-reason", "a-plan", "a-action")}
    print(f"  agent 0 at tick {pick['tick']}: {shown}")
    check(shown["a-kind"] == pick["class"] and shown["a-goal"] == pick["goal"], f"{shown} vs {pick}")
    check(shown["a-reason"].startswith(pick["reason"]), f"{shown['a-reason']} vs {pick['reason']}")
    if "plan" in pick:
        check(shown["a-plan"] == (" → ".join(pick["plan"]) or "(goal holds)"), shown["a-plan"])
    else:
        check("no plan" in shown["a-reason"], shown["a-reason"])
    events = b.text("events")
    check(f"agent 0 ({pick['class']}) → {pick['goal']}: {pick['reason']}" in events,
          "the decision is in the event list")

    b.js("document.getElementById('speed').value = '4';"
         "document.getElementById('play').click()")
    b.wait(lambda d: b.js("return document.body.dataset.ended === '1'"), timeout=90)
    result = json.loads(b.text("result"))
    check(result["decisions"] == len(decisions) and result["replans"] == reasons,
          f"the result counts the replans by reason: {result} vs {reasons}")
    b.screenshot("replay-agents")
    logs = b.logs()
    noisy = [e for e in logs if e["level"] in ("SEVERE", "WARNING")]
    check(not noisy, "console errors or warnings: " + json.dumps(noisy, indent=1))


if __name__ == "__main__":
    run(test)
