"""The other pages: the index links the three pages, the benchmark page loads the module; no
console error on either.
"""

from webtest import check, run


def test(b):
    b.open("index.html")
    links = b.js("return [...document.querySelectorAll('main a')].map(a => a.getAttribute('href'))")
    for page in ("playground.html", "town.html", "replay.html", "bench.html"):
        check(page in links, f"index links {page}: {links}")
    b.screenshot("index")
    b.assert_no_console_error()
    b.open("bench.html")
    check(b.js("return typeof window.__tp.bench.western === 'function'"), "bench API present")
    # A tiny fixed-work run: the answer is well formed (no timing is asserted).
    w = b.js("return window.__tp.bench.western(0, 1, 90)")
    check(w["all_solved"] and w["plans_per_rep"] == 90, f"western bench: {w}")
    c = b.js("return window.__tp.bench.crowd(1000, 1, 1)")
    check(c["npcs"] == 1000 and 0.9 < c["solved_fraction"] <= 1.0, f"crowd bench: {c}")
    b.assert_no_console_error()


if __name__ == "__main__":
    run(test)
