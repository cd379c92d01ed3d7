from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from .forms import SignupForm


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})


class ThrottledLoginView(auth_views.LoginView):
    """Django's login page, refusing further attempts after repeated failures.

    Failures are counted per username and per client address in the cache (shared by all web
    nodes when CACHE_URL points at Redis), so guessing one account's password or spraying many
    accounts from one address both stop after LOGIN_MAX_FAILURES within LOGIN_LOCKOUT_SECONDS.
    """

    def _keys(self) -> list[str]:
        username = (self.request.POST.get("username") or "").strip().casefold()[:150]
        address = self.request.META.get("REMOTE_ADDR", "")
        return [f"login-fail:user:{username}", f"login-fail:addr:{address}"]

    def _locked(self) -> bool:
        return any(cache.get(key, 0) >= settings.LOGIN_MAX_FAILURES for key in self._keys())

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if self._locked():
            form = self.get_form()
            form.add_error(None, _("Too many failed log-in attempts. Wait a few minutes and try again."))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: Any) -> HttpResponse:
        for key in self._keys():
            cache.add(key, 0, timeout=settings.LOGIN_LOCKOUT_SECONDS)
            try:
                cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.set(key, 1, timeout=settings.LOGIN_LOCKOUT_SECONDS)
        return super().form_invalid(form)
