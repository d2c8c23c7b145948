"""Replay made in the page: the built-in wizard arena runs one GOAP episode in WebAssembly (the C
API's topoplan_sim_run), its replay — byte for byte the one `topoplan sim --replay` writes for the
same scenario, selector, seed and --replay-every when the CLI is built — plays to its end; a
broken scenario pasted in the box shows its line; the Sims house runs to its goal.
"""

import os
import subprocess

from webtest import ROOT, check, run

CLI = os.environ.get("TOPOPLAN_CLI", os.path.join(ROOT, "build", "ci", "cli", "topoplan"))


def test(b):
    b.open("replay.html")
    b.wait(lambda d: b.js("return document.body.dataset.ready === '1'"), timeout=60)
    selectors = b.js("return [...document.getElementById('selector').options].map(o => o.value)")
    check(selectors == ["fsm", "goap", "udgoap"], f"arena selectors {selectors}")
    b.js("document.getElementById('selector').value = 'goap';"
         "document.getElementById('seed').value = '2';"
         "document.getElementById('every').value = '5';"
         "document.getElementById('run-sim').click()")
    b.wait(lambda d: b.js("return document.body.dataset.ran === '1'"), timeout=60)
    status = b.text("sim-status")
    print("  " + status)
    check("goap" in status and "kills" in status and "WebAssembly" in status, status)
    replay = b.js("return window.__tp.sim.replay()")
    lines = replay.splitlines()
    check(lines[0].startswith('{"type":"header"') and lines[-1].startswith('{"type":"end"'),
          "header ... end")
    if os.path.exists(CLI):
        out = os.path.join(ROOT, "build", "web-sim", "arena-goap-2.jsonl")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        subprocess.run([CLI, "sim", os.path.join(ROOT, "domains", "sim", "arena.toml"),
                        "--selector", "goap", "--seed", "2", "--replay", out,
                        "--replay-every", "5", "--quiet"], check=True, capture_output=True)
        native = open(out, encoding="utf-8").read()
        check(native == replay, f"the page's replay equals the CLI's ({len(replay)} vs "
              f"{len(native)} bytes)")
        print(f"  replay identical to the CLI's: {len(replay):,} bytes")
    else:
        print(f"  ({CLI} not built: replay not compared with the CLI's)")
    ticks = sorted({int(l.split('"tick":')[1].split(",")[0]) for l in lines if '"state"' in l})
    check(b.text("time").startswith(f"tick {ticks[0]} / {ticks[-1]}"), b.text("time"))
    b.js("document.getElementById('speed').value = '50';"
         "document.getElementById('play').click()")
    b.wait(lambda d: b.js("return document.body.dataset.ended === '1'"), timeout=90)
    check(b.text("time").startswith(f"tick {ticks[-1]} / {ticks[-1]}"), b.text("time"))
    check(b.js("return !document.getElementById('result-panel').classList.contains('hidden')"),
          "the result is shown at the end")
    check('"kills"' in b.text("result"), b.text("result"))
    b.screenshot("replay-run")

    # A broken scenario pasted in the box: its line, no run.
    b.js("const t = document.getElementById('scenario-text');"
         "t.value = '[scenario]\\nkind = \"arena\"\\n\\n[world]\\nwidth = -3\\n';"
         "t.dispatchEvent(new Event('change'))")
    b.wait(lambda d: b.js("return !document.getElementById('sim-error').classList.contains('hidden')"))
    check(b.text("sim-error").startswith("arena.toml:5:"), b.text("sim-error"))

    # The Sims house, UDGOAP, to its goal.
    b.js("const s = document.getElementById('scenario'); s.value = 'domains/sim/sims-house.toml';"
         "s.dispatchEvent(new Event('change'))")
    b.wait(lambda d: b.js("return document.getElementById('selector').options.length === 2"))
    b.js("document.getElementById('selector').value = 'udgoap';"
         "document.getElementById('run-sim').click()")
    b.wait(lambda d: b.js("return document.body.dataset.ran === '1'"), timeout=60)
    check("goal reached" in b.text("sim-status"), b.text("sim-status"))
    check(b.js("return document.querySelectorAll('#drives .bar').length") == 7, "seven drives")
    b.screenshot("replay-house")
    b.assert_no_console_error()


if __name__ == "__main__":
    run(test)
