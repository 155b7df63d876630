"""webparse against its peers, in one run, on the same local pages and the same machine.

Sections (--sections): "pages" (cold and batch runs of the static, SPA and heavy fixtures), "concurrency" (the SPA
fixture at 1, 2, 4 and 8 pages at once, webparse -jN against Playwright with N pages at once in one browser,
blocking the same resource kinds; peak tree PSS and its slope per extra page) and "dash" (a Plotly Dash app from
PyPI, Scripts/bench/dash_app.py: sequential and 4 at once) and "capture" (the SPA batch at 4 with every job
capturing its /items.json, and with one job of the batch capturing, against the same batch without capture). Both also run webparse with a web process for each
page (pagesPerProcess 1) beside its default of two pages to a process, and the Dash app with four pages to a
process. "settle" (what the default settled answer costs webparse and Playwright, against the first non-empty
answer, on the static and SPA pages one at a time), "coop" (the static and SPA batches with and without `Cross-Origin-Opener-Policy`, at 1 and 4) and
"django" (the Django admin from PyPI: a login with steps, its changelist by `next` and by URL; Scripts/bench/
django_bench.py). "complete" (pages that render the rest of their list later without a request: how many of their 8
items each tool finds, and in what time: webparse's default, "settle": 0 and 1, Playwright's first answer and its
networkidle), and the settle section also measures Playwright's networkidle. "crawl" (Lightpanda's crawl benchmark site, --amiibo: webparse's crawl at 1 and 4 against Playwright crawling it
with 1 and 4 tabs; not run without the site). "queue" (two `webparse work` workers at -j2 sharing a Redis queue against one run at -j4 over 200 pages, and the
amiibo crawl by three workers against run's; Scripts/bench/queue_bench.py). "har" (a page's HAR file written by webparse --har, replayed by
Playwright's route_from_har with the server stopped: the SPA fixture, and the Django admin's login when Django is
installed; it prints whether the replay shows the same data). "extension" (not run unless named) runs
the same binary with and without its web process extension: cold static and SPA pages, and 20 SPA pages at 1. "profile" (not run unless named) prints where the time of a static and a SPA page goes, in fresh and warm tabs
(Scripts/bench/page_profile.py), where the time of one Dash page goes (Scripts/bench/dash_profile.py) and where the
memory of Dash pages 4 at once goes (Scripts/bench/dash_memory.py). "goals" (not run unless named) measures the speed
issue's table against Playwright reusing its pages (Scripts/bench/goals.py). "soak" (not run unless named) runs
one `webparse work -j4` worker over --soak-pages SPA pages (20,000) of a Redis queue and compares its tree's PSS and
pages a second in the last tenth of the run with the first.

Measures wall time (median, min, max over the repeats), CPU time (user + system of the process and the
children it reaped), and the peak memory of the whole process tree (sum of PSS of every process, sampled
every 20 ms; Xvfb and WebKit's processes for webparse, the driver and browser processes for the peers), and
checks every output. Prints a table and the ratios the speed issue sets as targets.
"""
import argparse
import atexit
import json
import os
import shutil
import statistics
import sys
import tempfile

import apps
import dash_memory
import dash_profile
import django_bench
import fixtures
import goals
import page_profile
import queue_bench

from measure import HERE, ROOT, Tools, cold_runs


def slope(points):
    """The least-squares slope of (pages at once, peak MB) points: memory per extra concurrent page."""
    mean_x = statistics.mean(x for x, _ in points)
    mean_y = statistics.mean(y for _, y in points)
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread if spread else 0.0


SOLO = "webparse, a process per page"
SHARED = "webparse, four pages to a process"


def summary(runs, pages=1):
    timed = [r for r in runs if r.get("timed", True)]
    walls = sorted(r["wall"] / pages for r in timed)
    return {"median": statistics.median(walls), "min": walls[0], "max": walls[-1],
            "cpu": statistics.median(r["cpu"] / pages for r in timed),
            "peak_mb": max(r["peak_mb"] for r in runs), "ok": all(r["ok"] for r in runs)}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--webparse", default=os.path.join(ROOT, ".build/release/webparse"))
    parser.add_argument("--python", default=os.path.join(ROOT, ".build/bench-venv/bin/python"))
    parser.add_argument("--repeats", type=int, default=5, help="runs of each cold measurement")
    parser.add_argument("--batch", type=int, default=20, help="pages in a batch")
    parser.add_argument("--spa-batch", type=int, default=100, help="pages in the SPA throughput batch")
    parser.add_argument("--sections", default="pages,settle,complete,concurrency,dash,capture,coop,django,har,queue",
                        help="which sections to run, comma-separated")
    parser.add_argument("--soak-pages", type=int, default=20000, help="pages of the soak section (not run by default: --sections soak)")
    parser.add_argument("--dash-batch", type=int, default=20, help="Dash app pages one at a time (twice as many 4 at once)")
    parser.add_argument("--amiibo", default=os.path.join(ROOT, ".build/lightpanda-demo/public/amiibo"),
                        help="Lightpanda's demo site (public/amiibo of github.com/lightpanda-io/demo) for the crawl section")
    options = parser.parse_args()
    sections = set(options.sections.split(","))

    tools = Tools(options.webparse, options.python if os.path.exists(options.python) else None)
    server, base = fixtures.start()
    rows, results = [], {}
    completeness = []

    def record(fixture, mode, tool, runs, pages=1):
        stats = summary(runs, pages)
        results[(fixture, mode, tool)] = stats
        rows.append((fixture, mode, tool, stats))
        print(f"  {fixture:7} {mode:14} {tool:22} {stats['median']:7.3f} s  {'ok' if stats['ok'] else 'WRONG'}",
              file=sys.stderr, flush=True)

    print(f"peers: chromium {'yes' if tools.chromium else 'no'}, playwright {'yes' if tools.playwright else 'no'}"
          " (Scripts/bench.sh --install-peers installs them)", file=sys.stderr)
    for fixture in ["static", "spa", "heavy"] if "pages" in sections else []:
        url = f"{base}/{fixture}"
        record(fixture, "cold", "webparse", cold_runs(lambda sampler: tools.webparse_cold(url, sampler), options.repeats))
        if tools.chromium:
            record(fixture, "cold", "chromium --dump-dom", cold_runs(lambda sampler: tools.chromium_cold(url, sampler), options.repeats))
        if tools.playwright:
            record(fixture, "cold", "playwright",
                   cold_runs(lambda sampler: tools.playwright_run("cold", url, sampler=sampler), options.repeats))
        for concurrency in (1, 4):
            record(fixture, f"batch {options.batch} -j{concurrency}", "webparse",
                   [tools.webparse_batch(url, options.batch, concurrency)], options.batch)
        if tools.playwright:
            record(fixture, f"batch {options.batch} seq", "playwright",
                   [tools.playwright_run("batch", url, options.batch)], options.batch)
    url = f"{base}/spa"
    if "pages" in sections:
        record("spa", f"batch {options.spa_batch} -j4", "webparse", [tools.webparse_batch(url, options.spa_batch, 4)], options.spa_batch)
        if tools.playwright:
            record("spa", f"batch {options.spa_batch} seq", "playwright",
                   [tools.playwright_run("batch", url, options.spa_batch)], options.spa_batch)
    if "settle" in sections:
        # What the default wait for a settled answer costs each tool: webparse's default against "settle": 0, and
        # Playwright's answer stable for 0.2 s (polled each frame) against its first non-empty answer.
        for fixture in ("static", "spa"):
            url = f"{base}/{fixture}"
            for label, fields in (("settled", None), ("first answer", {"settle": 0})):
                record(fixture, f"{options.batch} at 1, {label}", "webparse",
                       [tools.webparse_batch(url, options.batch, 1, fields=fields, capturing=options.batch if fields else 0)], options.batch)
                if tools.playwright:
                    record(fixture, f"{options.batch} at 1, {label}", "playwright",
                           [tools.playwright_run("batch", url, options.batch, settle_ms=0 if fields else 200)], options.batch)
            if tools.playwright:
                record(fixture, f"{options.batch} at 1, networkidle", "playwright",
                       [tools.playwright_run("networkidle", url, options.batch)], options.batch)
        url = f"{base}/spa"
    if "complete" in sections:
        # How many of the 8 items each tool finds on the pages that render the rest later without a request, each
        # page read `complete_runs` times one after another; and the time a page.
        runs = 5
        for path in fixtures.LATER_PAGES:
            url = base + path
            variants = [("webparse default", None), ("webparse settle 0", {"settle": 0}), ("webparse settle 1", {"settle": 1})]
            for label, fields in variants:
                run = tools.webparse_batch(url, runs, 1, script=fixtures.COUNT_SCRIPT, expected=8, fields=fields,
                                           capturing=runs if fields else 0)
                found = list(json.loads(run["stdout"] or "{}").values())
                completeness.append((path, label, found, run["wall"] / runs))
            if tools.playwright:
                for label, mode, settle_ms in (("playwright first answer", "batch", 0), ("playwright networkidle", "networkidle", 0)):
                    run = tools.playwright_run(mode, url, runs, script=fixtures.COUNT_SCRIPT, expected=8, settle_ms=settle_ms)
                    found = json.loads(run["stdout"] or "[]") if run["status"] == 0 else []
                    completeness.append((path, label, found, run["wall"] / runs))
            for _, label, found, wall in completeness[-5:]:
                print(f"  {path:17} {label:24} items {found}  {wall:.3f} s a page", file=sys.stderr, flush=True)
    if "capture" in sections:
        # The script takes its items from the page, so every result is the same; capture only adds the records'
        # work (they are not the result).
        capture = {"capture": {"url": "/items\\.json$", "as": "json"}}
        for label, capturing in (("none", 0), ("one job", 1), ("every job", options.spa_batch)):
            record("spa", f"{options.spa_batch} at 4, capture: {label}", "webparse",
                   [tools.webparse_batch(url, options.spa_batch, 4, fields=capture, capturing=capturing)], options.spa_batch)
    if "crawl" in sections and os.path.isdir(options.amiibo):
        # Lightpanda's crawl benchmark site: 933 pages whose links their own script writes after a fetch.
        crawl_server, crawl_base = fixtures.start(root=options.amiibo)
        start = f"{crawl_base}/index.html"
        name = "document.getElementById('name').textContent"
        for concurrency in (1, 4):
            settings = {"url": start, "script": name, "timeout": 30, "concurrency": concurrency,
                        "crawl": {"perHost": concurrency, "robots": False, "maxPages": 5000}}
            # Timed unwatched, then one run watched for its peak memory, as the cold rows.
            runs = cold_runs(lambda sampler: tools.webparse_config(settings, lambda output: len(output) >= 900, sampler=sampler), 1)
            pages = len(json.loads(runs[0]["stdout"] or "{}"))
            record("amiibo", f"crawl at {concurrency}", "webparse", runs, pages)
            print(f"  amiibo crawl at {concurrency}: {pages} pages", file=sys.stderr, flush=True)
            if tools.playwright:
                crawl_runs = cold_runs(lambda sampler: tools.peer([os.path.join(HERE, "playwright_crawl.py"), start, str(concurrency)],
                                                                  lambda output: output["pages"] >= 900, sampler=sampler), 1)
                found = json.loads(crawl_runs[0]["stdout"] or "{}").get("pages", 0)
                record("amiibo", f"crawl at {concurrency}", "playwright", crawl_runs, max(found, 1))
                print(f"  amiibo crawl at {concurrency}, playwright: {found} pages", file=sys.stderr, flush=True)
        crawl_server.shutdown()
    if "queue" in sections and queue_bench.available():
        # Workers of a Redis work queue against one run (Scripts/bench/queue_bench.py).
        queue_bench.pages(tools.webparse, base, options.repeats)
        if os.path.isdir(options.amiibo):
            amiibo_server, amiibo_base = fixtures.start(root=options.amiibo)
            queue_bench.amiibo(tools.webparse, f"{amiibo_base}/index.html", "document.getElementById('name').textContent")
            amiibo_server.shutdown()
    if "soak" in sections and queue_bench.available():
        # One long-lived worker: does its memory stay flat and its pace hold (Scripts/bench/queue_bench.py)?
        queue_bench.soak(tools.webparse, base, options.soak_pages)
    if "har" in sections and tools.playwright:
        # A HAR file as users replay it: webparse records a page with --har, the site is stopped, and Playwright's
        # route_from_har (nothing may reach a server) must show the same data from the file alone.
        har_file = os.path.join(tempfile.mkdtemp(), "page.har")
        har_server, har_base = fixtures.start()
        recorded = tools.webparse_config({"url": f"{har_base}/spa", "script": fixtures.SCRIPT}, lambda output: json.loads(output) == fixtures.ITEMS,
                                         arguments=("--har", har_file))
        har_server.shutdown()
        har_server.server_close()
        replayed = tools.peer([os.path.join(HERE, "playwright_har.py"), "spa", har_file, f"{har_base}/spa"], lambda output: output == fixtures.ITEMS)
        print(f"  har: the SPA page recorded by webparse ({'ok' if recorded['ok'] else 'WRONG'}), replayed by Playwright's"
              f" route_from_har with the server stopped: {'the same 20 items' if replayed['ok'] else 'WRONG: ' + replayed['stderr'].decode()[-300:]}",
              file=sys.stderr, flush=True)
        if tools.django:
            django, django_base = django_bench.start(tools.python)
            first = fixtures.DJANGO_GROUPS[:fixtures.DJANGO_PER_PAGE]
            recorded = tools.webparse_config(django_bench.login_job(django_base) | {"retries": 0}, lambda output: json.loads(output) == first,
                                             arguments=("--har", har_file))
            django.terminate()
            django.wait()
            replayed = tools.peer([os.path.join(HERE, "playwright_har.py"), "django", har_file, django_base], lambda output: output == first)
            print(f"  har: the Django admin's login recorded by webparse ({'ok' if recorded['ok'] else 'WRONG'}), replayed by Playwright's"
                  f" route_from_har with Django stopped (the form's POST and its redirect from the file):"
                  f" {'the same ' + str(len(first)) + ' groups' if replayed['ok'] else 'WRONG: ' + replayed['stderr'].decode()[-300:]}",
                  file=sys.stderr, flush=True)
    if "extension" in sections:
        # What loading the web process extension into every page costs: the same binary run beside the extension
        # and alone (a copy in a folder without it, where webparse runs without it and keeps the settle rule).
        alone = tempfile.mkdtemp()
        shutil.copy2(tools.webparse, alone)
        bare = Tools(os.path.join(alone, "webparse"), None)
        for label, tool in (("with the extension", tools), ("without the extension", bare)):
            record("static", f"cold, {label}", "webparse", cold_runs(lambda sampler: tool.webparse_cold(f"{base}/static", sampler), options.repeats))
            record("spa", f"cold, {label}", "webparse", cold_runs(lambda sampler: tool.webparse_cold(f"{base}/spa", sampler), options.repeats))
            record("spa", f"{options.batch} at 1, {label}", "webparse", [tool.webparse_batch(f"{base}/spa", options.batch, 1)], options.batch)
            record("spa", f"{options.batch} at 1, first answer, {label}", "webparse",
                   [tool.webparse_batch(f"{base}/spa", options.batch, 1, fields={"settle": 0}, capturing=options.batch)], options.batch)
        shutil.rmtree(alone)
    if "coop" in sections:
        for fixture in ("static", "spa"):
            for concurrency in (1, 4):
                for label, suffix in (("plain", ""), ("COOP", "?coop")):
                    record(fixture, f"{options.batch} at {concurrency}, {label}", "webparse",
                           [tools.webparse_batch(f"{base}/{fixture}{suffix}", options.batch, concurrency) for _ in range(options.repeats)],
                           options.batch)
    django_login = django_steps = None
    if "django" in sections and tools.django:
        django, django_base = django_bench.start(tools.python)
        atexit.register(django.terminate)
        check = django_bench.checks()
        record("django", "login, next", "webparse", [tools.webparse_config(django_bench.next_config(django_base), check["next"])])
        record("django", "login, next, first answer", "webparse",
               [tools.webparse_config(django_bench.next_config(django_base, settle=0), check["next"])])
        for concurrency in (1, 4):
            record("django", f"login, 6 URLs at {concurrency}", "webparse",
                   [tools.webparse_config(django_bench.range_config(django_base, concurrency), check["range"])])
        if tools.playwright:
            runner = os.path.join(HERE, "playwright_django.py")
            record("django", "login, next", "playwright", [tools.peer([runner, "next", django_base], check["peer"])])
            record("django", "login, next, first answer", "playwright",
                   [tools.peer([runner, "next", django_base], check["peer"], env={"BENCH_SETTLE_MS": "0"})])
            for concurrency in (1, 4):
                record("django", f"login, 6 URLs at {concurrency}", "playwright",
                       [tools.peer([runner, "range", django_base, str(concurrency)], check["peer"])])
        # Three runs, the medians of the login job's time and of its two pages' (one run is at the mercy of a busy moment).
        steps_runs = [tools.webparse_config(django_bench.steps_config(django_base), lambda jsonl: django_bench.steps_ratio(jsonl) is not None,
                                            ["--jsonl"]) for _ in range(3)]
        found = [django_bench.steps_ratio(run["stdout"].decode()) for run in steps_runs if run["ok"]]
        django_steps = tuple(statistics.median(part) for part in zip(*found)) if len(found) == len(steps_runs) else None
        django_login = django_bench.login_time(tools.python)
        if django_steps:
            print(f"  django  steps: login {django_steps[0]} ms, its two pages {django_steps[1]} ms, the server's answer to the login's POST "
                  f"{django_login * 1000:.0f} ms", file=sys.stderr, flush=True)
        django.terminate()
    slopes = {}
    if "concurrency" in sections:
        for tool in ["webparse", "playwright"] if tools.playwright else ["webparse"]:
            points = []
            for pages in (1, 2, 4, 8):
                run = (tools.webparse_batch(url, options.spa_batch, pages) if tool == "webparse"
                       else tools.playwright_concurrent(url, options.spa_batch, pages))
                record("spa", f"{options.spa_batch} at {pages}", tool, [run], options.spa_batch)
                points.append((pages, run["peak_mb"]))
            slopes[tool] = slope(points)
        # The same with a web process for each page (webparse shares one between two pages by default).
        points = [(1, results[("spa", f"{options.spa_batch} at 1", "webparse")]["peak_mb"])]
        for pages in (2, 4, 8):
            run = tools.webparse_batch(url, options.spa_batch, pages, pages_per_process=1)
            record("spa", f"{options.spa_batch} at {pages}", SOLO, [run], options.spa_batch)
            points.append((pages, run["peak_mb"]))
        slopes[SOLO] = slope(points)
    dash = None
    if sections & {"dash", "profile", "goals"} and tools.dash:
        dash, dash_base = apps.start_dash(tools.python)
        dash_url = dash_base + "/"
        atexit.register(dash.terminate)  # also when a section fails
    if "dash" in sections and dash:
        # One at a time as users run it: a whole `webparse run` of a jobs config at -j1, and one Playwright browser
        # loading the pages one after another (no request interception: the app has nothing to block); with the
        # default settled answer and with the first non-empty one.
        for label, fields, settle_ms in (("", None, 200), (", first answer", {"settle": 0}, 0)):
            record("dash", f"{options.dash_batch} at 1{label}", "webparse",
                   [tools.webparse_batch(dash_url, options.dash_batch, 1, fixtures.DASH_SCRIPT, fixtures.DASH_CHAPTERS, fields=fields,
                                         capturing=options.dash_batch if fields else 0)], options.dash_batch)
            if tools.playwright:
                record("dash", f"{options.dash_batch} at 1{label}", "playwright",
                       [tools.playwright_run("batch", dash_url, options.dash_batch, fixtures.DASH_SCRIPT, fixtures.DASH_CHAPTERS, settle_ms)],
                       options.dash_batch)
        for tool in ["webparse", "playwright"] if tools.playwright else ["webparse"]:
            for count, pages in ((2 * options.dash_batch, 4),):
                run = (tools.webparse_batch(dash_url, count, pages, fixtures.DASH_SCRIPT, fixtures.DASH_CHAPTERS) if tool == "webparse"
                       else tools.playwright_concurrent(dash_url, count, pages, fixtures.DASH_SCRIPT, fixtures.DASH_CHAPTERS))
                record("dash", f"{count} at {pages}", tool, [run], count)
                if tool == "webparse" and pages == 4:
                    points = [(1, results[("dash", f"{options.dash_batch} at 1", "webparse")]["peak_mb"]), (4, run["peak_mb"])]
                    slopes["dash webparse"] = slope(points)
                if tool == "playwright" and pages == 4:
                    points = [(1, results[("dash", f"{options.dash_batch} at 1", "playwright")]["peak_mb"]), (4, run["peak_mb"])]
                    slopes["dash playwright"] = slope(points)
        # A web process for each page, and the lighter trade: all four pages in one, taking turns on its one thread.
        for pages_per_process, tool in ((1, SOLO), (4, SHARED)):
            run = tools.webparse_batch(dash_url, 2 * options.dash_batch, 4, fixtures.DASH_SCRIPT, fixtures.DASH_CHAPTERS,
                                       pages_per_process=pages_per_process)
            record("dash", f"{2 * options.dash_batch} at 4", tool, [run], 2 * options.dash_batch)
        solo_peak = results[("dash", f"{2 * options.dash_batch} at 4", SOLO)]["peak_mb"]
        slopes[f"dash {SOLO}"] = slope([(1, results[("dash", f"{options.dash_batch} at 1", "webparse")]["peak_mb"]), (4, solo_peak)])
    if "goals" in sections and tools.playwright:
        goals.report(tools, base, dash_url if dash else None, options.amiibo, options.repeats)
    if "profile" in sections:
        page_profile.report(tools.webparse, base, ["static", "spa"], max(options.batch, 4))
    server.shutdown()

    if completeness:
        # Pages × tools: how many of the runs found all 8 items (and what the others found), and the time a page.
        labels = list(dict.fromkeys(label for _, label, _, _ in completeness))
        print("\n| page (8 items, rest later) | " + " | ".join(labels) + " |")
        print("|---|" + "---|" * len(labels))
        for path in fixtures.LATER_PAGES:
            cells = []
            for label in labels:
                entry = next((e for e in completeness if e[0] == path and e[1] == label), None)
                if entry is None:
                    cells.append("")
                    continue
                _, _, found, wall = entry
                whole = sum(1 for value in found if value == 8)
                others = sorted({value for value in found if value != 8}, key=str)
                cells.append(f"{whole}/{len(found)} whole" + (f" (else {others})" if others else "") + f", {wall:.2f} s")
            print(f"| {path} | " + " | ".join(cells) + " |")
    print("\n| page | mode | tool | median s/page | min | max | CPU s/page | peak MB (tree) | output |")
    print("|---|---|---|---|---|---|---|---|---|")
    for fixture, mode, tool, s in rows:
        print(f"| {fixture} | {mode} | {tool} | {s['median']:.3f} | {s['min']:.3f} | {s['max']:.3f} | {s['cpu']:.3f} "
              f"| {s['peak_mb']:.0f} | {'ok' if s['ok'] else 'WRONG'} |")

    if slopes:
        print("\n| memory per extra concurrent page (slope of peak tree PSS against pages at once) | MB |")
        print("|---|---|")
        for name, value in slopes.items():
            print(f"| {name} | {value:.0f} |")

    def ratio(a, b, key="median"):
        return results[a][key] / results[b][key] if a in results and b in results else None

    batch = f"batch {options.batch}"
    spa, dash_seq, dash_4 = options.spa_batch, options.dash_batch, 2 * options.dash_batch
    targets = [
        (f"{spa} SPA pages at 4, wall vs Playwright at 4", ratio(("spa", f"{spa} at 4", "webparse"), ("spa", f"{spa} at 4", "playwright")), "≤", 0.6),
        (f"same, peak tree PSS", ratio(("spa", f"{spa} at 4", "webparse"), ("spa", f"{spa} at 4", "playwright"), "peak_mb"), "≤", 0.45),
        (f"{dash_seq} Dash pages one at a time, wall vs Playwright (both settled)",
         ratio(("dash", f"{dash_seq} at 1", "webparse"), ("dash", f"{dash_seq} at 1", "playwright")), "≤", 0.45),
        (f"{dash_seq} Dash pages one at a time, wall vs Playwright (both the first answer)",
         ratio(("dash", f"{dash_seq} at 1, first answer", "webparse"), ("dash", f"{dash_seq} at 1, first answer", "playwright")), "≤", 0.45),
        *[(f"{options.batch} {fixture} pages one at a time, settled vs first answer, {tool}",
           ratio((fixture, f"{options.batch} at 1, settled", tool), (fixture, f"{options.batch} at 1, first answer", tool)), "", None)
          for fixture in ("static", "spa") for tool in ("webparse", "playwright")],
        *[(f"{options.batch} {fixture} pages one at a time, wall vs Playwright, {label}",
           ratio((fixture, f"{options.batch} at 1, {label}", "webparse"), (fixture, f"{options.batch} at 1, {label}", "playwright")), "", None)
          for fixture in ("static", "spa") for label in ("settled", "first answer")],
        (f"{dash_4} Dash pages at 4, wall vs Playwright at 4",
         ratio(("dash", f"{dash_4} at 4", "webparse"), ("dash", f"{dash_4} at 4", "playwright")), "≤", 0.45),
        (f"same, peak tree PSS", ratio(("dash", f"{dash_4} at 4", "webparse"), ("dash", f"{dash_4} at 4", "playwright"), "peak_mb"), "≤", 0.5),
        ("memory per extra concurrent Dash page, webparse (MB)", slopes.get("dash webparse"), "≤", 100),
        ("cold SPA page vs Playwright", ratio(("spa", "cold", "webparse"), ("spa", "cold", "playwright")), "≤", 0.55),
        ("cold static page (eval), median s",
         results[("static", "cold", "webparse")]["median"] if ("static", "cold", "webparse") in results else None, "≤", 0.25),
        ("batch static page vs Playwright (per page)",
         ratio(("static", f"{batch} -j1", "webparse"), ("static", f"{batch} seq", "playwright")), "≤", 0.3),
        ("heavy page (batch) vs its 300 ms data delay",
         results[("heavy", f"{batch} -j1", "webparse")]["median"] / 0.3 if ("heavy", f"{batch} -j1", "webparse") in results else None, "≤", 1.15),
        ("peak memory, one SPA page, vs Playwright",
         ratio(("spa", "cold", "webparse"), ("spa", "cold", "playwright"), "peak_mb"), "≤", 0.6),
        (f"{spa} SPA pages at 4, one capturing job (the others pay for the hook) vs no capture",
         ratio(("spa", f"{spa} at 4, capture: one job", "webparse"), ("spa", f"{spa} at 4, capture: none", "webparse")), "≤", 1.05),
        (f"{spa} SPA pages at 4, every job capturing vs no capture",
         ratio(("spa", f"{spa} at 4, capture: every job", "webparse"), ("spa", f"{spa} at 4, capture: none", "webparse")), "≤", 1.1),
        *[(f"{options.batch} {fixture} pages at {concurrency}, COOP vs plain",
           ratio((fixture, f"{options.batch} at {concurrency}, COOP", "webparse"), (fixture, f"{options.batch} at {concurrency}, plain", "webparse")),
           "≤", 1.1) for fixture in ("static", "spa") for concurrency in (1, 4)],
        *[(f"Django admin, {task}, {what} vs Playwright",
           ratio(("django", task, "webparse"), ("django", task, "playwright"), key), "≤", 0.5)
          for task in ("login, next", "login, next, first answer", "login, 6 URLs at 1", "login, 6 URLs at 4")
          for what, key in (("wall", "median"), ("peak tree PSS", "peak_mb"))],
        ("Django login (fill, fill, click, redirect) vs loading its two pages",
         django_steps[0] / django_steps[1] if django_steps else None, "≤", 1.2),
        ("same, without the server's part of the login (its answer to the POST)", (django_steps[0] - 1000 * django_login) / django_steps[1] if django_steps else None, "≤", 1.2),
        *[(f"amiibo crawl (Lightpanda's benchmark site) at {concurrency}, {what} vs Playwright with {concurrency} tabs",
           ratio(("amiibo", f"crawl at {concurrency}", "webparse"), ("amiibo", f"crawl at {concurrency}", "playwright"), key), "≤",
           0.2 if concurrency == 4 else None)
          for concurrency in (1, 4) for what, key in (("wall", "median"), ("peak tree PSS", "peak_mb"))],
        (f"SPA throughput, {options.spa_batch} pages -j4 vs Playwright sequential (×)",
         ratio(("spa", f"batch {options.spa_batch} seq", "playwright"), ("spa", f"batch {options.spa_batch} -j4", "webparse")), "≥", 2.0),
    ]
    print("\n| target | measured | goal | |")
    print("|---|---|---|---|")
    for name, value, relation, goal in targets:
        if value is None:
            print(f"| {name} | (not measured: section not run or peer not installed) | {relation} {goal} | |")
            continue
        if goal is None:
            print(f"| {name} | {value:.2f} | (measured) | |")
            continue
        met = value <= goal if relation == "≤" else value >= goal
        print(f"| {name} | {value:.2f} | {relation} {goal} | {'met' if met else 'MISSED'} |")

    if "profile" in sections:
        if not dash:
            print("\n(profile: Dash is not installed; Scripts/bench.sh --install-peers installs it)")
        elif options.dash_batch < 3:
            print("\n(profile: needs --dash-batch 3 or more)")
        else:
            dash_profile.report(tools.webparse, dash_url, options.dash_batch, tools.python)
            dash_memory.report(tools.webparse, dash_url, 2 * options.dash_batch)


if __name__ == "__main__":
    main()
