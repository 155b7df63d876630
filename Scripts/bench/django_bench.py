"""The benchmark's Django admin section (bench.py --sections django): the app of django_site.py, as shipped (COOP
on), run by webparse and by Playwright on the same tasks, whole processes, each output checked:

- "login, next": log in with steps (fill, fill, click, then Django's redirect), then the changelist's six pages
  by its paginator (`next`), one job; "login, next, first answer" the same with each page's first non-empty
  answer (webparse's "settle": 0, Playwright's BENCH_SETTLE_MS=0), where the settled task waits 0.2 s a page;
- "login, 6 URLs at N": a login job, then a job of the changelist's six pages by URL (`urls`, `after` the
  login), N pages at once (Playwright: the same in one browser context);
- "steps": within one webparse run, the login job against loading the two pages it visits (the login form, and
  the changelist once logged in), each from an empty HTTP cache, from each job's elapsedMs; the server's own part
  of the login (its answer to the POST: the password checked, the session made; --login-time) is measured apart.
"""
import json
import os
import subprocess

import apps
from fixtures import DJANGO_GROUPS, DJANGO_LOGIN, DJANGO_NAMES, DJANGO_NEXT, DJANGO_PASSWORD, DJANGO_PER_PAGE, DJANGO_USER

HERE = os.path.dirname(os.path.abspath(__file__))
PAGES = len(DJANGO_GROUPS) // DJANGO_PER_PAGE
STEPS = [{"fill": {"#id_username": DJANGO_USER}}, {"fill": {"#id_password": DJANGO_PASSWORD}}, {"click": "input[type=submit]"}]


def start(python):
    """Starts the Django admin with `python` on a free port; returns (its process, its base URL once it answers)."""
    return apps.start_app(python, "django_site.py", DJANGO_LOGIN, "Django admin")


def login_time(python):
    """How long the Django admin takes to answer the login form's POST, in seconds."""
    return float(subprocess.run([python, os.path.join(HERE, "django_site.py"), "--login-time"], capture_output=True,
                                text=True, check=True).stdout)


def login_job(base, name="login"):
    return {"name": name, "url": base + DJANGO_LOGIN, "steps": STEPS, "script": DJANGO_NAMES}


def next_config(base, settle=None):
    """One job: the login, then the changelist's pages by its paginator; with `settle` (seconds), the job's settle
    time (0: each page's first non-empty answer)."""
    job = {**login_job(base, "groups"), "next": {"script": DJANGO_NEXT}}
    return {"jobs": [job if settle is None else {**job, "settle": settle}]}


def range_config(base, concurrency):
    """A login job, then the changelist's pages by URL, `concurrency` at once."""
    urls = [f"{base}/admin/auth/group/?p={n}" for n in range(1, PAGES + 1)]
    return {"concurrency": concurrency,
            "jobs": [login_job(base), {"name": "page", "urls": urls, "after": "login", "script": DJANGO_NAMES}]}


def steps_config(base):
    """A first job that starts the web process, the login form alone, the login, and the changelist alone, each of
    the last three from an empty HTTP cache ("cache": "reload"), so that the login job and the two pages load their
    scripts and styles alike (the changelist's come from the server in the login job)."""
    return {"concurrency": 1, "jobs": [
        {"name": "warm", "url": base + DJANGO_LOGIN, "script": "document.title"},
        {"name": "form", "url": base + DJANGO_LOGIN, "script": "document.querySelector('#id_username') ? 'form' : null", "after": "warm",
         "cache": "reload"},
        {**login_job(base), "after": "form", "cache": "reload"},
        {"name": "list", "url": base + "/admin/auth/group/", "script": DJANGO_NAMES, "after": "login", "cache": "reload"},
    ]}


def names_ok(output, keys):
    """Whether the results of `keys`, joined, are every group name in order."""
    return [name for key in keys for name in output.get(key, [])] == DJANGO_GROUPS


def checks():
    """How each task's output is checked: webparse's JSON object and Playwright's list."""
    pages = [f"page-{n}" for n in range(1, PAGES + 1)]
    return {
        "next": lambda output: names_ok(output, ["groups"]),
        "range": lambda output: names_ok(output, pages) and output.get("login") == DJANGO_GROUPS[:DJANGO_PER_PAGE],
        "peer": lambda output: output == DJANGO_GROUPS,
    }


def steps_ratio(jsonl):
    """From a --jsonl run of steps_config: (login ms, form ms + list ms), or None when a job failed."""
    records = {record["job"]: record for record in map(json.loads, jsonl.splitlines()) if "job" in record}
    if any(records.get(name, {}).get("status") != "ok" for name in ("form", "login", "list")):
        return None
    return records["login"]["elapsedMs"], records["form"]["elapsedMs"] + records["list"]["elapsedMs"]
