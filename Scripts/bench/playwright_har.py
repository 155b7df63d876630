"""Replays a HAR file webparse wrote the way users replay HAR files: Python Playwright driving the system chromium,
every request answered from the file by `route_from_har` (not_found="abort": nothing reaches a server, which the
benchmark has stopped). Prints what the page then shows, as JSON.

    playwright_har.py spa HAR URL      (the SPA fixture's items, fetched by its script after load)
    playwright_har.py django HAR BASE  (the Django admin's login: fill, fill, click, the form's POST and its redirect
                                        from the file; then the changelist's group names)
"""
import asyncio
import json
import sys

from playwright.async_api import async_playwright

from fixtures import DJANGO_LOGIN, DJANGO_NAMES, DJANGO_PASSWORD, DJANGO_USER, SCRIPT
from playwright_runner import settled


async def main(mode, har, address):
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        context = await browser.new_context()
        await context.route_from_har(har, not_found="abort")
        page = await context.new_page()
        if mode == "spa":
            await page.goto(address, wait_until="commit")
            found = await (await page.wait_for_function(settled(SCRIPT), timeout=30_000)).json_value()
        else:
            await page.goto(address + DJANGO_LOGIN, wait_until="commit")
            await page.fill("#id_username", DJANGO_USER)
            await page.fill("#id_password", DJANGO_PASSWORD)
            await page.click("input[type=submit]")
            await page.wait_for_url("**/admin/auth/group/")
            found = await (await page.wait_for_function(settled(DJANGO_NAMES), timeout=30_000)).json_value()
        await browser.close()
    print(json.dumps(found))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
