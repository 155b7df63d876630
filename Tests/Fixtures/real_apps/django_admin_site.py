"""The Django admin (Django from PyPI, as shipped) over a database of its own: its login form with a CSRF token and
a session cookie, the redirect after it, its stylesheets and scripts (jQuery among them), the changelist of groups
ten to a page (`?p=2`) and each group's change page. Nothing of Django's is changed; this file is only the settings a
project would have and the data.

Usage: django_admin_site.py PORT FOLDER: makes FOLDER/db.sqlite3 (the user `admin`, password `real-app-password`,
and the groups "Chapter 01" to "Chapter 45") unless it is there, then serves on 127.0.0.1:PORT until killed (Django's
runserver, which serves the admin's static files with DEBUG on).
"""
import os
import signal
import sys

import django
from django.conf import settings

PORT, FOLDER = sys.argv[1], sys.argv[2]
DATABASE = os.path.join(FOLDER, "db.sqlite3")
settings.configure(
    DEBUG=True,
    SECRET_KEY="webparse-tests-only",
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
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": DATABASE}},
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
    list_per_page = 10


urlpatterns = [path("admin/", admin.site.urls)]

if __name__ == "__main__":
    # A parent that blocks signals passes its mask on; the tests' kill must still stop the app.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    if not os.path.exists(DATABASE):
        call_command("migrate", verbosity=0)
        User.objects.create_superuser("admin", "admin@example.test", "real-app-password")
        Group.objects.bulk_create(Group(name=f"Chapter {n:02}") for n in range(1, 46))
    call_command("runserver", f"127.0.0.1:{PORT}", use_reloader=False, verbosity=0)
