from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from labeling.views import spa

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's init script from a URL: no inline script (CSP).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/", include("labeling.api.urls")),
    path("api/", include("autolabel.urls")),
    path("api/", include("training_runs.urls")),
    path("", spa, name="spa-home"),
    re_path(r"^(?:login|projects|invite|reset|forgot-password)(?:/.*)?$", spa, name="spa"),
    # Any other page (a mistyped address): the app's "Page not found", with a 404. Not under
    # the API, the admin or /static (their own 404s, and the slash redirects of /api and /admin).
    re_path(
        r"^(?!(?:api|admin|static)(?:/|$)).+$",
        spa,
        {"status": 404},
        name="spa-not-found",
    ),
]

# A URL no pattern matches (e.g. a negative id) answers the API's JSON error under /api/.
handler400 = "labeling.api.errors.bad_request"
handler403 = "labeling.api.errors.permission_denied"
handler404 = "labeling.api.errors.not_found"
handler500 = "labeling.api.errors.server_error"
