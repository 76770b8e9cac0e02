"""Accounts: sign up, and log in keeping the lists a visitor built before having an account.

Log out, password change and password reset are Django's own views, wired in ``urls``. The
lists app owns who may see a list (``lists.access``); accounts only hand a visitor's lists over.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from armybuilder.accounts.forms import SignUpForm
from armybuilder.lists.access import claim_session_lists


def _claimed_message(request: HttpRequest, claimed: int) -> None:
    if claimed:
        messages.success(
            request,
            ngettext(
                "The list you built is now saved in your account.",
                "The %(count)d lists you built are now saved in your account.",
                claimed,
            )
            % {"count": claimed},
        )


def _next_url(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return resolve_url(settings.LOGIN_REDIRECT_URL)


@sensitive_post_parameters("password1", "password2")
@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("ab-list-index")
    if request.method == "POST":
        form = SignUpForm(request.POST)
        if form.is_valid():
            user = form.save()
            # Claim before logging in: the session's anonymous list ids are what we hand over.
            claimed = claim_session_lists(request, user)
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome to Muster, %(name)s.") % {"name": user.get_username()})
            _claimed_message(request, claimed)
            return HttpResponseRedirect(_next_url(request))
    else:
        form = SignUpForm()
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": request.POST.get("next") or request.GET.get("next", "")},
    )


class ClaimingLoginView(LoginView):
    """Django's login, which also gives the visitor's session lists to the account."""

    redirect_authenticated_user = True

    def form_valid(self, form):  # type: ignore[no-untyped-def]
        claimed = claim_session_lists(self.request, form.get_user())
        response = super().form_valid(form)
        _claimed_message(self.request, claimed)
        return response
