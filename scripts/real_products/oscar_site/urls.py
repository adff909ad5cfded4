from django.apps import apps  # type: ignore[import-not-found]
from django.urls import include, path  # type: ignore[import-not-found]

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include(apps.get_app_config("oscar").urls[0])),
]
