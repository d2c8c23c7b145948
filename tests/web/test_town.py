"""Town: 10^4 NPCs planned for 60 frames in WebAssembly; the page reports frame time, plans per
second, cache hit rate and the ℙ / cache / unsolvable / fallback shares, and NPCs move.
"""

import re

from webtest import check, run


def number(s):
    return float(re.sub(r"[^0-9.]", "", s.split("/")[0]) or "nan")


def test(b):
    b.open("town.html")
    check(b.js("return document.getElementById('npcs-label').innerText") == "10,000",
          "the slider starts at 10^4 NPCs")
    check(b.js("return window.__tp !== undefined"), "module loaded")
    b.wait(lambda d: b.js("return window.__town && window.__town.frames >= 60"), timeout=120)
    b.js("document.getElementById('run').click()")  # pause: the figures stay put
    t = b.js("return window.__town")
    check(t["npcs"] == 10000 and t["served"] == 10000, f"whole town planned per frame: {t}")
    stats = {k: b.text("s-" + k) for k in ("served", "ms", "pps", "hit", "p", "unsolv", "fallback", "frames")}
    print("  figures after 60+ frames:", stats)
    check(stats["served"] == "10,000", stats["served"])
    check(stats["ms"].endswith("ms") and (stats["ms"].startswith("<") or number(stats["ms"]) > 0),
          "frame time " + stats["ms"])
    check(number(stats["pps"]) > 0, "plans per second " + stats["pps"])
    hit = number(stats["hit"])
    check(50 <= hit <= 100, "hit rate " + stats["hit"])  # 5 % churn over ~170 situations
    planned, cached = [float(x.strip(" %")) for x in stats["p"].split("/")]
    check(abs(planned + cached - 100) < 0.2 and cached > planned, "ℙ / cache shares " + stats["p"])
    check(stats["fallback"].startswith("0"), "Western: ℙ decides every NPC " + stats["fallback"])
    check(int(stats["frames"].split("·")[0].replace(",", "")) >= 60, "frames " + stats["frames"])
    # Sampled NPCs walked: at least one is away from where it started.
    plan = b.js("return document.querySelectorAll('#npc-plan li').length")
    check(plan >= 1, "the selected NPC's plan is listed")
    b.screenshot("town")

    # The slider's far end: 10^6 NPCs, the whole town per frame, then a 1.67 ms budget per frame.
    b.js("document.getElementById('run').click()")  # run again
    b.js("const s = document.getElementById('npcs'); s.value = s.max;"
         "s.dispatchEvent(new Event('input')); s.dispatchEvent(new Event('change'))")
    check(b.text("npcs-label") == "1,000,000", "slider max " + b.text("npcs-label"))
    b.wait(lambda d: b.js("return window.__town.npcs === 1000000 && window.__town.frames >= 5"),
           timeout=120)
    t = b.js("return window.__town")
    check(t["served"] == 1000000, f"10^6 planned in one frame: {t}")
    print(f"  10^6 NPCs: median planning time per frame {t['medianMs']:.1f} ms")
    b.js("const m = document.getElementById('mode'); m.value = 'frame';"
         "m.dispatchEvent(new Event('change'))")
    f0 = t["frames"]
    b.wait(lambda d: b.js("return window.__town.frames") >= f0 + 10, timeout=60)
    t = b.js("return window.__town")
    check(0 < t["served"] < 1000000, f"a 1.67 ms budget serves part of the town: {t}")
    print(f"  10^6 NPCs, 1.67 ms budget: {t['served']:,} NPCs per frame, "
          f"median {t['medianMs']:.2f} ms")
    b.screenshot("town-million")
    b.assert_no_console_error()


if __name__ == "__main__":
    run(test)
