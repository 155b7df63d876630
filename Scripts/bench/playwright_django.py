"""The Django admin tasks of the benchmark (django_bench.py) with Python Playwright driving the system chromium, as
a Playwright user writes them: fill, fill and click to log in, then the group names of each changelist page, taken
once they have stayed the same for 0.2 s (`playwright_runner.settled`, the wait webparse does by default; with
BENCH_SETTLE_MS=0 the first non-empty answer). Prints the names as a JSON list.

    playwright_django.py next BASE             (log in, then page through the changelist by its paginator)
    playwright_django.py range BASE PAGES      (log in, then the changelist's pages by URL, PAGES at once)
"""
import asyncio
import json
import sys

from playwright.async_api import async_playwright

from fixtures import DJANGO_GROUPS, DJANGO_LOGIN, DJANGO_NAMES, DJANGO_NEXT, DJANGO_PASSWORD, DJANGO_PER_PAGE, DJANGO_USER
from playwright_runner import settled


async def names(page):
    return await (await page.wait_for_function(settled(DJANGO_NAMES), timeout=30_000)).json_value()


async def log_in(page, base):
    await page.goto(base + DJANGO_LOGIN, wait_until="commit")
    await page.fill("#id_username", DJANGO_USER)
    await page.fill("#id_password", DJANGO_PASSWORD)
    await page.click("input[type=submit]")
    await page.wait_for_url("**/admin/auth/group/")


async def main(mode, base, pages):
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        context = await browser.new_context()
        page = await context.new_page()
        await log_in(page, base)
        found = []
        if mode == "next":
            while True:
                found += await names(page)
                url = await page.evaluate(DJANGO_NEXT)
                if not url:
                    break
                await page.goto(url, wait_until="commit")
        else:
            await page.close()
            urls = [f"{base}/admin/auth/group/?p={n}" for n in range(1, len(DJANGO_GROUPS) // DJANGO_PER_PAGE + 1)]
            results = [None] * len(urls)
            queue = list(range(len(urls)))

            async def worker():
                while queue:
                    index = queue.pop(0)
                    tab = await context.new_page()
                    await tab.goto(urls[index], wait_until="commit")
                    results[index] = await names(tab)
                    await tab.close()

            await asyncio.gather(*(worker() for _ in range(pages)))
            found = [name for result in results for name in result]
        await browser.close()
        return found


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1))))
