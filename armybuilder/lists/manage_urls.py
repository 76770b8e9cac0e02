"""URLs for managing lists (``/lists/...``), share links (``/s/...``) and accounts (``/accounts/...``)."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

from armybuilder.lists import account_views, views

account_patterns = [
    path("accounts/signup/", account_views.signup, name="signup"),
    path("accounts/login/", account_views.ClaimingLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password_change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path(
        "accounts/password_reset/",
        auth_views.PasswordResetView.as_view(email_template_name="registration/password_reset_email.html"),
        name="password_reset",
    ),
    path("accounts/password_reset/done/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("accounts/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]

list_patterns = [
    path("lists/", views.index, name="ab-list-index"),
    path("lists/new/", views.new, name="ab-list-new"),
    path("lists/trash/", views.trash, name="ab-list-trash"),
    path("lists/import/", views.import_list, name="ab-list-import"),
    path("lists/<int:pk>/rename/", views.rename, name="ab-list-rename"),
    path("lists/<int:pk>/duplicate/", views.duplicate, name="ab-list-duplicate"),
    path("lists/<int:pk>/delete/", views.delete, name="ab-list-delete"),
    path("lists/<int:pk>/restore/", views.restore, name="ab-list-restore"),
    path("lists/<int:pk>/purge/", views.purge, name="ab-list-purge"),
    path("lists/<int:pk>/share/regenerate/", views.regenerate_share, name="ab-list-share-regenerate"),
    path("lists/<int:pk>/export.txt", views.export_text, name="ab-list-export-text"),
    path("lists/<int:pk>/export.json", views.export_json, name="ab-list-export-json"),
    path("s/<str:token>/", views.shared, name="ab-list-shared"),
    path("s/<str:token>/copy/", views.shared_copy, name="ab-list-shared-copy"),
    path("s/<str:token>/export.txt", views.shared_export_text, name="ab-list-shared-export-text"),
]

urlpatterns = account_patterns + list_patterns
