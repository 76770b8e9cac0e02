"""The sign-up form: a user name, an optional e-mail (for password reset) and a password."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("E-mail"), required=False, help_text=_("Optional; needed only to reset a forgotten password.")
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
