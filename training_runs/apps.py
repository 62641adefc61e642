from django.apps import AppConfig


class TrainingRunsConfig(AppConfig):
    name = "training_runs"
    verbose_name = "PRM training runs"

    def ready(self) -> None:
        # The PRM active-learning claim order (opt-in per project, see
        # training_runs.active_learning).
        from labeling.services.queue.claim import CANDIDATE_ORDERINGS
        from training_runs.active_learning import candidate_order

        if candidate_order not in CANDIDATE_ORDERINGS:
            CANDIDATE_ORDERINGS.append(candidate_order)
