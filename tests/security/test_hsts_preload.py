"""HSTS preload is off unless the operator asks for it (SECURE_HSTS_PRELOAD=1).

Preloading binds a domain and every subdomain to HTTPS in browsers for months, and leaving the
list is slow: a deliberate step, not a default. ``check --deploy`` stays clean either way.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings

PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "x" * 60,
    "ALLOWED_HOSTS": "muster.example.org",
    "EMAIL_HOST": "smtp.example.org",
    "DEFAULT_FROM_EMAIL": "muster@example.org",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "TRUSTED_PROXIES": "127.0.0.1,::1",
}
PROBE = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "print(json.dumps([s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_PRELOAD, s.SILENCED_SYSTEM_CHECKS]))"
)


def _production(**extra: str) -> list:
    env = {key: value for key, value in os.environ.items() if key != "SECURE_HSTS_PRELOAD"}
    env.update(PRODUCTION, **extra, DJANGO_SETTINGS_MODULE="armybuilder.settings")
    out = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, cwd=settings.BASE_DIR, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    ("extra", "expected"),
    [({}, [31536000, False, ["security.W021"]]), ({"SECURE_HSTS_PRELOAD": "1"}, [31536000, True, []])],
)
def test_preload_is_off_by_default_and_a_setting_turns_it_on(extra, expected):
    assert _production(**extra) == expected
