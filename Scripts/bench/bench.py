"""webparse against its peers, in one run, on the same local pages and the same machine.

Measures wall time (median, min, max over the repeats), CPU time (user + system of the process and the
children it reaped), and the peak memory of the whole process tree (sum of PSS of every process, sampled
every 20 ms; Xvfb and WebKit's processes for webparse, the driver and browser processes for the peers), and
checks every output. Prints a table and the ratios the speed issue sets as targets.
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import fixtures

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def tree(root):
    """The pids of root and all its descendants."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append(int(entry))
            except OSError:
                pass
    found, frontier = [root], [root]
    while frontier:
        frontier = [child for pid in frontier for child in children.get(pid, [])]
        found += frontier
    return found


def pss_kb(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class Sampler(threading.Thread):
    """Samples the PSS of a process tree until stopped; keeps the peak."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.peak_kb, self.running = pid, 0, True

    def run(self):
        while self.running:
            self.peak_kb = max(self.peak_kb, sum(pss_kb(pid) for pid in tree(self.pid)))
            time.sleep(0.02)


def measure(command, env=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    sampler = Sampler(process.pid)
    sampler.start()
    stdout, stderr = process.communicate(timeout=600)
    wall = time.monotonic() - start
    sampler.running = False
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "peak_mb": sampler.peak_kb / 1024, "stdout": stdout, "stderr": stderr,
            "status": process.returncode}


def headless_env():
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return env


class Tools:
    def __init__(self, webparse, python):
        self.webparse = webparse
        self.python = python
        self.chromium = shutil.which("chromium")
        self.playwright = python is not None and subprocess.run(
            [python, "-c", "import playwright"], capture_output=True).returncode == 0 and self.chromium is not None

    def webparse_cold(self, url):
        run = measure([self.webparse, "eval", url, fixtures.SCRIPT], env=headless_env())
        run["ok"] = run["status"] == 0 and json.loads(run["stdout"] or "null") == fixtures.ITEMS
        return run

    def webparse_batch(self, url, count, concurrency):
        jobs = [{"name": f"p{n}", "url": url, "script": fixtures.SCRIPT} for n in range(count)]
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as config:
            json.dump({"concurrency": concurrency, "jobs": jobs}, config)
        run = measure([self.webparse, "run", config.name], env=headless_env())
        os.unlink(config.name)
        output = json.loads(run["stdout"] or "{}")
        run["ok"] = run["status"] == 0 and len(output) == count and all(v == fixtures.ITEMS for v in output.values())
        return run

    def chromium_cold(self, url):
        run = measure([self.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=10000",
                       "--dump-dom", url], env=headless_env())
        run["ok"] = run["status"] == 0 and run["stdout"].decode(errors="replace").count('class="item"') == 20
        return run

    def playwright_run(self, mode, url, count=1):
        arguments = [self.python, os.path.join(HERE, "playwright_runner.py"), mode, url]
        run = measure(arguments + ([str(count)] if mode == "batch" else []) + [fixtures.SCRIPT], env=headless_env())
        results = json.loads(run["stdout"] or "[]") if run["status"] == 0 else []
        run["ok"] = len(results) == count and all(r == fixtures.ITEMS for r in results)
        return run


def summary(runs, pages=1):
    walls = sorted(r["wall"] / pages for r in runs)
    return {"median": statistics.median(walls), "min": walls[0], "max": walls[-1],
            "cpu": statistics.median(r["cpu"] / pages for r in runs),
            "peak_mb": max(r["peak_mb"] for r in runs), "ok": all(r["ok"] for r in runs)}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--webparse", default=os.path.join(ROOT, ".build/release/webparse"))
    parser.add_argument("--python", default=os.path.join(ROOT, ".build/bench-venv/bin/python"))
    parser.add_argument("--repeats", type=int, default=5, help="runs of each cold measurement")
    parser.add_argument("--batch", type=int, default=20, help="pages in a batch")
    parser.add_argument("--spa-batch", type=int, default=100, help="pages in the SPA throughput batch")
    options = parser.parse_args()

    tools = Tools(options.webparse, options.python if os.path.exists(options.python) else None)
    server, base = fixtures.start()
    rows, results = [], {}

    def record(fixture, mode, tool, runs, pages=1):
        stats = summary(runs, pages)
        results[(fixture, mode, tool)] = stats
        rows.append((fixture, mode, tool, stats))
        print(f"  {fixture:7} {mode:14} {tool:22} {stats['median']:7.3f} s  {'ok' if stats['ok'] else 'WRONG'}",
              file=sys.stderr, flush=True)

    print(f"peers: chromium {'yes' if tools.chromium else 'no'}, playwright {'yes' if tools.playwright else 'no'}"
          " (Scripts/bench.sh --install-peers installs them)", file=sys.stderr)
    for fixture in ["static", "spa", "heavy"]:
        url = f"{base}/{fixture}"
        record(fixture, "cold", "webparse", [tools.webparse_cold(url) for _ in range(options.repeats)])
        if tools.chromium:
            record(fixture, "cold", "chromium --dump-dom", [tools.chromium_cold(url) for _ in range(options.repeats)])
        if tools.playwright:
            record(fixture, "cold", "playwright", [tools.playwright_run("cold", url) for _ in range(options.repeats)])
        for concurrency in (1, 4):
            record(fixture, f"batch {options.batch} -j{concurrency}", "webparse",
                   [tools.webparse_batch(url, options.batch, concurrency)], options.batch)
        if tools.playwright:
            record(fixture, f"batch {options.batch} seq", "playwright",
                   [tools.playwright_run("batch", url, options.batch)], options.batch)
    url = f"{base}/spa"
    record("spa", f"batch {options.spa_batch} -j4", "webparse", [tools.webparse_batch(url, options.spa_batch, 4)], options.spa_batch)
    if tools.playwright:
        record("spa", f"batch {options.spa_batch} seq", "playwright",
               [tools.playwright_run("batch", url, options.spa_batch)], options.spa_batch)
    server.shutdown()

    print("\n| page | mode | tool | median s/page | min | max | CPU s/page | peak MB (tree) | output |")
    print("|---|---|---|---|---|---|---|---|---|")
    for fixture, mode, tool, s in rows:
        print(f"| {fixture} | {mode} | {tool} | {s['median']:.3f} | {s['min']:.3f} | {s['max']:.3f} | {s['cpu']:.3f} "
              f"| {s['peak_mb']:.0f} | {'ok' if s['ok'] else 'WRONG'} |")

    def ratio(a, b, key="median"):
        return results[a][key] / results[b][key] if a in results and b in results else None

    batch = f"batch {options.batch}"
    targets = [
        ("cold SPA page vs Playwright", ratio(("spa", "cold", "webparse"), ("spa", "cold", "playwright")), "≤", 0.55),
        ("batch static page vs Playwright (per page)",
         ratio(("static", f"{batch} -j1", "webparse"), ("static", f"{batch} seq", "playwright")), "≤", 0.3),
        ("heavy page (batch) vs its 300 ms data delay", results[("heavy", f"{batch} -j1", "webparse")]["median"] / 0.3, "≤", 1.15),
        ("peak memory, one SPA page, vs Playwright",
         ratio(("spa", "cold", "webparse"), ("spa", "cold", "playwright"), "peak_mb"), "≤", 0.6),
        (f"SPA throughput, {options.spa_batch} pages -j4 vs Playwright sequential (×)",
         ratio(("spa", f"batch {options.spa_batch} seq", "playwright"), ("spa", f"batch {options.spa_batch} -j4", "webparse")), "≥", 2.0),
    ]
    print("\n| target | measured | goal | |")
    print("|---|---|---|---|")
    for name, value, relation, goal in targets:
        if value is None:
            print(f"| {name} | (peer not installed) | {relation} {goal} | |")
            continue
        met = value <= goal if relation == "≤" else value >= goal
        print(f"| {name} | {value:.2f} | {relation} {goal} | {'met' if met else 'MISSED'} |")


if __name__ == "__main__":
    main()
