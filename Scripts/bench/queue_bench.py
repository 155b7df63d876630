"""The "queue" and "soak" sections of bench.py: workers of `webparse work` sharing a Redis queue, against one
`webparse run`; one worker over many pages, its memory and pace from its first tenth to its last.

Two workers at -j2 against one run at -j4 over the same 200 SPA pages (distinct URLs, the same fixture): the wall
time of each, from the start of the first process to the end of the last, and whether both give the same results.
With the amiibo site, its crawl by three workers at -j2 against `run`'s crawl at -j4: the pages each gives, and
whether each page was loaded once. Redis is Debian's redis-server on a free port, without persistence.
"""
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import fixtures
from measure import headless_env, pss_kb, tree


def free_port():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        return listener.getsockname()[1]


class Redis:
    """A redis-server of the section's own, stopped by `stop`."""

    def __init__(self):
        self.port = free_port()
        self.process = subprocess.Popen(["redis-server", "--port", str(self.port), "--save", "", "--appendonly", "no"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while self.cli("PING") != "PONG":
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not answer")
            time.sleep(0.05)

    def cli(self, *arguments):
        done = subprocess.run(["redis-cli", "-p", str(self.port), *arguments], capture_output=True, text=True)
        return done.stdout.strip()

    def url(self, queue):
        return f"redis://127.0.0.1:{self.port}?queue={queue}"

    def records(self, key):
        return [json.loads(line) for line in self.cli("LRANGE", key, "0", "-1").splitlines() if line]

    def stop(self):
        self.process.terminate()
        self.process.wait()


def run_workers(webparse, redis, queue, count, concurrency, extra=()):
    """Starts `count` workers at once and waits for all; the wall time and whether each exited 0."""
    start = time.monotonic()
    workers = [subprocess.Popen([webparse, "work", redis.url(queue), "-j", str(concurrency), "-q", *extra],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=headless_env()) for _ in range(count)]
    statuses = [worker.wait(timeout=900) for worker in workers]
    wall = time.monotonic() - start
    for worker in workers:
        worker.stderr.close()
    return wall, all(status == 0 for status in statuses)


def run_config(webparse, settings):
    """`webparse run` of `settings`: the wall time and its output."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as config:
        json.dump(settings, config)
    try:
        start = time.monotonic()
        done = subprocess.run([webparse, "run", config.name, "-q"], capture_output=True, env=headless_env(), timeout=900)
        return time.monotonic() - start, json.loads(done.stdout or "{}")
    finally:
        os.unlink(config.name)


def pages(webparse, base, repeats, count=200):
    """Two workers at -j2 against one run at -j4 over `count` pages, `repeats` times in turn."""
    urls = [f"{base}/spa?n={n}" for n in range(1, count + 1)]
    settings = {"concurrency": 4, "jobs": [{"name": url, "url": url, "script": fixtures.SCRIPT} for url in urls]}
    run_walls, work_walls, same = [], [], True
    redis = Redis()
    try:
        for repeat in range(repeats):
            wall, output = run_config(webparse, settings)
            run_walls.append(wall)
            redis.cli("DEL", "bench", "bench:results", "bench:failed")
            redis.cli("RPUSH", "bench", *urls)
            wall, ok = run_workers(webparse, redis, "bench", 2, 2, ("--script", fixtures.SCRIPT))
            work_walls.append(wall)
            worked = {record["url"]: record.get("result") for record in redis.records("bench:results")}
            same = same and ok and len(worked) == count and worked == output and all(v == fixtures.ITEMS for v in output.values())
    finally:
        redis.stop()
    run_median, work_median = statistics.median(run_walls), statistics.median(work_walls)
    print(f"  queue   {count} pages        run -j4: {run_median:.2f} s (min {min(run_walls):.2f}, max {max(run_walls):.2f});"
          f" two workers -j2: {work_median:.2f} s (min {min(work_walls):.2f}, max {max(work_walls):.2f});"
          f" ratio {work_median / run_median:.3f}; {'the same results' if same else 'WRONG: the results differ'}",
          file=sys.stderr, flush=True)
    return {"run": run_median, "work": work_median, "same": same}


def amiibo(webparse, start, name_script):
    """The amiibo crawl by three workers at -j2 against run's crawl at -j4: the pages each gives, each once."""
    crawl = {"perHost": 4, "robots": False, "maxPages": 5000}
    run_wall, output = run_config(webparse, {"url": start, "script": name_script, "timeout": 30, "concurrency": 4, "crawl": crawl})
    redis = Redis()
    try:
        item = {"name": "amiibo", "url": start, "script": name_script, "timeout": 30, "crawl": crawl}
        redis.cli("RPUSH", "amiibo", json.dumps(item))
        wall, ok = run_workers(webparse, redis, "amiibo", 3, 2)
        records = redis.records("amiibo:results") + redis.records("amiibo:failed")
    finally:
        redis.stop()
    urls = [record["url"] for record in records]
    same = ok and len(urls) == len(set(urls)) and set(urls) == set(output)
    print(f"  queue   amiibo crawl     run -j4: {len(output)} pages in {run_wall:.1f} s; three workers -j2: {len(urls)} records"
          f" of {len(set(urls))} pages in {wall:.1f} s; {'each page once, the same pages' if same else 'WRONG'}",
          file=sys.stderr, flush=True)
    return {"run_pages": len(output), "work_records": len(urls), "work_pages": len(set(urls)), "same": same}


def soak(webparse, base, count):
    """One worker at -j4 over `count` SPA pages of a Redis queue, as a long-lived worker runs: the PSS of its whole
    process tree (webparse, Xvfb, WebKit's processes) and the pages done, sampled every second. Compares the last
    tenth of the run with the first: the PSS over the last tenth (its median) at most 1.15 times the PSS over the
    tenth after the first, and the pages a second not falling (within 10%)."""
    urls = [f"{base}/spa?soak={n}" for n in range(1, count + 1)]
    redis = Redis()
    try:
        for start in range(0, count, 1000):
            redis.cli("RPUSH", "soak", *urls[start:start + 1000])
        begun = time.monotonic()
        worker = subprocess.Popen([webparse, "work", redis.url("soak"), "-j", "4", "-q", "--script", fixtures.SCRIPT],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=headless_env())
        samples = []
        holders = []
        while worker.poll() is None:
            done = int(redis.cli("LLEN", "soak:results") or 0) + int(redis.cli("LLEN", "soak:failed") or 0)
            by_process = {}
            for pid in tree(worker.pid):
                name = process_name(pid)
                by_process[name] = by_process.get(name, 0) + pss_kb(pid) / 1024
            samples.append((time.monotonic() - begun, done, sum(by_process.values())))
            holders.append(by_process)
            time.sleep(1)
        wall = time.monotonic() - begun
        failed = int(redis.cli("LLEN", "soak:failed") or 0)
        worker.stderr.close()
    finally:
        redis.stop()
    tenth = count / 10
    first = [s for s in samples if s[1] <= tenth]
    last = [s for s in samples if s[1] >= count - tenth]
    # Web processes grow with each load until they are recycled: a saw-tooth. Medians over a tenth of the run compare
    # like with like: the second tenth (after the first, the warm-up) against the last.
    second = [mb for _, done, mb in samples if tenth <= done < 2 * tenth]
    after_first = statistics.median(second) if second else samples[-1][2]
    last_pss = statistics.median(mb for *_, mb in last) if last else samples[-1][2]

    def rate(part):
        return (part[-1][1] - part[0][1]) / max(part[-1][0] - part[0][0], 1e-9) if len(part) >= 2 else 0.0

    growth = last_pss / after_first
    first_rate, last_rate = rate(first), rate(last)
    holds = growth <= 1.15 and last_rate >= 0.9 * first_rate and failed == 0
    print(f"  soak    {count} pages       one worker -j4: {wall:.0f} s, {count / wall:.1f} pages/s, {failed} failed;"
          f" tree PSS {after_first:.0f} MB over the second tenth, {last_pss:.0f} MB over the last (x{growth:.2f});"
          f" {first_rate:.1f} pages/s in the first tenth, {last_rate:.1f} in the last; {'holds' if holds else 'DOES NOT HOLD'}",
          file=sys.stderr, flush=True)
    # Which processes hold the memory: each kind's PSS (its median) over the second tenth and over the last.
    def held(part):
        picked = [holders[index] for index, (_, done, _) in enumerate(samples) if part(done)]
        names = sorted({name for sample in picked for name in sample})
        return {name: statistics.median(sample.get(name, 0) for sample in picked) for name in names} if picked else {}

    early, late = held(lambda done: tenth <= done < 2 * tenth), held(lambda done: done >= count - tenth)
    for name in sorted(set(early) | set(late), key=lambda name: -late.get(name, 0)):
        print(f"    {name:22} {early.get(name, 0):6.0f} MB over the second tenth, {late.get(name, 0):6.0f} MB over the last",
              file=sys.stderr, flush=True)
    step = max(1, len(samples) // 20)
    for seconds, done, mb in samples[::step] + samples[-1:]:
        print(f"    {seconds:7.0f} s  {done:6} pages  {mb:6.0f} MB", file=sys.stderr, flush=True)
    return {"pages": count, "wall": wall, "first_pss": after_first, "last_pss": last_pss, "growth": growth,
            "first_rate": first_rate, "last_rate": last_rate, "holds": holds}


def process_name(pid):
    """The name of process `pid` (its comm), "?" once it has ended."""
    try:
        with open(f"/proc/{pid}/comm") as comm:
            return comm.read().strip()
    except OSError:
        return "?"


def available():
    return shutil.which("redis-server") is not None and shutil.which("redis-cli") is not None
