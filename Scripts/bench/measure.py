"""How the benchmark measures a run: a process tree's peak memory (PSS, sampled), its wall and CPU time, and the
tools it runs (webparse, chromium, Playwright) with their checks. Used by bench.py and by the profiles it runs
(dash_memory.py, dash_profile.py), which import this module, not bench.py.
"""
import json
import os
import resource
import shutil
import subprocess
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


def tree_pss(pids):
    """The PSS of the processes `pids` in KB, and no detail (a sample for Sampler)."""
    return sum(pss_kb(pid) for pid in pids), None


class Sampler(threading.Thread):
    """Samples a process tree every `period` seconds until stopped, with `sample(pids)` giving (total KB, detail);
    keeps the largest total and its detail."""

    def __init__(self, pid, sample=tree_pss, period=0.02):
        super().__init__(daemon=True)
        self.pid, self.sample, self.period = pid, sample, period
        self.peak_kb, self.peak, self.running = 0, None, True

    def run(self):
        while self.running:
            total, detail = self.sample(tree(self.pid))
            if total > self.peak_kb:
                self.peak_kb, self.peak = total, detail
            time.sleep(self.period)


class Unwatched(Sampler):
    """A sampler that takes no sample: for a run measured for its time alone."""

    def run(self):
        pass


def cold_runs(run, repeats):
    """`repeats` cold starts, `run(sampler)`, timed with nothing watching them (a sample reads every process's
    memory, which takes CPU from the start it watches), then one watched for its peak memory only."""
    return [run(Unwatched) for _ in range(repeats)] + [{**run(Sampler), "timed": False}]


def measure(command, env=None, sampler=Sampler):
    """Runs `command` with `sampler(pid)` watching its process tree: wall and CPU time, peak memory, output, status,
    and the sampler."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    watcher = sampler(process.pid)
    watcher.start()
    try:
        stdout, stderr = process.communicate(timeout=600)
        wall = time.monotonic() - start
    finally:
        process.kill()
        watcher.running = False
        watcher.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "peak_mb": watcher.peak_kb / 1024, "stdout": stdout, "stderr": stderr,
            "status": process.returncode, "sampler": watcher}


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
        self.dash = python is not None and subprocess.run([python, "-c", "import dash"], capture_output=True).returncode == 0
        self.django = python is not None and subprocess.run([python, "-c", "import django"], capture_output=True).returncode == 0

    def webparse_config(self, settings, check, arguments=(), sampler=Sampler):
        """A `webparse run` of the config `settings` (with `arguments`), measured (`sampler` watching its
        processes); "ok" when it exits 0 and `check(output)` holds."""
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as config:
            json.dump(settings, config)
        try:
            run = measure([self.webparse, "run", config.name, *arguments], headless_env(), sampler)
        finally:
            os.unlink(config.name)
        try:
            run["ok"] = run["status"] == 0 and check(run["stdout"].decode() if arguments else json.loads(run["stdout"] or "{}"))
        except ValueError:
            run["ok"] = False
        return run

    def peer(self, arguments, check, env=None, sampler=Sampler):
        """A peer's script (`arguments` after the venv's python), measured (`env` added to a headless environment,
        `sampler` watching its processes); "ok" when it exits 0 and `check` holds for the JSON it prints."""
        run = measure([self.python, *arguments], env={**headless_env(), **(env or {})}, sampler=sampler)
        run["ok"] = run["status"] == 0 and check(json.loads(run["stdout"] or "null"))
        return run

    def webparse_cold(self, url, sampler=Sampler):
        run = measure([self.webparse, "eval", url, fixtures.SCRIPT], env=headless_env(), sampler=sampler)
        run["ok"] = run["status"] == 0 and json.loads(run["stdout"] or "null") == fixtures.ITEMS
        return run

    def webparse_batch(self, url, count, concurrency, script=fixtures.SCRIPT, expected=fixtures.ITEMS, pages_per_process=None,
                       env=None, sampler=Sampler, fields=None, capturing=0):
        """A run of `count` jobs of `url`, `concurrency` at once, measured (`env` added to a headless environment,
        `sampler` watching its processes), the first `capturing` jobs with `fields` too; "ok" when every result is
        `expected`."""
        jobs = [{"name": f"p{n}", "url": url, "script": script, **(fields if n < capturing else {})} for n in range(count)]
        settings = {"concurrency": concurrency, "jobs": jobs}
        if pages_per_process:
            settings["pagesPerProcess"] = pages_per_process
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as config:
            json.dump(settings, config)
        environment = headless_env()
        environment.update(env or {})
        try:
            run = measure([self.webparse, "run", config.name], environment, sampler)
        finally:
            os.unlink(config.name)
        output = json.loads(run["stdout"] or "{}")
        run["ok"] = run["status"] == 0 and len(output) == count and all(v == expected for v in output.values())
        return run

    def playwright_concurrent(self, url, count, pages, script=fixtures.SCRIPT, expected=fixtures.ITEMS):
        arguments = [self.python, os.path.join(HERE, "playwright_runner.py"), "concurrent", url, str(count), str(pages), script]
        run = measure(arguments, env=headless_env())
        results = json.loads(run["stdout"] or "[]") if run["status"] == 0 else []
        run["ok"] = len(results) == count and all(r == expected for r in results)
        return run

    def playwright_reused(self, url, count, pages, script=fixtures.SCRIPT, expected=fixtures.ITEMS, sampler=Sampler):
        """Playwright loading `url` `count` times in `pages` pages reused from load to load, taking each first
        non-empty answer (playwright_runner.py reuse), watched by `sampler`."""
        arguments = [self.python, os.path.join(HERE, "playwright_runner.py"), "reuse", url, str(count), str(pages), script]
        environment = headless_env()
        environment["BENCH_SETTLE_MS"] = "0"
        run = measure(arguments, env=environment, sampler=sampler)
        results = json.loads(run["stdout"] or "[]") if run["status"] == 0 else []
        run["ok"] = len(results) == count and all(r == expected for r in results)
        return run

    def chromium_cold(self, url, sampler=Sampler):
        run = measure([self.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=10000",
                       "--dump-dom", url], env=headless_env(), sampler=sampler)
        run["ok"] = run["status"] == 0 and run["stdout"].decode(errors="replace").count('class="item"') == 20
        return run

    def playwright_run(self, mode, url, count=1, script=fixtures.SCRIPT, expected=fixtures.ITEMS, settle_ms=200, sampler=Sampler):
        """Playwright loading `url` in a new browser ("cold") or `count` times one page after another in one browser
        ("batch"), taking the script's answer once it stayed the same for `settle_ms` (0: its first non-empty one),
        watched by `sampler`."""
        arguments = [self.python, os.path.join(HERE, "playwright_runner.py"), mode, url]
        environment = headless_env()
        environment["BENCH_SETTLE_MS"] = str(settle_ms)
        run = measure(arguments + ([str(count)] if mode in ("batch", "networkidle") else []) + [script], env=environment, sampler=sampler)
        results = json.loads(run["stdout"] or "[]") if run["status"] == 0 else []
        run["ok"] = len(results) == count and all(r == expected for r in results)
        return run
