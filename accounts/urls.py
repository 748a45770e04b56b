from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import account_views, password_views, two_factor_views, views
from accounts.forms import LoginForm

urlpatterns = [
    path("", account_views.account, name="account"),
    path("profile/", account_views.profile, name="account-profile"),
    path(
        "sessions/<int:session_id>/end/",
        account_views.session_end_view,
        name="account-session-end",
    ),
    path("tokens/", account_views.token_new, name="account-token-new"),
    path("tokens/<int:token_id>/revoke/", account_views.token_revoke, name="account-token-revoke"),
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(authentication_form=LoginForm), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", password_views.PasswordChange.as_view(), name="password_change"),
    path("password/reset/", auth_views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        password_views.PasswordResetConfirm.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("two-factor/setup/", two_factor_views.setup, name="two-factor-setup"),
    path("two-factor/verify/", two_factor_views.verify, name="two-factor-verify"),
    path("two-factor/codes/", two_factor_views.codes, name="two-factor-codes"),
    path("two-factor/off/", two_factor_views.disable, name="two-factor-disable"),
    path("cashier/", views.cashier, name="cashier"),
    path("cashier/reload/", views.reload, name="reload"),
]
