"""factory_boy factories for the labeling domain."""

import factory
from django.contrib.auth import get_user_model

from labeling.models import (
    Annotation,
    Problem,
    Project,
    ProjectMembership,
    Role,
    Solution,
    Step,
    Suggestion,
)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw-for-tests")


class ProjectFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Project

    name = factory.Sequence(lambda n: f"Project {n}")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ProjectMembership

    project = factory.SubFactory(ProjectFactory)
    user = factory.SubFactory(UserFactory)
    role = Role.ANNOTATOR


class ProblemFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Problem

    project = factory.SubFactory(ProjectFactory)
    text = factory.Sequence(lambda n: f"What is ${n} + {n}$?")
    answer = factory.Sequence(lambda n: str(2 * n))


class SolutionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Solution
        skip_postgeneration_save = True

    problem = factory.SubFactory(ProblemFactory)
    project = factory.SelfAttribute("problem.project")
    generator = "test-model"

    @factory.post_generation
    def steps(self, create: bool, extracted: int | list[str] | None, **kwargs: object) -> None:
        """`steps=5` makes five steps, `steps=[...]` those texts; default three."""
        if not create:
            return
        texts = extracted if isinstance(extracted, list) else None
        count = extracted if isinstance(extracted, int) else 3
        texts = texts or [f"Step {i + 1}: $1 + {i} = {i + 1}$" for i in range(count)]
        Step.objects.bulk_create(
            Step(solution=self, index=i, text=text) for i, text in enumerate(texts)
        )


class SuggestionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Suggestion

    step = factory.SubFactory(Step)
    source = "symbolic"
    agent = "sympy"
    value = 1
    score = 1.0


class AnnotationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Annotation

    solution = factory.SubFactory(SolutionFactory)
    annotator = factory.SubFactory(UserFactory)
