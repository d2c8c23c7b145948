#!/usr/bin/env python3
"""Measure every planner on the corpus of real GOAP domains (domains/real/).

For each domain file and each of its instances this runs the topoplan CLI:
  check FILE --json                     class analysis (C0 / C2S / C2* / none and why)
  plan FILE --instance I --planner P    for P in exact, topo, topo-reach, auto, astar (--stats)
  validate FILE PLAN --instance I       for every plan a planner printed
and writes a Markdown report (stdout or --markdown FILE) and a JSON report (--json FILE).

Exit status: 0 when every check holds, 1 when a plan is invalid, auto's cost differs from the
exact optimum, or a planner says "unsolvable" where the exact search found a plan (or claims a
plan where the exact search proved there is none); 2 on usage errors or when the CLI fails.

Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PLANNERS = ["exact", "topo", "topo-reach", "auto", "astar"]

# CLI exit codes (README.md, "Command line").
EXIT_OK = 0
EXIT_INVALID_PLAN = 1
EXIT_USAGE = 2
EXIT_UNSOLVABLE = 11
EXIT_NO_PLAN = 12
EXIT_INPUT = 33

COST_RE = re.compile(r"^;\s*cost\s*=\s*(-?\d+)")
STATS_RE = re.compile(
    r"^;\s*planner:\s*(?P<planner>[^,]*),\s*engine:\s*(?P<engine>[^,]*),\s*status:\s*(?P<status>[^,]*),"
    r"\s*time:\s*(?P<time>[0-9.eE+-]+)\s*s(?:,\s*expanded:\s*(?P<expanded>-?\d+))?"
)
REASON_RE = re.compile(r"^;\s*reason:\s*(.*)$")
FAIL_RE = re.compile(r"^topoplan plan:\s*(?P<status>[^:]+):\s*(?P<message>.*)$")
ACTION_RE = re.compile(r"^\((.*)\)\s*$")


class CliError(Exception):
    pass


def run(cmd: list[str], timeout: float) -> tuple[int | None, str, str, float]:
    """Runs a command; returns (exit code or None on timeout, stdout, stderr, seconds)."""
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
        return None, out, err, time.monotonic() - start
    return p.returncode, p.stdout, p.stderr, time.monotonic() - start


def check_domain(topoplan: str, path: Path, timeout: float) -> dict:
    code, out, err, _ = run([topoplan, "check", str(path), "--json"], timeout)
    if code != EXIT_OK:
        raise CliError(f"check {path}: exit {code}: {err.strip()}")
    try:
        return json.loads(out)
    except json.JSONDecodeError as e:
        raise CliError(f"check {path}: output is not JSON: {e}") from e


def show_counts(topoplan: str, path: Path, timeout: float) -> dict:
    """Counts variables and actions from the file itself (a TOML header count)."""
    text = path.read_text(encoding="utf-8")
    count = lambda header: len(re.findall(r"^\s*\[\[" + header + r"\]\]\s*$", text, re.M))
    return {"variables": count("variable"), "actions": count("action"), "instances": count("instance")}


def domain_class(report: dict) -> tuple[str, str]:
    """The class of the domain (C0 / C2S / C2* / none) and check's reason when it is not C0."""
    cls = str(report.get("class", "?"))
    why = report.get("why_not", "")
    if not why and cls not in ("C0", "?"):
        off = report.get("offenders", {})
        parts = []
        if off.get("non_unary"):
            parts.append(f"not unary: {len(off['non_unary'])} multi-effect action(s)")
        if off.get("post_conflicts"):
            parts.append(f"not post-unique: {len(off['post_conflicts'])} value(s) with several producers")
        parts += [v["message"] for v in report.get("violations", [])[:2] if v.get("message")]
        why = "; ".join(parts)
    return cls, short_reason(why, 120)


def plan_once(topoplan: str, path: Path, instance: str, planner: str, timeout: float, tmpdir: str) -> dict:
    cmd = [topoplan, "plan", str(path), "--instance", instance, "--planner", planner, "--stats"]
    code, out, err, secs = run(cmd, timeout)
    r: dict = {"planner": planner, "exit": code, "seconds": round(secs, 4)}
    if code is None:
        r.update(status="timeout", message=f"no answer within {timeout:g} s")
        return r
    actions, cost = [], None
    for line in out.splitlines():
        m = ACTION_RE.match(line.strip())
        if m:
            actions.append(m.group(1))
            continue
        m = COST_RE.match(line.strip())
        if m:
            cost = int(m.group(1))
    status, message, engine, reason = None, "", None, ""
    for line in err.splitlines():
        line = line.strip()
        m = STATS_RE.match(line)
        if m:
            status, engine = m.group("status").strip(), m.group("engine").strip()
            if m.group("expanded") is not None:
                r["expanded"] = int(m.group("expanded"))
            continue
        m = REASON_RE.match(line)
        if m:
            reason = m.group(1).strip()
            continue
        m = FAIL_RE.match(line)
        if m:
            status = status or m.group("status").strip()
            message = m.group("message").strip()
    if code == EXIT_OK:
        status = "solved"
    elif code == EXIT_UNSOLVABLE:
        status = "unsolvable"
    elif code == EXIT_NO_PLAN:
        status = status or "no plan"
    elif code in (EXIT_USAGE, EXIT_INPUT):
        raise CliError(f"plan {path} --instance {instance} --planner {planner}: exit {code}: {err.strip()}")
    else:
        status = status or f"exit {code}"
    r.update(status=status, engine=engine, message=message or reason, reason=reason)
    if code == EXIT_OK:
        if cost is None:
            raise CliError(f"plan {path} --instance {instance} --planner {planner}: no '; cost = N' line")
        r.update(cost=cost, length=len(actions), plan=actions)
        plan_path = os.path.join(tmpdir, "plan.txt")
        with open(plan_path, "w", encoding="utf-8") as f:
            f.write(out)
        vcode, vout, verr, _ = run([topoplan, "validate", str(path), plan_path, "--instance", instance], timeout)
        if vcode == EXIT_OK:
            r["valid"] = True
        elif vcode == EXIT_INVALID_PLAN:
            r["valid"] = False
            r["invalid_reason"] = (vout + verr).strip()
        else:
            raise CliError(f"validate {path} --instance {instance} ({planner}): exit {vcode}: {verr.strip()}")
    return r


def topo_status(r: dict) -> str:
    s = r["status"]
    if s == "solved":
        return f"plan, cost {r['cost']}"
    if s == "unsolvable":
        return "proof: unsolvable"
    if s == "unsupported":
        return "refused"
    return s


def measure(args) -> dict:
    files = sorted(Path(args.domains).glob("*.toml"))
    if not files:
        raise CliError(f"no .toml files in {args.domains}")
    domains = []
    with tempfile.TemporaryDirectory(prefix="corpus-") as tmpdir:
        for path in files:
            report = check_domain(args.topoplan, path, args.timeout)
            counts = show_counts(args.topoplan, path, args.timeout)
            cls, why = domain_class(report)
            d = {"file": path.name, "domain": report.get("domain", path.stem), "class": cls, "class_why": why,
                 "variables": counts["variables"], "actions": counts["actions"], "instances": []}
            for summary_key in ("unary", "post_unique", "single_valued", "contextually_post_unique"):
                if summary_key in report:
                    d[summary_key] = report[summary_key]
            for ic in report.get("instances", []):
                name = ic.get("name", "")
                if not name:
                    raise CliError(f"{path}: every instance needs a name for --instance")
                inst = {"name": name, "class": ic.get("class", ""), "check_topo": ic.get("topo"),
                        "check_why": ic.get("why", ""), "runs": {}}
                for planner in PLANNERS:
                    inst["runs"][planner] = plan_once(args.topoplan, path, name, planner, args.timeout, tmpdir)
                judge(inst)
                d["instances"].append(inst)
                if args.verbose:
                    print(f"{path.name} / {name}: " + ", ".join(
                        f"{p}={inst['runs'][p]['status']}" for p in PLANNERS), file=sys.stderr)
            domains.append(d)
    return {"topoplan": args.topoplan, "domains": domains, "totals": totals(domains)}


def judge(inst: dict) -> None:
    """Compares every planner with the exact search; records the failures of this instance."""
    runs = inst["runs"]
    exact = runs["exact"]
    problems = []
    optimum = exact.get("cost") if exact["status"] == "solved" else None
    for p, r in runs.items():
        if r.get("valid") is False:
            problems.append(f"{p}: invalid plan ({r.get('invalid_reason', '')})")
        if r["status"] == "unsolvable" and optimum is not None:
            problems.append(f"{p}: says unsolvable, exact found a plan of cost {optimum}")
        if r["status"] == "solved" and exact["status"] == "unsolvable":
            problems.append(f"{p}: found a plan, exact proved the instance unsolvable")
    auto = runs["auto"]
    if exact["status"] in ("solved", "unsolvable"):
        if auto["status"] == "solved" and optimum is not None and auto["cost"] != optimum:
            problems.append(f"auto: cost {auto['cost']} != exact optimum {optimum}")
        if auto["status"] not in ("solved", "unsolvable"):
            problems.append(f"auto: no answer ({auto['status']}: {auto.get('message', '')})")
    inst["auto_equals_exact"] = (
        (exact["status"] == "solved" and auto["status"] == "solved" and auto["cost"] == optimum)
        or (exact["status"] == "unsolvable" and auto["status"] == "unsolvable"))
    topo = runs["topo"]
    inst["topo_answered"] = topo["status"] in ("solved", "unsolvable")
    inst["topo_optimal"] = (
        (topo["status"] == "solved" and optimum is not None and topo["cost"] == optimum)
        or (topo["status"] == "unsolvable" and exact["status"] == "unsolvable"))
    reach = runs["topo-reach"]
    inst["reach_answered"] = reach["status"] in ("solved", "unsolvable")
    inst["reach_optimal"] = (
        (reach["status"] == "solved" and optimum is not None and reach["cost"] == optimum)
        or (reach["status"] == "unsolvable" and exact["status"] == "unsolvable"))
    inst["problems"] = problems


def totals(domains: list[dict]) -> dict:
    insts = [i for d in domains for i in d["instances"]]
    n = len(insts)
    t = {
        "domains": len(domains),
        "instances": n,
        "exact_solved": sum(i["runs"]["exact"]["status"] == "solved" for i in insts),
        "exact_unsolvable": sum(i["runs"]["exact"]["status"] == "unsolvable" for i in insts),
        "topo_plans": sum(i["runs"]["topo"]["status"] == "solved" for i in insts),
        "topo_proofs": sum(i["runs"]["topo"]["status"] == "unsolvable" for i in insts),
        "topo_answered": sum(i["topo_answered"] for i in insts),
        "topo_optimal": sum(i["topo_optimal"] for i in insts),
        "reach_answered": sum(i["reach_answered"] for i in insts),
        "reach_optimal": sum(i["reach_optimal"] for i in insts),
        "auto_equals_exact": sum(i["auto_equals_exact"] for i in insts),
        "astar_solved": sum(i["runs"]["astar"]["status"] == "solved" for i in insts),
        "astar_optimal": sum(i["runs"]["astar"]["status"] == "solved" and i["runs"]["exact"]["status"] == "solved"
                             and i["runs"]["astar"]["cost"] == i["runs"]["exact"]["cost"] for i in insts),
        "plans_validated": sum(r.get("valid") is not None for i in insts for r in i["runs"].values()),
        "invalid_plans": sum(r.get("valid") is False for i in insts for r in i["runs"].values()),
        "wrong_unsolvable": sum(r["status"] == "unsolvable" and i["runs"]["exact"]["status"] == "solved"
                                for i in insts for r in i["runs"].values()),
        "topo_refusals": {},
        "problems": [f"{d['file']} / {i['name']}: {p}" for d in domains for i in d["instances"] for p in i["problems"]],
    }
    for d in domains:
        for i in d["instances"]:
            r = i["runs"]["topo"]
            if r["status"] not in ("solved", "unsolvable"):
                key = f"{r['status']}: {short_reason(r.get('message', ''), anonymous=True)}"
                t["topo_refusals"][key] = t["topo_refusals"].get(key, 0) + 1
    t["topo_answered_share"] = round(t["topo_answered"] / n, 4) if n else 0.0
    t["topo_optimal_share"] = round(t["topo_optimal"] / n, 4) if n else 0.0
    return t


def short_reason(msg: str, limit: int = 90, anonymous: bool = False) -> str:
    msg = " ".join(msg.split())
    if anonymous:
        msg = re.sub(r"'[^']*'", "'…'", msg)  # groups reasons that differ only by names
    return msg if len(msg) <= limit else msg[: limit - 1] + "…"


def md_escape(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def cost_cell(r: dict) -> str:
    s = r["status"]
    if s == "solved":
        return str(r["cost"]) + ("" if r.get("valid", True) else " **INVALID**")
    return s


def markdown(result: dict) -> str:
    lines = ["# Real GOAP corpus: planners against the exact optimum", ""]
    lines += ["| domain | vars / actions | class | instance | exact | ℙ (topo) | ℙ reach (topo-reach) | auto | astar | valid |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for d in result["domains"]:
        first = True
        for i in d["instances"]:
            runs = i["runs"]
            topo = topo_status(runs["topo"])
            if runs["topo"]["status"] not in ("solved", "unsolvable") and runs["topo"].get("message"):
                topo += ": " + short_reason(runs["topo"]["message"], 100)
            reach = cost_cell(runs["topo-reach"])
            if runs["topo-reach"]["status"] == "solved":
                reach += " (= exact)" if i["reach_optimal"] else " (> exact)"
            elif runs["topo-reach"]["status"] != "unsolvable" and runs["topo-reach"].get("message"):
                reach += ": " + short_reason(runs["topo-reach"]["message"], 80)
            auto = cost_cell(runs["auto"])
            if runs["auto"]["status"] == "solved":
                auto += " (= exact)" if i["auto_equals_exact"] else " (≠ exact)"
                if runs["auto"].get("engine"):
                    auto += f", {runs['auto']['engine']}"
            validated = [r for r in runs.values() if r.get("valid") is not None]
            valid = f"{sum(r['valid'] for r in validated)}/{len(validated)}"
            cls = f"{d['class']}" + (f" ({d['class_why']})" if d["class_why"] and first else "")
            lines.append("| " + " | ".join(md_escape(x) for x in [
                d["file"] if first else "", f"{d['variables']} / {d['actions']}" if first else "",
                cls if first else "", i["name"], cost_cell(runs["exact"]), topo, reach, auto, cost_cell(runs["astar"]), valid]) + " |")
            first = False
    t = result["totals"]
    n = t["instances"]
    pct = lambda k: f"{100.0 * t[k] / n:.1f} %" if n else "–"
    lines += ["", "## Totals", "",
              f"- domains: {t['domains']}, instances: {n} (exact: {t['exact_solved']} solved, "
              f"{t['exact_unsolvable']} unsolvable)",
              f"- ℙ answered directly: {t['topo_answered']} ({pct('topo_answered')}): "
              f"{t['topo_plans']} plans, {t['topo_proofs']} unsolvability proofs",
              f"- ℙ at the optimal cost (or a correct proof): {t['topo_optimal']} ({pct('topo_optimal')})",
              f"- ℙ after reformulation (topo-reach) answered: {t['reach_answered']} "
              f"({pct('reach_answered')}), at the optimal cost or a correct proof: "
              f"{t['reach_optimal']} ({pct('reach_optimal')})",
              f"- auto = exact: {t['auto_equals_exact']} / {n}",
              f"- astar: {t['astar_solved']} solved, {t['astar_optimal']} at the optimal cost",
              f"- plans validated: {t['plans_validated']}, invalid: {t['invalid_plans']}",
              f"- wrong \"unsolvable\": {t['wrong_unsolvable']}"]
    if t["topo_refusals"]:
        lines += ["", "ℙ's other answers (status: reason, instances):", ""]
        for k, v in sorted(t["topo_refusals"].items(), key=lambda kv: -kv[1]):
            lines.append(f"- {md_escape(k)}: {v}")
    if t["problems"]:
        lines += ["", "## Failures", ""] + [f"- {md_escape(p)}" for p in t["problems"]]
    return "\n".join(lines) + "\n"


def main() -> int:
    root = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--topoplan", default=str(root / "build/release/cli/topoplan"),
                    help="path of the topoplan CLI (default: %(default)s)")
    ap.add_argument("--domains", default=str(root / "domains/real"), help="folder of .toml domains")
    ap.add_argument("--markdown", metavar="FILE", help="write the Markdown report here instead of stdout")
    ap.add_argument("--json", metavar="FILE", help="write the JSON report here")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per CLI call (default: %(default)s)")
    ap.add_argument("-v", "--verbose", action="store_true", help="one progress line per instance on stderr")
    args = ap.parse_args()
    if not os.access(args.topoplan, os.X_OK):
        print(f"corpus.py: {args.topoplan} is not an executable (use --topoplan PATH)", file=sys.stderr)
        return 2
    try:
        result = measure(args)
    except CliError as e:
        print(f"corpus.py: {e}", file=sys.stderr)
        return 2
    md = markdown(result)
    if args.markdown:
        Path(args.markdown).write_text(md, encoding="utf-8")
    else:
        sys.stdout.write(md)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    t = result["totals"]
    if t["problems"]:
        print(f"corpus.py: {len(t['problems'])} failure(s):", file=sys.stderr)
        for p in t["problems"]:
            print("  " + p, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
