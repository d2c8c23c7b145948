"""Replay of a real `topoplan sim --replay` file: the native CLI (build/ci/cli/topoplan, which
scripts/test.sh builds first) runs one UDGOAP episode of the wizard arena and writes its replay;
the page opens it, lists every agent (antlions by the names their states carry), and plays the
last recorded ticks to the end, where the wizard's action, goal and drives are the file's.
"""

import json
import os
import subprocess

from webtest import ROOT, check, run

CLI = os.environ.get("TOPOPLAN_CLI", os.path.join(ROOT, "build", "ci", "cli", "topoplan"))


def test(b):
    check(os.path.exists(CLI), f"{CLI} is missing: build the CLI first (scripts/test.sh does)")
    out = os.path.join(ROOT, "build", "web-sim", "arena-udgoap.jsonl")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    subprocess.run([CLI, "sim", os.path.join(ROOT, "domains", "sim", "arena.toml"), "--selector",
                    "udgoap", "--episodes", "1", "--seed", "1", "--replay", out,
                    "--replay-every", "20", "--quiet"], check=True, capture_output=True)
    lines = [json.loads(l) for l in open(out, encoding="utf-8") if l.strip()]
    check(lines[0]["type"] == "header" and lines[-1]["type"] == "end", "header ... end")
    states = [l for l in lines if l["type"] == "state"]
    ticks = sorted({s["tick"] for s in states})
    npcs = sorted({s["npc"] for s in states})
    wizard = [s for s in states if s["npc"] == 0]
    print(f"  replay: {len(lines):,} lines, {len(ticks):,} recorded ticks, {len(npcs)} agents, "
          f"{os.path.getsize(out):,} bytes")

    b.open("replay.html")
    b.driver.find_element("id", "file").send_keys(out)
    b.wait(lambda d: b.js("return document.body.dataset.loaded === '1'"), timeout=60)
    check(b.js("return document.getElementById('replay-errors').classList.contains('hidden')"),
          "no line rejected: " + b.text("replay-errors"))
    options = b.js("return [...document.getElementById('agent').options].map(o => o.text)")
    check(len(options) == len(npcs), f"{len(options)} agents listed, {len(npcs)} in the file")
    named = {s["npc"]: s["name"] for s in states if "name" in s}
    for npc, name in list(named.items())[:5]:
        check(any(o.startswith(name + " (") for o in options), f"{name} listed: {options[:8]}")

    # Jump close to the end, play the rest.
    b.js("const s = document.getElementById('timeline'); s.value = String(Math.max(0, s.max - 20));"
         "s.dispatchEvent(new Event('input'));"
         "document.getElementById('speed').value = '10';"
         "document.getElementById('agent').value = '0';"
         "document.getElementById('agent').dispatchEvent(new Event('change'));"
         "document.getElementById('play').click()")
    b.wait(lambda d: b.js("return document.body.dataset.ended === '1'"), timeout=60)
    check(b.text("time").startswith(f"tick {ticks[-1]} / {ticks[-1]}"), b.text("time"))
    last = wizard[-1]
    check(b.text("a-action") == last["action"] and b.text("a-goal") == last["goal"],
          f"wizard at the end: {b.text('a-action')} / {b.text('a-goal')} vs {last}")
    bars = dict(b.js("""return [...document.querySelectorAll('#drives .bar')].map(e =>
        [e.dataset.drive, e.querySelector('.mono').innerText])"""))
    for d, v in last["drives"].items():
        check(float(bars[d]) == v, f"drive {d}: {bars[d]} vs {v}")
    b.screenshot("replay-sim")
    b.assert_no_console_error()


if __name__ == "__main__":
    run(test)
