"""Where the time of one page of the Plotly Dash app goes, in webparse, one page after another.

Four runs of the Dash app (Scripts/bench/dash_app.py), each PAGES pages one at a time:
- the page's own moments: when its chapters are in the document, when its graph is first drawn, its last change
  to the document and its last timer, against when the chapters are first read and when webparse's answer is
  final; and the same moments in Chromium (Playwright, one tab reused from load to load);
- a timeline: the job's script returns the chapters with the page's own clock (Navigation and Resource Timing):
  when the document arrived, when the app's scripts had run (DOMContentLoaded), when the app asked for its
  layout and called back its server, when the chapters were there, and how long from one page's result to the
  next page's start;
- JavaScriptCore's own account (JSC_reportParseTimes, JSC_reportBytecodeCompileTimes, JSC_reportCompileTimes,
  JSC_logGC): parsing, bytecode, JIT compilation and garbage collection, for a run of one page (a web process's
  first page, up to its result) and on average over a run of PAGES;
- with Linux perf (when `perf record` works here), the CPU time of every process and thread kind by library:
  JavaScriptCore, WebCore (libwebkit2gtk: DOM, style, layout, painting, WebKit's messages), JIT-compiled code,
  the kernel.

    dash_profile.py [--pages N]      (Scripts/bench/bench.py --sections profile runs it too)
"""
import argparse
import collections
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time

import apps
import fixtures
import measure


# The benchmark's script, returning the page's clock with the chapters. It counts its own evaluations.
TIMED_SCRIPT = """(() => {
  window.__evaluations = (window.__evaluations || 0) + 1;
  const items = [...document.querySelectorAll('#chapters li')].map(li => li.textContent);
  if (!items.length) return null;
  const navigation = performance.getEntriesByType('navigation')[0];
  return {items, origin: performance.timeOrigin, now: performance.now(), evaluations: window.__evaluations,
          responseEnd: navigation.responseEnd, contentLoaded: navigation.domContentLoadedEventEnd,
          resources: performance.getEntriesByType('resource').map(e => ({name: e.name, start: e.startTime, end: e.responseEnd}))};
})()"""


# A script that records the page's own moments from its first evaluation on (the chapters in the document, the
# graph's first drawing, its last change to the document, its last timer) and when the chapters were first read.
MOMENTS_SCRIPT = """(() => {
  if (!window.__moments) {
    const moments = window.__moments = {};
    new MutationObserver(() => {
      moments.changed = performance.now();
      if (!moments.chapters && document.querySelector('#chapters li')) moments.chapters = moments.changed;
      if (!moments.graph && document.querySelector('.main-svg')) moments.graph = moments.changed;
    }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
    const setTimer = window.setTimeout;
    window.setTimeout = function (callback, ...rest) {
      return setTimer.call(window, function () { moments.timer = performance.now(); if (typeof callback === 'function') return callback.apply(this, arguments); }, ...rest);
    };
  }
  const items = [...document.querySelectorAll('#chapters li')].map(li => li.textContent);
  if (!items.length) return null;
  window.__moments.answered = window.__moments.answered || performance.now();
  return {items, now: performance.now(), contentLoaded: performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd, ...window.__moments};
})()"""

MOMENTS = [("the app's scripts have run (DOMContentLoaded)", "contentLoaded"), ("the chapters are in the document", "chapters"),
           ("the chapters are first read (a first non-empty answer)", "answered"), ("the graph's first drawing", "graph"),
           ("the page's last change to its document", "changed"), ("the page's last timer has run", "timer"),
           ("webparse's answer is final", "now")]


def run_pages(webparse, url, pages, script, env=None, prefix=()):
    """Runs PAGES jobs of the Dash app one at a time; returns (wall seconds, results by job name, stderr)."""
    jobs = [{"name": f"p{n:03}", "url": url, "script": script} for n in range(pages)]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as config:
        json.dump({"concurrency": 1, "jobs": jobs}, config)
    environment = measure.headless_env()
    environment.update(env or {})
    start = time.monotonic()
    process = subprocess.run([*prefix, webparse, "run", config.name], capture_output=True, env=environment, timeout=600)
    wall = time.monotonic() - start
    os.unlink(config.name)
    results = json.loads(process.stdout or b"{}")
    if process.returncode != 0 or len(results) != pages:
        raise SystemExit(f"dash_profile: the run failed: {process.stderr.decode(errors='replace')[-2000:]}")
    return wall, results, process.stderr.decode(errors="replace")


def timeline(webparse, url, pages):
    wall, results, _ = run_pages(webparse, url, pages, TIMED_SCRIPT)
    ordered = [results[name] for name in sorted(results)]
    if any(page["items"] != fixtures.DASH_CHAPTERS for page in ordered):
        raise SystemExit("dash_profile: WRONG chapters")

    def first(page, part):
        found = [(r["start"], r["end"]) for r in page["resources"] if part in r["name"]]
        if not found:
            raise SystemExit(f"dash_profile: the page made no request for {part}: not the benchmark's Dash app?")
        return min(found)

    rows = collections.OrderedDict()
    for page in ordered[1:]:
        marks = {
            "the document's response has arrived": page["responseEnd"],
            "the app's scripts have run (DOMContentLoaded)": page["contentLoaded"],
            "the app asks its server for its layout": first(page, "_dash-layout")[0],
            "the app calls back its server": first(page, "_dash-update-component")[0],
            "the callback's answer has arrived": first(page, "_dash-update-component")[1],
            "webparse's script has the chapters": page["now"],
        }
        for name, value in marks.items():
            rows.setdefault(name, []).append(value)
        rows.setdefault("webparse's script evaluations until then (count)", []).append(page["evaluations"])
    gaps = [ordered[i + 1]["origin"] - (ordered[i]["origin"] + ordered[i]["now"]) for i in range(1, len(ordered) - 1)]
    return wall, rows, gaps


def moments(webparse, python, url, pages):
    """The page's own moments (ms from its navigation start, pages 2 on) in webparse, a fresh tab each, and, when
    Playwright is there, in Chromium, one tab reused from load to load (playwright_runner.py marks)."""
    _, results, _ = run_pages(webparse, url, pages, MOMENTS_SCRIPT)
    engines = {"webparse (WebKit)": [results[name] for name in sorted(results)][1:]}
    runner = os.path.join(os.path.dirname(os.path.abspath(__file__)), "playwright_runner.py")
    if python and os.path.exists(python):
        environment = measure.headless_env()
        environment["BENCH_SETTLE_MS"] = "0"
        found = subprocess.run([python, runner, "marks", url, str(pages), MOMENTS_SCRIPT], capture_output=True, env=environment,
                               timeout=600)
        if found.returncode == 0:
            # Its "now" is the reading 1.5 s after the answer: not a moment of the page.
            engines["Playwright (Chromium)"] = [{k: v for k, v in page.items() if k != "now"} for page in json.loads(found.stdout)[1:]]
    for name, pages_read in engines.items():
        if any(page["items"] != fixtures.DASH_CHAPTERS for page in pages_read):
            raise SystemExit(f"dash_profile: WRONG chapters in {name}")
    return engines


GC_CYCLE = re.compile(r"cycle ([\d.]+)ms END")
TIMES = [("parsing", re.compile(r"^Parsed .* in ([\d.]+) ms")),
         ("bytecode", re.compile(r"^Compiled .* into bytecode .* in ([\d.]+) ms")),
         ("JIT: {}", re.compile(r"^Optimized .* using (\w+) with .* in ([\d.]+) ms"))]


def javascriptcore(webparse, url, pages):
    """JavaScriptCore's times (ms): a run of one page, and the average page of a run of PAGES (a run ends at its
    last result: the work a page still does after it is left out)."""
    env = {"JSC_reportParseTimes": "1", "JSC_reportBytecodeCompileTimes": "1", "JSC_reportCompileTimes": "1",
           "JSC_logGC": "1"}

    def totals(count):
        _, _, log = run_pages(webparse, url, count, fixtures.DASH_SCRIPT, env)
        found = collections.Counter()
        for line in log.splitlines():
            for name, pattern in TIMES:
                match = pattern.match(line)
                if match:
                    groups = match.groups()
                    found[name.format(groups[0]) if len(groups) == 2 else name] += float(groups[-1])
            match = GC_CYCLE.search(line)
            if match:
                found["garbage collection (cycles)"] += float(match.group(1))
        return found

    one, many = totals(1), totals(pages)
    return {name: (one[name], many[name] / pages) for name in sorted(set(one) | set(many))}


def perf_works():
    if not shutil.which("perf"):
        return False
    probe = subprocess.run(["perf", "record", "-e", "cpu-clock", "-o", os.devnull, "--", "true"], capture_output=True)
    return probe.returncode == 0


def cpu_profile(webparse, url, pages):
    """CPU ms per page by (process or thread, library), sampled by perf over PAGES pages; perf slows the run."""
    with tempfile.TemporaryDirectory() as folder:
        data = os.path.join(folder, "perf.data")
        run_pages(webparse, url, pages, fixtures.DASH_SCRIPT,
                  prefix=("perf", "record", "-q", "-e", "cpu-clock", "-F", "1999", "-o", data, "--"))
        # Tab-separated (thread names have spaces); a cpu-clock sample's period is the time it stands for, in ns,
        # whatever rate perf ended up sampling at.
        report = subprocess.run(["perf", "report", "-i", data, "--sort", "comm,dso", "-F", "period,comm,dso", "-t", "\t",
                                 "--stdio"], capture_output=True, text=True).stdout
    rows = []
    for line in report.splitlines():
        fields = [field.strip() for field in line.split("\t")]
        if len(fields) == 3 and fields[0].isdigit():
            rows.append((int(fields[0]) / 1e6 / pages, fields[1], fields[2]))
    return sorted(rows, reverse=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--webparse", default=os.path.join(measure.ROOT, ".build/release/webparse"))
    parser.add_argument("--python", default=os.path.join(measure.ROOT, ".build/bench-venv/bin/python"))
    options = parser.parse_args()
    if options.pages < 3:
        parser.error("--pages: at least 3 (the first page is left out of the timeline, and it needs two after it)")
    dash, url = apps.start_dash(options.python)
    try:
        report(options.webparse, url, options.pages, options.python)
    finally:
        dash.terminate()


def report(webparse, url, pages, python=None):
    """Prints the four parts as Markdown tables (the page's moments in Chromium too with `python`, Playwright's)."""
    engines = moments(webparse, python, url, pages)
    print(f"\nThe page's own moments, {pages} pages one after another (medians, ms from the navigation start, pages 2 on; "
          "Chromium's last columns are read 1.5 s after its first answer):\n")
    print("| moment | " + " | ".join(engines) + " |\n|---|" + "---|" * len(engines))
    for label, key in MOMENTS:
        cells = []
        for pages_read in engines.values():
            values = [page[key] for page in pages_read if key in page]
            cells.append(f"{statistics.median(values):.0f}" if len(values) == len(pages_read) else "")
        print(f"| {label} | " + " | ".join(cells) + " |")

    wall, rows, gaps = timeline(webparse, url, pages)
    print(f"\nOne Dash page after another, {pages} pages: {wall / pages * 1000:.0f} ms a page. Times from the page's "
          "navigation start, pages 2 on (medians, ms):\n")
    print("| moment | median | min | max |\n|---|---|---|---|")
    for name, values in rows.items():
        print(f"| {name} | {statistics.median(values):.0f} | {min(values):.0f} | {max(values):.0f} |")
    print(f"| from a page's result to the next page's navigation start | {statistics.median(gaps):.0f} | "
          f"{min(gaps):.0f} | {max(gaps):.0f} |")

    print("\nJavaScriptCore's own account (ms; JIT compilation and most of the collection run on threads of their own):\n")
    print(f"| work | one page alone | a page of {pages}, on average |\n|---|---|---|")
    for name, (cold, warm) in javascriptcore(webparse, url, pages).items():
        print(f"| {name} | {cold:.1f} | {warm:.1f} |")

    if not perf_works():
        print("\n(perf is not installed or not allowed here: no CPU profile)")
        return
    rows = cpu_profile(webparse, url, pages)
    total = sum(ms for ms, _, _ in rows)
    print(f"\nCPU time by process or thread and library, sampled by perf (it slows the run): {total:.0f} ms a page "
          "in all; rows of 2 ms a page or more:\n")
    print("| thread | library | ms a page | share |\n|---|---|---|---|")
    for ms, comm, dso in rows:
        if ms >= 2:
            print(f"| {comm} | {dso} | {ms:.0f} | {ms / total:.0%} |")


if __name__ == "__main__":
    main()
