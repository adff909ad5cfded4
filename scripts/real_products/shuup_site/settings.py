"""Shuup's own workbench project, with its SQLite database in SHUUP_SITE_DIR."""

import os

from shuup_workbench.settings import *  # type: ignore[import-not-found]  # noqa: F403

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.path.join(os.environ["SHUUP_SITE_DIR"], "shuup.sqlite3"),  # noqa: PTH118
    }
}
