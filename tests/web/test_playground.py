"""Playground: Horse Breeder plans to the papers' 6-action plan, validated, class C2* with its
reason in words; every planner answers; the graphs are drawn; a malformed domain shows its line.
"""

from webtest import check, run

EXPECTED = ["PickUpBucket", "FillBucketWithWater", "FillHorseTrough", "DropBucket",
            "TakeHaystack", "FillHorseFeeder"]


def test(b):
    seconds = b.open("playground.html")
    print(f"  playground ready in {seconds * 1e3:.0f} ms "
          f"(WebAssembly instantiated in {b.js('return window.__tp.loadMs'):.0f} ms)")
    b.wait(lambda d: b.js("return document.querySelectorAll('#plan-list li').length") > 0)
    b.assert_no_console_error()

    # The sample is domains/horse-breeder.toml, planned by ℙ ("topo").
    check(b.js("return document.getElementById('sample').value") == "domains/horse-breeder.toml",
          "the first sample is the Horse Breeder")
    plan = b.js("return [...document.querySelectorAll('#plan-list li')].map(li => li.innerText)")
    check(plan == [f"({a})" for a in EXPECTED], f"ℙ's plan: {plan}")
    check("valid plan" in b.text("validation"), "validator: " + b.text("validation"))
    check(b.text("class-badge") == "C2*", "class badge: " + b.text("class-badge"))
    why = b.text("why-not")
    check("both actions of the cycle {DropBucket, PickUpBucket} are requestable" in why,
          "why not C2S, in words: " + why)

    # Every planner answers; the optimal ones find 6 actions; each plan passes the validator.
    rows = b.js("""return [...document.querySelectorAll('#planners-table tbody tr')].map(tr =>
        [...tr.children].map(td => td.innerText))""")
    names = [r[0] for r in rows]
    for p in ("auto", "exact", "astar", "astar-back", "topo", "backstrom"):
        check(p in names, f"planner {p} in the table: {names}")
    for r in rows:
        if r[1] == "solved":
            check(r[2] == "6" and r[6] == "valid", f"row {r}")
    solved = {r[0] for r in rows if r[1] == "solved"}
    check({"auto", "exact", "astar", "astar-back", "topo"} <= solved, f"solved by {solved}")

    # The graphs: one box per action in the action graph, a G(v) per variable.
    boxes = b.js("return document.querySelectorAll('#action-graph svg g[data-action]').length")
    check(boxes == 7, f"action graph nodes: {boxes}")
    dags = b.js("return document.querySelectorAll('#dags svg').length")
    check(dags == 3, f"domain-action graphs: {dags}")
    b.screenshot("playground")

    # A goal typed by value names (as --goal): only water in the trough.
    b.js("const g = document.getElementById('goal'); g.value = 'water=inTrough';"
         "g.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter'}))")
    b.wait(lambda d: "water: inSource → inTrough" in b.text("plan-head"))
    plan = b.js("return [...document.querySelectorAll('#plan-list li')].map(li => li.innerText)")
    check(plan == ["(PickUpBucket)", "(FillBucketWithWater)", "(FillHorseTrough)"], f"{plan}")
    b.js("const g = document.getElementById('goal'); g.value = 'water=inPond';"
         "g.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter'}))")
    b.wait(lambda d: "inPond" in b.text("plan-head"))
    b.js("document.getElementById('goal').value = ''")

    # The .sas sample: same plan through the Fast Downward reader.
    b.js("const s = document.getElementById('sample'); s.value = 'domains/horse-breeder.sas';"
         "s.dispatchEvent(new Event('change'))")
    b.wait(lambda d: "SAS" in b.text("domain-status") and
           b.js("return document.querySelectorAll('#plan-list li').length") == 6)
    check("valid plan" in b.text("validation"), "SAS plan validated")

    # A malformed domain: its line is shown (gutter + message) and nothing is planned.
    b.js("const s = document.getElementById('sample'); s.value = 'domains/horse-breeder.toml';"
         "s.dispatchEvent(new Event('change'))")
    b.wait(lambda d: "TOML" in b.text("domain-status"))
    b.js("""const t = document.getElementById('text');
        const lines = t.value.split('\\n');
        const i = lines.findIndex(l => l.startsWith('post = { haystack = \"none\" }'));
        lines[i] = 'post = { haystack = \"nowhere\" }';
        t.value = lines.join('\\n');
        window.__badLine = i + 1;
        t.dispatchEvent(new Event('input'));""")
    bad = b.js("return window.__badLine")
    b.wait(lambda d: b.js("return !document.getElementById('error').classList.contains('hidden')"))
    err = b.text("error")
    check(f"line {bad}" in err and "nowhere" in err, f"error box names line {bad}: {err}")
    marked = b.js("return [...document.querySelectorAll('#gutter div.error')].map(d => d.innerText)")
    check(marked == [str(bad)], f"gutter marks line {bad}: {marked}")
    check(b.js("return document.querySelectorAll('#plan-list li').length") == 0, "no plan shown")
    b.screenshot("playground-error")
    b.assert_no_console_error()


if __name__ == "__main__":
    run(test)
