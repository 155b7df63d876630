"""Crawls a site with Python Playwright driving the system chromium, as a Playwright user writes a crawler: TABS
tabs take URLs from one queue; each goes to its page, waits for a link (`a[href]`, which the benchmark's pages write
after their own fetch), reads the page's name and its links, and queues the unseen ones of the same host, each URL
once (without its fragment). Nothing is routed or blocked (a route on every request slows Playwright down), as
in Lightpanda's chromedp crawler. Prints {"pages": N, "names": {url: name}} as JSON.

    playwright_crawl.py URL TABS
"""
import asyncio
import json
import sys
from urllib.parse import urldefrag, urlparse

from playwright.async_api import async_playwright

LINKS = "Array.from(document.querySelectorAll('a[href]'), a => a.href)"
NAME = "document.getElementById('name') ? document.getElementById('name').textContent : document.title"


async def crawl(start, tabs):
    host = urlparse(start).netloc
    seen = {urldefrag(start)[0]}
    queue = asyncio.Queue()
    queue.put_nowait(urldefrag(start)[0])
    names = {}
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        context = await browser.new_context()

        async def worker():
            page = await context.new_page()
            while True:
                url = await queue.get()
                try:
                    await page.goto(url, wait_until="commit")
                    await page.wait_for_selector("a[href]", timeout=10_000)
                    names[url] = await page.evaluate(NAME)
                    for link in await page.evaluate(LINKS):
                        link = urldefrag(link)[0]
                        if urlparse(link).netloc == host and link not in seen:
                            seen.add(link)
                            queue.put_nowait(link)
                except Exception as error:  # a page that fails is counted, as webparse counts it
                    names[url] = f"error: {error}"
                finally:
                    queue.task_done()

        workers = [asyncio.create_task(worker()) for _ in range(tabs)]
        await queue.join()
        for task in workers:
            task.cancel()
        await browser.close()
    return {"pages": len(names), "names": names}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(crawl(sys.argv[1], int(sys.argv[2])))))
