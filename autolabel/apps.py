from django.apps import AppConfig


class AutolabelConfig(AppConfig):
    name = "autolabel"
    verbose_name = "Auto-labeling"

    def ready(self) -> None:
        # The PRM active-learning claim order (opt-in per project, see autolabel.active_learning).
        from autolabel.active_learning import candidate_order
        from labeling.services.queue import CANDIDATE_ORDERINGS

        if candidate_order not in CANDIDATE_ORDERINGS:
            CANDIDATE_ORDERINGS.append(candidate_order)
