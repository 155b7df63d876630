"""Where the time of a static or SPA page goes in webparse: in a fresh tab (a job's) and in a warm tab (a crawl's
next page, the floor), one page at a time and four at once, with and without the web process extension.

Each run reads PAGES pages of the benchmark's site (Scripts/bench/fixtures.py) with a script that returns the items
with the page's own clock (Navigation and Resource Timing, in WebKit's 1 ms steps), read at each evaluation, so the
result holds the moment of the reading that made it final:
- jobs: PAGES jobs of /static or /spa, each in a fresh tab; "no extension": the same binary copied where its web
  process extension is not, so no pending tracker runs (pages then keep the settle rule);
- crawl: PAGES pages of /chain/static/ or /chain/spa/, each page in the tab the one before left.
The phases of a page:
- between pages (runs at 1 only): from the previous page's final reading to this page's request: the answer's way
  back to webparse, the job's end and the next one's start, its tab, WebKit's navigation;
- the document's request: fetchStart to responseEnd;
- parsing and the page's own scripts: responseEnd to the end of DOMContentLoaded;
- the page's data (SPA): to the end of the response of /items.json;
- until the answer is final: from there to the final reading;
with the wall time a page (the run's, whole) and the CPU time a page by process, sampled from /proc.

    page_profile.py [--pages N] [--kinds static,spa]      (Scripts/bench/bench.py --sections profile runs it too)
"""
import argparse
import collections
import json
import os
import shutil
import statistics
import subprocess
import tempfile

import fixtures
import measure

# The benchmark's script with the page's clock; null until the 20 items are there.
TIMED_SCRIPT = """(() => {
  const items = Array.from(document.querySelectorAll('.item'), e => e.textContent);
  if (items.length !== 20) return null;
  const navigation = performance.getEntriesByType('navigation')[0];
  const data = performance.getEntriesByType('resource').find(e => e.name.endsWith('/items.json'));
  return {items, origin: performance.timeOrigin, now: performance.now(), fetchStart: navigation.fetchStart,
          responseEnd: navigation.responseEnd, contentLoaded: navigation.domContentLoadedEventEnd,
          data: data ? data.responseEnd : null};
})()"""

PHASES = ["between pages", "the document's request", "parsing and the page's own scripts", "the page's data",
          "until the answer is final"]


def cpu_by_process(pids):
    """The CPU seconds each process of `pids` has used, by name, and their sum (a sample for measure.Sampler, whose
    largest total is its last)."""
    found = collections.Counter()
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                text = stat.read()
        except OSError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text.rsplit(")", 1)[1].split()
        found[name] += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return sum(found.values()), found


def run(webparse, settings, pages):
    """Runs the config `settings`; returns (wall s, the pages' clocks in the order they were read, CPU s by process)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as config:
        json.dump(settings, config)
    try:
        result = measure.measure([webparse, "run", config.name], measure.headless_env(),
                                 lambda pid: measure.Sampler(pid, sample=cpu_by_process, period=0.05))
    finally:
        os.unlink(config.name)
    output = json.loads(result["stdout"] or b"{}")
    clocks = sorted(output.values(), key=lambda page: page["origin"] + page["now"])
    if result["status"] != 0 or len(clocks) != pages or any(page["items"] != fixtures.ITEMS for page in clocks):
        raise SystemExit(f"page_profile: the run went WRONG: {result['stderr'].decode(errors='replace')[-2000:]}")
    return result["wall"], clocks, result["sampler"].peak or {}


def phases(clocks, sequential):
    """The median of each phase over the pages after the first two (a web process's first pages are its slowest)."""
    found = collections.defaultdict(list)
    for before, page in zip(clocks[1:], clocks[2:]):
        data = page["data"] if page["data"] is not None else page["contentLoaded"]
        if sequential:
            found["between pages"].append(page["origin"] + page["fetchStart"] - before["origin"] - before["now"])
        found["the document's request"].append(page["responseEnd"] - page["fetchStart"])
        found["parsing and the page's own scripts"].append(page["contentLoaded"] - page["responseEnd"])
        found["the page's data"].append(max(0, data - page["contentLoaded"]))
        found["until the answer is final"].append(page["now"] - max(data, page["contentLoaded"]))
    return {name: statistics.median(values) for name, values in found.items()}


def profile(webparse, base, kind, pages):
    """The rows of one page kind: (label, wall ms a page, phases, CPU ms a page by process)."""
    alone = tempfile.mkdtemp()
    shutil.copy2(webparse, alone)
    bare = os.path.join(alone, "webparse")
    rows = []
    try:
        for concurrency in (1, 4):
            jobs = {"concurrency": concurrency,
                    "jobs": [{"name": f"p{n:03}", "url": f"{base}/{kind}", "script": TIMED_SCRIPT} for n in range(pages)]}
            crawl = {"url": f"{base}/chain/{kind}/0", "script": TIMED_SCRIPT, "concurrency": concurrency,
                     "crawl": {"perHost": concurrency, "robots": False, "maxPages": pages}}
            runs = [(f"jobs, fresh tabs, at {concurrency}", webparse, jobs),
                    (f"crawl, warm tabs, at {concurrency}", webparse, crawl)]
            if concurrency == 1:
                runs.append(("jobs at 1, no extension", bare, jobs))
            for label, binary, settings in runs:
                wall, clocks, cpu = run(binary, settings, pages)
                rows.append((label, wall / pages * 1000, phases(clocks, concurrency == 1),
                             {name: seconds / pages * 1000 for name, seconds in cpu.items()}))
    finally:
        shutil.rmtree(alone)
    return rows


def report(webparse, base, kinds, pages):
    """Prints a Markdown table of each kind's phases and CPU time."""
    for kind in kinds:
        rows = profile(webparse, base, kind, pages)
        names = sorted({name for _, _, _, cpu in rows for name in cpu if name != "Xvfb"})
        print(f"\nThe {kind} page, {pages} pages a run: wall ms a page (the whole run's), the median of each phase "
              "(ms, pages 3 on), CPU ms a page by process:\n")
        print("| run | wall | " + " | ".join(PHASES) + " | " + " | ".join(f"CPU {name}" for name in names) + " |")
        print("|---" * (2 + len(PHASES) + len(names)) + "|")
        for label, wall, found, cpu in rows:
            cells = [f"{found[name]:.0f}" if name in found else "" for name in PHASES]
            print(f"| {label} | {wall:.0f} | " + " | ".join(cells) + " | "
                  + " | ".join(f"{cpu.get(name, 0):.1f}" for name in names) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=40)
    parser.add_argument("--kinds", default="static,spa")
    parser.add_argument("--webparse", default=os.path.join(measure.ROOT, ".build/release/webparse"))
    options = parser.parse_args()
    if options.pages < 4:
        parser.error("--pages: at least 4 (the first two pages are left out of the phases)")
    server, base = fixtures.start()
    try:
        report(options.webparse, base, options.kinds.split(","), options.pages)
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
