"""Replay: opens a `topoplan sim --replay` file through the page's file input, plays it to its
end, and shows the selected agent's position, action, goal and drives as they are at the last
tick; unknown fields and line types are accepted.
"""

import json
import os

from webtest import ROOT, check, run

SAMPLE = os.path.join(ROOT, "web", "sample-replay.jsonl")


def test(b):
    lines = [json.loads(l) for l in open(SAMPLE, encoding="utf-8") if l.strip()]
    header = lines[0]
    states = [l for l in lines if l["type"] == "state"]
    last_tick = max(s["tick"] for s in states)
    wizard_last = [s for s in states if s["npc"] == 0 and s["tick"] == last_tick][0]

    b.open("replay.html")
    b.driver.find_element("id", "file").send_keys(SAMPLE)  # a real file, through the input
    b.wait(lambda d: b.js("return document.body.dataset.loaded === '1'"))
    check("4 agents" in b.text("replay-title"), b.text("replay-title"))
    check(b.js("return document.getElementById('replay-errors').classList.contains('hidden')"),
          "unknown fields and line types are no error")
    b.js("document.getElementById('speed').value = '10'")
    b.js("document.getElementById('agent').value = '0'")
    b.js("document.getElementById('play').click()")
    b.wait(lambda d: b.js("return document.body.dataset.ended === '1'"), timeout=60)
    t = b.text("time")
    check(t.startswith(f"tick {last_tick} / {last_tick}"), "timeline at its end: " + t)
    check(b.js("return document.getElementById('timeline').value") ==
          b.js("return document.getElementById('timeline').max"), "slider at its end")
    check(b.text("a-action") == wizard_last["action"], f"action {b.text('a-action')}")
    check(b.text("a-goal") == wizard_last["goal"], f"goal {b.text('a-goal')}")
    bars = b.js("""return [...document.querySelectorAll('#drives .bar')].map(e =>
        [e.dataset.drive, e.querySelector('.mono').innerText])""")
    check([d for d, _ in bars] == header["drives"], f"drive bars {bars}")
    for d, v in bars:
        check(float(v) == wizard_last["drives"][d], f"drive {d} = {v}")
    # goblin_3 is not in the header: it names itself in its states.
    names = b.js("return [...document.getElementById('agent').options].map(o => o.text)")
    check("goblin_3 (goblin)" in names, f"agents {names}")
    past = b.js("return document.querySelectorAll('#events div.past').length")
    check(past == sum(1 for l in lines if l["type"] == "event"), f"all events past: {past}")
    check("goblins_killed" in b.text("result"), "result shown: " + b.text("result"))
    b.screenshot("replay")

    # Scrub back to the middle: the state there is the file's.
    mid = b.js("const s = document.getElementById('timeline'); s.value = String(Math.floor(s.max / 2));"
               "s.dispatchEvent(new Event('input')); return Number(s.value)")
    ticks = sorted({s["tick"] for s in states})
    w = [s for s in states if s["npc"] == 0 and s["tick"] == ticks[mid]][0]
    check(b.text("a-action") == w["action"], f"scrubbed action {b.text('a-action')} vs {w['action']}")
    b.assert_no_console_error()


if __name__ == "__main__":
    run(test)
