#!/usr/bin/env python3
"""Compiles and runs every C snippet of the C API's docs, and checks every C# one.

  tests/docs/check_snippets.py LIB_DIR [DOC.md ...]   (default: docs/c-api.md docs/engines.md)

A ```c block holding `int main` is a whole program: compiled as C99 (warnings as errors) against
libtopoplan_c in LIB_DIR and run from the repository's root; it must exit 0. A fragment names its
harness in an HTML comment on the line before its fence,
`<!-- harness: tests/docs/harness/crowd.c [DEFINE ...] -->`: the fragment replaces the
harness's line `SNIPPET` (each DEFINE is passed as -DDEFINE), and the result is compiled and run the same way. A
```csharp block must appear verbatim (up to indentation) in a file under bindings/csharp/, which
bindings/csharp/test.sh compiles. Prints one line per snippet and "N passed, N failed".
"""
import os
import re
import subprocess
import sys
import tempfile
import textwrap

repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
fence = re.compile(r"^(\s*)```(\w+)\s*$")
harness_re = re.compile(r"<!--\s*harness:\s*(\S+)((?:\s+\w+)*)\s*-->")


def blocks(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = fence.match(lines[i])
        if not m:
            i += 1
            continue
        indent, lang = m.group(1), m.group(2)
        start = i
        body = []
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        h = harness_re.search(lines[start - 1]) if start > 0 else None
        yield start + 1, lang, "\n".join(body) + "\n", h
        i += 1


def csharp_sources():
    for root, _, files in os.walk(os.path.join(repo, "bindings", "csharp")):
        for f in files:
            if f.endswith(".cs"):
                yield open(os.path.join(root, f), encoding="utf-8").read()


def norm(text):
    return [l.strip() for l in text.strip().split("\n")]


def contained(snippet, sources):
    want = norm(snippet)
    for src in sources:
        have = norm(src)
        for k in range(len(have) - len(want) + 1):
            if have[k:k + len(want)] == want:
                return True
    return False


def run_c(source, where, lib_dir, defines):
    with tempfile.TemporaryDirectory() as tmp:
        c = os.path.join(tmp, "snippet.c")
        exe = os.path.join(tmp, "snippet")
        open(c, "w").write(source)
        cmd = ["cc", "-std=c99", "-pedantic-errors", "-Wall", "-Wextra", "-Wconversion", "-Werror",
               "-I" + os.path.join(repo, "include"), c, "-L" + lib_dir, "-ltopoplan_c",
               "-Wl,-rpath," + lib_dir, "-o", exe] + ["-D" + d for d in defines]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            return "does not compile:\n" + r.stderr
        r = subprocess.run([exe], cwd=repo, capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            return "exits %d:\n%s%s" % (r.returncode, r.stdout, r.stderr)
    return None


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    lib_dir = os.path.abspath(sys.argv[1])
    docs = sys.argv[2:] or [os.path.join(repo, "docs", "c-api.md"), os.path.join(repo, "docs", "engines.md")]
    sources = list(csharp_sources())
    passed = failed = 0
    for doc in docs:
        for line, lang, body, h in blocks(doc):
            where = "%s:%d" % (os.path.relpath(doc, repo), line)
            error = None
            if lang == "c":
                if h:
                    harness = open(os.path.join(repo, h.group(1)), encoding="utf-8").read()
                    source = re.sub(r"^[ \t]*SNIPPET[ \t]*$", lambda _: textwrap.indent(body, "    "), harness,
                                    count=1, flags=re.M)
                    error = run_c(source, where, lib_dir, h.group(2).split())
                elif "int main" in body:
                    error = run_c(body, where, lib_dir, [])
                else:
                    error = "a C fragment without a harness comment"
            elif lang == "csharp":
                if not contained(body, sources):
                    error = "not found verbatim in bindings/csharp/*.cs"
            else:
                continue
            if error:
                failed += 1
                print("FAIL %s (%s): %s" % (where, lang, error))
            else:
                passed += 1
                print("ok   %s (%s)" % (where, lang))
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
