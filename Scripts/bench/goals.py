"""The speed issue's table, measured in one run: webparse's defaults, whole runs as a user runs them, against
Playwright reusing its pages from load to load and taking the first non-empty answer (the fastest loop a user
writes; playwright_runner.py reuse), on the benchmark's pages (fixtures.py), the Dash app and, when it is there,
Lightpanda's crawl site. Run by `Scripts/bench/bench.py --sections goals`.
"""
import json
import os
import statistics
import sys

import fixtures
from measure import HERE, cold_runs


def median(runs, key="wall"):
    timed = [run[key] for run in runs if run.get("timed", True)] or [run[key] for run in runs]
    return statistics.median(timed)


def peak(runs):
    return max(run["peak_mb"] for run in runs)


def report(tools, base, dash_url, amiibo, repeats):
    """Measures each row and prints the table: ratio, goal, met or MISSED, and whether every answer was whole."""
    rows = []

    def row(label, ours, theirs, goal, memory=False, memory_goal=None):
        """A row of `ours` against `theirs` (runs), and with `memory` one of their peak memory (`memory_goal`: None
        for a figure without a goal)."""
        whole = all(run["ok"] for run in ours + theirs)
        rows.append((label, median(ours) / median(theirs), goal, whole, median(ours), median(theirs)))
        print(f"  goals: {label}: {rows[-1][1]:.2f}", file=sys.stderr, flush=True)
        if memory or memory_goal is not None:
            rows.append((f"same, peak tree PSS ({peak(ours):.0f} MB against {peak(theirs):.0f})", peak(ours) / peak(theirs),
                         memory_goal, whole, None, None))

    spa, static, heavy = (f"{base}/{kind}" for kind in ("spa", "static", "heavy"))
    row("cold SPA page", cold_runs(lambda sampler: tools.webparse_cold(spa, sampler), repeats),
        cold_runs(lambda sampler: tools.playwright_reused(spa, 1, 1, sampler=sampler), repeats), 0.3)
    for label, url, goal in (("20 static pages, one after another", static, 0.25), ("20 heavy pages (media, slow data)", heavy, 0.35)):
        row(label, [tools.webparse_batch(url, 20, 1)], [tools.playwright_reused(url, 20, 1)], goal)
    if dash_url:
        dash = (fixtures.DASH_SCRIPT, fixtures.DASH_CHAPTERS)
        row("20 Dash pages, one at a time", [tools.webparse_batch(dash_url, 20, 1, *dash)], [tools.playwright_reused(dash_url, 20, 1, *dash)], 0.45)
    row("100 SPA pages at 4", [tools.webparse_batch(spa, 100, 4)], [tools.playwright_reused(spa, 100, 4)], 0.5, memory=True)
    if dash_url:
        row("40 Dash pages at 4", [tools.webparse_batch(dash_url, 40, 4, *dash)], [tools.playwright_reused(dash_url, 40, 4, *dash)], 0.4,
            memory_goal=0.4)
    row("default vs \"settle\": 0, 20 SPA pages (webparse against itself)", [tools.webparse_batch(spa, 20, 1)],
        [tools.webparse_batch(spa, 20, 1, fields={"settle": 0}, capturing=20)], 1.1)
    if amiibo and os.path.isdir(amiibo):
        crawl_server, crawl_base = fixtures.start(root=amiibo)
        start = f"{crawl_base}/index.html"
        settings = {"url": start, "script": "document.getElementById('name').textContent", "timeout": 30, "concurrency": 4,
                    "crawl": {"perHost": 4, "robots": False, "maxPages": 5000}}
        ours = cold_runs(lambda sampler: tools.webparse_config(settings, lambda output: len(output) >= 900, sampler=sampler), 1)
        theirs = cold_runs(lambda sampler: tools.peer([os.path.join(HERE, "playwright_crawl.py"), start, "4"],
                                                      lambda output: output["pages"] >= 900, sampler=sampler), 1)
        crawl_server.shutdown()
        row("amiibo crawl at 4", ours, theirs, 0.1, memory_goal=0.1)

    print("\nThe speed issue's goals: webparse's defaults against Playwright reusing its pages, first answer (wall of whole"
          " runs; s are medians):\n")
    print("| case | webparse s | Playwright s | ratio | goal | | answers |\n|---|---|---|---|---|---|---|")
    for label, ratio, goal, whole, ours, theirs in rows:
        seconds = f"{ours:.2f} | {theirs:.2f}" if ours is not None else " | "
        verdict = "| (measured) |" if goal is None else f"| ≤ {goal} | {'met' if ratio <= goal else 'MISSED'}"
        print(f"| {label} | {seconds} | {ratio:.2f} {verdict} | {'whole' if whole else 'WRONG'} |")
    print(json.dumps({label: round(ratio, 3) for label, ratio, *_ in rows}), file=sys.stderr)
