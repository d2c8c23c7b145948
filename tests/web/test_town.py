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
    check(number(stats["pps"]) > 10000, "plans per second " + stats["pps"])
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
    b.assert_no_console_error()


if __name__ == "__main__":
    run(test)
