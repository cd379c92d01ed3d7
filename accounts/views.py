from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from .attempts import rate_allows
from .forms import SignupForm
from .lockout import login_locked


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    # Accounts per client address are limited (each costs a password hash): SIGNUP_THROTTLE_RATE.
    if request.method == "POST" and not rate_allows(
        request, scope="signup", rate=settings.SIGNUP_THROTTLE_RATE
    ):
        form.add_error(None, _("Too many accounts created from your network. Wait a while and try again."))
        response = render(request, "accounts/signup.html", {"form": form}, status=429)
        response["Retry-After"] = "60"
        return response
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="accounts.backends.LockoutModelBackend")
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})


class ThrottledLoginView(auth_views.LoginView):
    """Django's log-in page, refusing further attempts from a client that is locked out.

    Failures are counted for every log-in path by accounts.signals; the rules (per account and address,
    and a higher limit per address) are in accounts.lockout.
    """

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if login_locked(request=request, username=request.POST.get("username") or ""):
            form = self.get_form()
            form.add_error(None, _("Too many failed log-in attempts. Wait a few minutes and try again."))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().post(request, *args, **kwargs)
