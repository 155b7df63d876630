"""A real server-rendered app for the benchmark: the Django admin (from PyPI), as shipped: its login form with a
CSRF token, the redirect after it, a changelist of 60 groups, ten to a page, and `Cross-Origin-Opener-Policy:
same-origin` on every response (Django's SecurityMiddleware default). Serves on 127.0.0.1:PORT until killed, with
the user and password of fixtures.py, in a database of its own in a temporary folder. With --login-time, prints
how long the server takes to answer the login form's POST (the password checked with its default hasher, the
session made, the redirect), the part of a login that is the server's.

    django_site.py PORT | --login-time
"""
import atexit
import os
import shutil
import sys
import tempfile

import time

import django
from django.conf import settings

from fixtures import DJANGO_GROUPS, DJANGO_LOGIN, DJANGO_PASSWORD, DJANGO_PER_PAGE, DJANGO_USER

FOLDER = tempfile.mkdtemp(prefix="webparse-bench-django-")
atexit.register(shutil.rmtree, FOLDER, True)
settings.configure(
    DEBUG=True,  # runserver serves the admin's CSS and scripts only then
    SECRET_KEY="webparse-benchmark-only",
    ALLOWED_HOSTS=["127.0.0.1", "localhost"],
    ROOT_URLCONF=__name__,
    INSTALLED_APPS=["django.contrib.admin", "django.contrib.auth", "django.contrib.contenttypes",
                    "django.contrib.sessions", "django.contrib.messages", "django.contrib.staticfiles"],
    MIDDLEWARE=["django.middleware.security.SecurityMiddleware", "django.contrib.sessions.middleware.SessionMiddleware",
                "django.middleware.common.CommonMiddleware", "django.middleware.csrf.CsrfViewMiddleware",
                "django.contrib.auth.middleware.AuthenticationMiddleware",
                "django.contrib.messages.middleware.MessageMiddleware",
                "django.middleware.clickjacking.XFrameOptionsMiddleware"],
    TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True,
                "OPTIONS": {"context_processors": ["django.template.context_processors.request",
                                                   "django.contrib.auth.context_processors.auth",
                                                   "django.contrib.messages.context_processors.messages"]}}],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3",
                           "NAME": os.path.join(FOLDER, "db.sqlite3")}},
    STATIC_URL="static/",
    USE_TZ=True,
)
django.setup()

from django.contrib import admin  # noqa: E402 (needs the settings above)
from django.contrib.auth.admin import GroupAdmin  # noqa: E402
from django.contrib.auth.models import Group, User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.urls import path  # noqa: E402

admin.site.unregister(Group)


@admin.register(Group)
class PagedGroupAdmin(GroupAdmin):
    list_per_page = DJANGO_PER_PAGE


urlpatterns = [path("admin/", admin.site.urls)]


def login_time():
    """The server's own part of a login, in seconds: the median of five POSTs of the login form (the password
    checked, the session made, the redirect answered), each by a new client, in this process."""
    from django.test import Client

    times = []
    for _ in range(5):
        client = Client(HTTP_HOST="127.0.0.1")
        client.get(DJANGO_LOGIN)
        start = time.monotonic()
        response = client.post(DJANGO_LOGIN, {"username": DJANGO_USER, "password": DJANGO_PASSWORD})
        times.append(time.monotonic() - start)
        assert response.status_code == 302, response.status_code
    return sorted(times)[len(times) // 2]


if __name__ == "__main__":
    call_command("migrate", verbosity=0)
    User.objects.create_superuser(DJANGO_USER, "admin@example.test", DJANGO_PASSWORD)
    Group.objects.bulk_create(Group(name=name) for name in DJANGO_GROUPS)
    if sys.argv[1] == "--login-time":
        print(f"{login_time():.3f}")
    else:
        call_command("runserver", f"127.0.0.1:{sys.argv[1]}", use_reloader=False, verbosity=0)
