"""Runs webparse on many pages in one process and reports the memory of its whole process tree over time.

The pages are the benchmark's single-page app (Scripts/bench/fixtures.py), one job each. Memory is the sum of
PSS of webparse and all its children (Xvfb and WebKit's processes), sampled every 100 ms. After a warm-up of
one tenth of the run, the growth from the warm-up level to the end must stay under 10%.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import fixtures
import measure


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("pages", type=int, nargs="?", default=1000)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--webparse", default=os.path.join(measure.ROOT, ".build/release/webparse"))
    options = parser.parse_args()

    server, base = fixtures.start()
    jobs = [{"name": f"p{n}", "url": f"{base}/spa?{n}", "script": fixtures.SCRIPT} for n in range(options.pages)]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as config:
        json.dump({"concurrency": options.concurrency, "defaults": {"retries": 0}, "jobs": jobs}, config)
    start = time.monotonic()
    process = subprocess.Popen([options.webparse, "run", "--jsonl", config.name], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=measure.headless_env(), text=True)
    samples, done = [], 0
    os.set_blocking(process.stdout.fileno(), False)
    while process.poll() is None:
        for line in process.stdout:
            done += json.loads(line)["status"] == "ok"
        samples.append((time.monotonic() - start, done, sum(measure.pss_kb(pid) for pid in measure.tree(process.pid)) / 1024))
        time.sleep(0.1)
    for line in process.stdout:
        done += json.loads(line)["status"] == "ok"
    os.unlink(config.name)
    elapsed = time.monotonic() - start

    print(f"{done}/{options.pages} pages ok in {elapsed:.1f} s ({options.pages / elapsed:.1f} pages/s, -j{options.concurrency})")
    print("| seconds | pages done | tree PSS MB |")
    print("|---|---|---|")
    step = max(1, len(samples) // 20)
    for seconds, pages, megabytes in samples[::step] + samples[-1:]:
        print(f"| {seconds:.1f} | {pages} | {megabytes:.0f} |")
    warm = [m for _, pages, m in samples if pages >= options.pages // 10]
    if len(warm) >= 2:
        baseline = sorted(warm[: max(1, len(warm) // 10)])[len(warm[: max(1, len(warm) // 10)]) // 2]
        final = sorted(warm[-max(1, len(warm) // 10):])[len(warm[-max(1, len(warm) // 10):]) // 2]
        growth = (final - baseline) / baseline * 100
        print(f"after warm-up: {baseline:.0f} MB; at the end: {final:.0f} MB; growth {growth:+.1f}% "
              f"({'flat' if growth < 10 else 'GROWING'}); peak {max(m for *_, m in samples):.0f} MB")
    sys.exit(0 if done == options.pages else 1)


if __name__ == "__main__":
    main()
