from django.apps import AppConfig


class AutolabelConfig(AppConfig):
    name = "autolabel"
    verbose_name = "Auto-labeling"

    def ready(self) -> None:
        # The engine plug-ins are discovered (and their names given to labeling's
        # machine_sources) in every process, before any request or task reads a source name.
        import autolabel.registry  # noqa: F401
