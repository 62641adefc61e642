from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from labeling.views import spa

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/", include("labeling.api.urls")),
    path("api/", include("autolabel.urls")),
    path("", spa, name="spa-home"),
    re_path(r"^(?:login|projects)(?:/.*)?$", spa, name="spa"),
]
