"""Town, GOAP level: the town of `topoplan crowd --domain goap-level` (12 places, GoTo from
anywhere, partial goals) with 10^4 NPCs planned for 60 frames in WebAssembly; every NPC served
each frame gets exactly one outcome; the crowd's planner chain (ℙ, then GOAP A*) leaves none
without a plan or a proof, and the page shows the shares of ℙ and of the fallback. ℙ
answers every NPC of this town itself (its relaxed reachability proofs, docs/
algorithm.md), so the fallback's share is 0; the chain's own answers are tested in test_crowd,
the C API and Python tests on the castle-guard domain.
"""

from webtest import check, run


def percents(text):
    return [float(x.strip(" %<")) for x in text.split("/")]


def test(b):
    b.open("town.html")
    b.js("const t = document.getElementById('town'); t.value = 'goap-level';"
         "t.dispatchEvent(new Event('change'))")
    b.wait(lambda d: b.js("return !!window.__town && window.__town.town === 'goap-level' && "
                          "window.__town.frames >= 60"), timeout=120)
    b.js("document.getElementById('run').click()")  # pause: the figures stay put
    t = b.js("return window.__town")
    s = b.js("return window.__shares")
    print("  GOAP level after 60+ frames:", t, s)
    check(t["npcs"] == 10000 and t["served"] == 10000, f"whole town planned per frame: {t}")
    check(s["served"] >= 60 * 10000, f"served {s['served']}")
    check(s["solved"] + s["unsolvable"] + s["noPlan"] + s["pending"] == s["served"],
          f"one outcome per NPC served: {s}")
    check(s["planned"] + s["hits"] == s["served"], f"ℙ now + cache = served: {s}")
    check(s["solved"] > s["served"] // 2, f"most NPCs get a plan: {s}")
    # The crowd's planner chain: ℙ answers every NPC of this town (plans and proofs: almost half of
    # the town is unsolvable, proved by ℙ's relaxed reachability), so none stays without a plan or
    # a proof, the fallback has nothing to do and nothing is pending after a whole-town batch.
    check(s["unsolvable"] > s["served"] // 10, f"ℙ proves the unsolvable NPCs: {s}")
    check(s["unsolvableFallback"] + s["solvedFallback"] == 0, f"nothing left to the fallback: {s}")
    check(s["solvedFallback"] <= s["solved"] and s["unsolvableFallback"] <= s["unsolvable"], f"{s}")
    check(s["noPlan"] == 0 and s["pending"] == 0, f"no NPC left open: {s}")
    shares = percents(b.text("s-shares"))
    unsolvable = percents(b.text("s-unsolv"))[0]
    check(len(shares) == 3 and abs(shares[0] + shares[1] + shares[2] + unsolvable - 100) < 0.3,
          f"plans by ℙ / fallback / pending {b.text('s-shares')} + unsolvable {unsolvable} %")
    fallback = 100 * (s["solvedFallback"] + s["unsolvableFallback"]) / s["served"]
    check(abs(percents(b.text("s-fallback").split("(")[0])[0] - fallback) < 0.1,
          f"fallback share {b.text('s-fallback')} vs {fallback:.2f} %")
    check(b.js("return document.querySelectorAll('#legend span').length") >= 2, "class legend")
    check(b.js("return document.querySelectorAll('#npc-plan li').length") >= 1,
          "the selected NPC's plan is listed")
    b.screenshot("town-goap-level")
    b.assert_no_console_error()


if __name__ == "__main__":
    run(test)
