"""Response headers Django does not set itself: Permissions-Policy.

The print preview's framed document, the one page allowed inline styles, says so with Django's
``@csp_override`` (``playsheets.views.print_document``); every other page keeps ``SECURE_CSP``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class PermissionsPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response
