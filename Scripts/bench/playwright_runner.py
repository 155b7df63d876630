"""Loads pages with Python Playwright driving the system chromium, polling the benchmark's script with
wait_for_function, as a Playwright user would, and taking its answer once it has stayed the same for 0.2 s, the
waiting webparse does by default (see `settled`), or with BENCH_SETTLE_MS=0 its first non-empty answer, as a
Playwright user usually writes it (webparse's equivalent: "settle": 0). Prints the results as a JSON list.

    playwright_runner.py cold URL SCRIPT
    playwright_runner.py batch URL COUNT SCRIPT             (one browser, pages one after another)
    playwright_runner.py concurrent URL COUNT PAGES SCRIPT  (one browser and context, PAGES pages at once, with
                                                             image, media and font requests aborted, as webparse
                                                             blocks them by default)
    playwright_runner.py networkidle URL COUNT SCRIPT       (one browser, pages one after another, each loaded with
                                                             wait_until="networkidle" and the script evaluated then)
    playwright_runner.py reuse URL COUNT PAGES SCRIPT       (one browser and context, PAGES pages each reused from
                                                             load to load, COUNT loads in all, blocking as
                                                             "concurrent" does with more than one page: the fastest
                                                             loop a user writes; give BENCH_SETTLE_MS=0)
    playwright_runner.py marks URL COUNT SCRIPT             (one page reused from load to load, as "reuse": the
                                                             script's answer once it is there, then its value again
                                                             a second and a half later, when the page is done)
"""
import asyncio
import json
import os
import sys

from playwright.async_api import async_playwright
from playwright.sync_api import sync_playwright

BLOCKED = {"image", "media", "font"}
# webparse's default settle time: its answer is taken once unchanged for 0.2 s (README, "When is the result there?").
SETTLE_MS = int(os.environ.get("BENCH_SETTLE_MS", "200"))


def settled(script):
    """A wait_for_function body giving the script's non-empty answer once it has stayed the same for SETTLE_MS,
    polled on every animation frame. webparse also waits until none of the page's data requests is in flight;
    Playwright has no such predicate short of networkidle (500 ms without any connection), and the benchmark's
    pages make no request after their data has arrived, so the answer's stability is the equivalent wait."""
    if SETTLE_MS == 0:
        return ("() => { const value = (" + script + "); const text = JSON.stringify(value);"
                " return value === null || value === undefined || ['[]', '{}', '\"\"'].includes(text) ? null : value; }")
    return ("() => { const value = (" + script + "); const text = JSON.stringify(value);"
            " const seen = window.__settled || (window.__settled = {text: undefined, since: 0}); const now = performance.now();"
            " if (value === null || value === undefined || ['[]', '{}', '\"\"'].includes(text)) { seen.text = undefined; return null; }"
            " if (text !== seen.text) { seen.text = text; seen.since = now; return null; }"
            f" return now - seen.since >= {SETTLE_MS} ? value : null; }}")


def networkidle(url, count, script):
    """The script's value on `count` pages one after another, each read once Playwright's networkidle holds (no
    connection for 500 ms), as a Playwright user waits for a page that is done."""
    results = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for _ in range(count):
            page = browser.new_page()
            page.goto(url, wait_until="networkidle")
            results.append(page.evaluate(script))
            page.close()
        browser.close()
    return results


def sequential(url, count, script):
    results = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for _ in range(count):
            page = browser.new_page()
            page.goto(url, wait_until="commit")
            results.append(page.wait_for_function(settled(script), timeout=30_000).json_value())
            page.close()
        browser.close()
    return results


async def block_as_webparse(context):
    """Aborts the context's image, media and font requests, as webparse blocks them by default."""
    async def route(request_route):
        if request_route.request.resource_type in BLOCKED:
            await request_route.abort()
        else:
            await request_route.continue_()

    await context.route("**/*", route)


async def concurrent(url, count, pages, script):
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        context = await browser.new_context()
        await block_as_webparse(context)
        queue = list(range(count))
        results = [None] * count

        async def worker():
            while queue:
                index = queue.pop(0)
                page = await context.new_page()
                await page.goto(url, wait_until="commit")
                results[index] = await (await page.wait_for_function(settled(script), timeout=30_000)).json_value()
                await page.close()

        await asyncio.gather(*(worker() for _ in range(pages)))
        await browser.close()
        return results


async def reused(url, count, pages, script):
    """`count` loads of `url` in `pages` pages, each page reused from one load to the next; requests blocked as in
    `concurrent` when there is more than one page."""
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        context = await browser.new_context()
        if pages > 1:
            await block_as_webparse(context)
        queue = list(range(count))
        results = [None] * count

        async def worker():
            page = await context.new_page()
            while queue:
                index = queue.pop(0)
                await page.goto(url, wait_until="commit")
                results[index] = await (await page.wait_for_function(settled(script), timeout=30_000)).json_value()

        await asyncio.gather(*(worker() for _ in range(pages)))
        await browser.close()
        return results


def marked(url, count, script):
    """`count` loads of `url` in one page reused from load to load: each the script's value 1.5 s after its answer is
    there (SETTLE_MS as for the others), for a script that records the page's own moments."""
    results = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page()
        for _ in range(count):
            page.goto(url, wait_until="commit")
            page.wait_for_function(settled(script), timeout=30_000)
            page.wait_for_timeout(1500)
            results.append(page.evaluate("() => " + script))
        browser.close()
    return results


if __name__ == "__main__":
    mode, url, script = sys.argv[1], sys.argv[2], sys.argv[-1]
    if mode == "concurrent":
        found = asyncio.run(concurrent(url, int(sys.argv[3]), int(sys.argv[4]), script))
    elif mode == "reuse":
        found = asyncio.run(reused(url, int(sys.argv[3]), int(sys.argv[4]), script))
    elif mode == "marks":
        found = marked(url, int(sys.argv[3]), script)
    elif mode == "networkidle":
        found = networkidle(url, int(sys.argv[3]), script)
    else:
        found = sequential(url, int(sys.argv[3]) if mode == "batch" else 1, script)
    print(json.dumps(found))
