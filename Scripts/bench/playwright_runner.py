"""Loads pages with Python Playwright driving the system chromium, polling the benchmark's script with
wait_for_function, as a Playwright user would. Prints the results as a JSON list.

    playwright_runner.py cold URL SCRIPT
    playwright_runner.py batch URL COUNT SCRIPT     (one browser, pages one after another)
"""
import json
import sys

from playwright.sync_api import sync_playwright

mode, url, script = sys.argv[1], sys.argv[2], sys.argv[-1]
count = int(sys.argv[3]) if mode == "batch" else 1
results = []
with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    for _ in range(count):
        page = browser.new_page()
        page.goto(url, wait_until="commit")
        results.append(page.wait_for_function(f"() => {script}", timeout=30_000).json_value())
        page.close()
    browser.close()
print(json.dumps(results))
