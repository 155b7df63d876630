"""Where the memory of webparse's process tree goes at its peak, running the Plotly Dash app 4 pages at once.

Two runs of PAGES Dash pages (Scripts/bench/dash_app.py) at `-j 4`, webparse's defaults otherwise:
- a map of every process's memory: /proc/PID/smaps of the whole tree every 200 ms, keeping the snapshot whose PSS
  adds up to the most. PSS by process kind and by what holds it: each library (its code and read-only pages shared
  with the other processes mapping it, divided among them, and its private copies: relocations, data), JIT code
  (executable anonymous memory), glibc's main heap, shared memory, and the rest of the anonymous memory (WebKit's
  own allocators: the JavaScript heap, DOM, style, layout and caches; thread stacks; glibc's thread arenas);
- JavaScriptCore's heap by its own log (JSC_logGC): its size when a collection starts and what was left after.

    dash_memory.py [--pages N]      (Scripts/bench/bench.py --sections profile runs it too)
"""
import argparse
import collections
import os
import re
import statistics

import apps
import fixtures
import measure

CONCURRENCY = 4
KINDS = {"WebKitWebProces": "web processes", "webparse": "webparse", "WebKitNetworkPr": "network process",
         "Xvfb": "Xvfb"}
ANONYMOUS = "other anonymous memory: WebKit's allocators (JS heap, DOM, style, caches), stacks, glibc arenas"
HEADER = re.compile(r"^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$")
GC_START = re.compile(r"\[GC<(0x[0-9a-f]+)>: START \S+ (\d+)kb")
# Web processes share webparse's stderr and JavaScriptCore writes a record in pieces: a heap's record ends at the
# first "=> N kb" before another heap's record begins.
GC_END = re.compile(r"\[GC<(0x[0-9a-f]+)>: (?:(?!\[GC<).)*?=> (\d+)kb, p=")


def holder(permissions, name):
    """What holds a mapping's memory, by its permissions and name."""
    if name.startswith("/memfd:") or name.startswith("/dev/shm") or name.startswith("/SYSV"):
        return "shared memory"
    if name.startswith("/"):
        return os.path.basename(name.removesuffix(" (deleted)"))
    if name == "[heap]":
        return "glibc malloc: main heap"
    if not name and "x" in permissions:
        return "JIT code"
    return ANONYMOUS


def process_map(pid):
    """PSS in KB by holder for one process, or None once it has gone."""
    found = collections.Counter()
    current = None
    try:
        with open(f"/proc/{pid}/smaps") as smaps:
            for line in smaps:
                header = HEADER.match(line)
                if header:
                    current = holder(*header.groups())
                elif line.startswith("Pss:"):
                    found[current] += int(line.split()[1])
        with open(f"/proc/{pid}/comm") as comm:
            return comm.read().strip(), found
    except OSError:
        return None


def tree_map(pids):
    """The processes `pids` mapped (a sample for measure.Sampler): total PSS in KB, and each one's (comm, PSS by holder)."""
    maps = [found for found in map(process_map, pids) if found]
    return sum(sum(counts.values()) for _, counts in maps), maps


def run_batch(webparse, url, pages, env=None, sampler=None):
    """Runs PAGES Dash jobs at 4 at once watched by `sampler` (measure.Sampler by default), checks every result; returns
    (stderr, the sampler)."""
    run = measure.Tools(webparse, None).webparse_batch(url, pages, CONCURRENCY, fixtures.DASH_SCRIPT, fixtures.DASH_CHAPTERS,
                                                     env=env, sampler=sampler or measure.Sampler)
    stderr = run["stderr"].decode(errors="replace")
    if not run["ok"]:
        raise SystemExit(f"dash_memory: the run failed or gave WRONG chapters: {stderr[-2000:]}")
    return stderr, run["sampler"]


def memory_map(webparse, url, pages):
    """(MB by (kind, holder), process count by kind, peak MB) at the sampled peak of a run."""
    _, watcher = run_batch(webparse, url, pages, sampler=lambda pid: measure.Sampler(pid, tree_map, period=0.2))
    table, processes = collections.Counter(), collections.Counter()
    for comm, counts in watcher.peak:
        kind = KINDS.get(comm, comm)
        processes[kind] += 1
        for name, kb in counts.items():
            table[(kind, name)] += kb / 1024
    return table, processes, watcher.peak_kb / 1024


def javascript_heaps(webparse, url, pages):
    """For each JavaScriptCore heap of the run (one a web process): (largest size at a collection's start, median
    size after a collection), in MB."""
    log, _ = run_batch(webparse, url, pages, env={"JSC_logGC": "1"})
    starts, ends = collections.defaultdict(list), collections.defaultdict(list)
    for line in log.splitlines():
        for pattern, sizes in ((GC_START, starts), (GC_END, ends)):
            for heap, kb in pattern.findall(line):
                sizes[heap].append(int(kb) / 1024)
    return [(max(starts[heap]), statistics.median(ends[heap])) for heap in starts if ends[heap]]


def report(webparse, url, pages):
    """Prints the map of the peak and the JavaScript heaps as Markdown tables."""
    table, processes, peak = memory_map(webparse, url, pages)
    kinds = [kind for kind in KINDS.values() if kind in processes] + sorted(set(processes) - set(KINDS.values()))
    by_holder = collections.Counter()
    for (_, name), mb in table.items():
        by_holder[name] += mb
    shown = [name for name, mb in by_holder.most_common() if mb >= 3]
    print(f"\nThe memory of {pages} Dash pages at {CONCURRENCY} at once, at the sampled peak: {peak:.0f} MB of PSS in "
          "all (MB; holders of 3 MB or more in all):\n")
    columns = [f"{kind} ({processes[kind]})" if processes[kind] > 1 else kind for kind in kinds]
    print("| held by | " + " | ".join(columns) + " | all |\n|---|" + "---|" * (len(kinds) + 1))
    for name in shown + ["everything else"]:
        values = [sum(mb for (k, n), mb in table.items() if k == kind and (n == name or
                                                                             (name == "everything else" and n not in shown)))
                  for kind in kinds]
        print(f"| {name} | " + " | ".join(f"{value:.1f}" for value in values) + f" | {sum(values):.1f} |")
    totals = [sum(mb for (k, _), mb in table.items() if k == kind) for kind in kinds]
    print("| **all** | " + " | ".join(f"**{value:.0f}**" for value in totals) + f" | **{sum(totals):.0f}** |")

    heaps = javascript_heaps(webparse, url, pages)
    print(f"\nJavaScriptCore's heaps in a run of the same (JSC_logGC; one a web process, MB):\n")
    print("| heap | largest at a collection's start | median after a collection |\n|---|---|---|")
    for number, (largest, after) in enumerate(sorted(heaps, reverse=True), 1):
        print(f"| {number} | {largest:.0f} | {after:.0f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=40)
    parser.add_argument("--webparse", default=os.path.join(measure.ROOT, ".build/release/webparse"))
    parser.add_argument("--python", default=os.path.join(measure.ROOT, ".build/bench-venv/bin/python"))
    options = parser.parse_args()
    dash, url = apps.start_dash(options.python)
    try:
        report(options.webparse, url, options.pages)
    finally:
        dash.terminate()


if __name__ == "__main__":
    main()
