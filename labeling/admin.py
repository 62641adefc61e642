from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AdminUserCreationForm
from django.db import transaction
from django.db.models import Model, QuerySet
from rest_framework.authtoken.models import TokenProxy

from labeling import models
from labeling.services.projects.metrics_version import metrics_versions_bump


class MetricsReadAdmin(admin.ModelAdmin):
    """A model the project metrics read (labeling.metrics): an add, change (its inlines
    included: one transaction) or delete here moves the metrics version of every project it
    touched, before and after, as the services' writes do (metrics_version.py), so the
    dashboard's snapshot is not served stale after an edit made here."""

    project_lookup = "project_id"  # from a row to the id of the project whose metrics read it

    def metrics_projects(self, queryset: QuerySet) -> set[int]:
        rows = queryset.values_list(self.project_lookup, flat=True).distinct()
        return {project_id for project_id in rows if project_id is not None}

    def _projects_of(self, obj: Model) -> set[int]:
        return self.metrics_projects(self.model._default_manager.filter(pk=obj.pk))

    @staticmethod
    def _bump(project_ids: set[int]) -> None:
        # A project deleted with the row (the project's own page) has no version left to move.
        alive = models.Project.objects.filter(pk__in=project_ids).values_list("pk", flat=True)
        metrics_versions_bump(project_ids=set(alive))

    def save_model(self, request, obj, form, change) -> None:
        before = self._projects_of(obj) if change else set()
        super().save_model(request, obj, form, change)
        self._bump(before | self._projects_of(obj))

    def delete_model(self, request, obj) -> None:
        projects = self._projects_of(obj)
        super().delete_model(request, obj)
        self._bump(projects)

    def delete_queryset(self, request, queryset) -> None:
        with transaction.atomic():
            projects = self.metrics_projects(queryset)
            super().delete_queryset(request, queryset)
            self._bump(projects)


class MembershipInline(admin.TabularInline):
    model = models.ProjectMembership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(models.Project)
class ProjectAdmin(MetricsReadAdmin):  # its settings (overlap) are read
    project_lookup = "pk"
    list_display = ["name", "overlap", "first_error_mode", "show_suggestions", "created_at"]
    search_fields = ["name"]
    inlines = [MembershipInline]


@admin.register(models.Problem)
class ProblemAdmin(MetricsReadAdmin):
    list_display = ["id", "project", "source", "external_id", "answer"]
    list_filter = ["project", "source"]
    search_fields = ["text", "external_id"]


class StepInline(admin.TabularInline):
    model = models.Step
    extra = 0
    fields = ["index", "text"]


@admin.register(models.Solution)
class SolutionAdmin(MetricsReadAdmin):  # and its steps (inline)
    list_display = ["id", "project", "generator", "submitted_count", "answer_correct"]
    list_filter = ["project", "generator", "answer_correct"]
    raw_id_fields = ["problem"]
    inlines = [StepInline]


class StepLabelInline(admin.TabularInline):
    model = models.StepLabel
    extra = 0
    raw_id_fields = ["step"]


@admin.register(models.Annotation)
class AnnotationAdmin(MetricsReadAdmin):  # and its step labels (inline)
    project_lookup = "solution__project_id"
    list_display = ["id", "solution", "annotator", "status", "finish_reason", "submitted_at"]
    list_filter = ["status", "finish_reason", "imported"]
    raw_id_fields = ["solution"]
    inlines = [StepLabelInline]


@admin.register(models.Suggestion)
class SuggestionAdmin(MetricsReadAdmin):
    project_lookup = "step__solution__project_id"
    list_display = ["id", "step", "source", "agent", "value", "score"]
    list_filter = ["source"]
    raw_id_fields = ["step"]


@admin.register(models.ImportJob)
class ImportJobAdmin(admin.ModelAdmin):
    list_display = ["id", "project", "filename", "status", "rows_done", "created_at"]
    list_filter = ["status"]


@admin.register(models.TaskLock)
class TaskLockAdmin(admin.ModelAdmin):
    list_display = ["id", "solution", "user", "expires_at"]
    raw_id_fields = ["solution"]


@admin.register(models.ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Users' API tokens: searchable by username, revocable; never the secret (only its hash is
    stored), so none can be added here: a user creates them in the app."""

    list_display = [
        "name",
        "user",
        "prefix",
        "created_at",
        "expires_at",
        "last_used_at",
        "revoked_at",
    ]
    list_filter = [("revoked_at", admin.EmptyFieldListFilter), "created_at"]
    search_fields = ["user__username", "name", "prefix"]
    readonly_fields = ["user", "name", "prefix", "created_at", "last_used_at", "revoked_at"]
    fields = ["user", "name", "prefix", "created_at", "expires_at", "last_used_at", "revoked_at"]
    actions = ["revoke"]

    def has_add_permission(self, request) -> bool:
        return False

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request, queryset) -> None:
        from labeling.services.people.tokens import token_revoke

        for token in queryset.filter(revoked_at__isnull=True):
            token_revoke(token=token)


@admin.register(models.HubToken)
class HubTokenAdmin(admin.ModelAdmin):
    """Users' own Hugging Face tokens: who has one (its last four characters, the Hub account),
    removable; never the token (stored sealed), so none can be added or read here."""

    list_display = ["user", "last4", "hub_user", "checked_at", "updated_at"]
    search_fields = ["user__username", "hub_user"]
    fields = ["user", "last4", "hub_user", "checked_at", "created_at", "updated_at"]
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False


class ApiTokenInline(admin.TabularInline):
    model = models.ApiToken
    extra = 0
    can_delete = False
    fields = readonly_fields = [
        "name",
        "prefix",
        "created_at",
        "expires_at",
        "last_used_at",
        "revoked_at",
    ]
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class SteplabUserCreationForm(AdminUserCreationForm):
    """The admin's "Add user" form refuses the names the app refuses: mixed scripts, and names
    equal to an existing one but for case, Unicode form or look-alike letters."""

    def clean_username(self) -> str:
        from labeling.accounts.usernames import normalize, username_problem
        from labeling.services.people.accounts import username_existing

        name = super().clean_username()  # None: Django's own check refused it (same but case)
        if name is None:
            return name
        problem = username_problem(name)
        if problem:
            raise forms.ValidationError(problem, code="invalid_username")
        existing = username_existing(name)
        if existing is not None:
            raise forms.ValidationError(
                f"Too close to the existing username {existing!r}.", code="unique"
            )
        return normalize(name)


# The user page lists the user's API tokens; adding a user checks the name as the app does;
# a rename (the metrics name raters by username) or a delete (their annotations go) moves the
# metrics version of every project the user annotated in.
User = get_user_model()
if admin.site.is_registered(User):
    _user_admin = type(admin.site._registry[User])
    admin.site.unregister(User)
    admin.site.register(
        User,
        type(
            "UserAdmin",
            (MetricsReadAdmin, _user_admin),
            {
                "inlines": [*_user_admin.inlines, ApiTokenInline],
                "add_form": SteplabUserCreationForm,
                "project_lookup": "annotations__solution__project_id",
            },
        ),
    )
# DRF's authtoken tables stay only for the data migration (labeling 0012): its admin page would
# create tokens that authenticate nothing.
if admin.site.is_registered(TokenProxy):
    admin.site.unregister(TokenProxy)
