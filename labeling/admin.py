from django.contrib import admin

from labeling import models


class MembershipInline(admin.TabularInline):
    model = models.ProjectMembership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(models.Project)
class ProjectAdmin(admin.ModelAdmin):
    list_display = ["name", "overlap", "first_error_mode", "show_suggestions", "created_at"]
    search_fields = ["name"]
    inlines = [MembershipInline]


@admin.register(models.Problem)
class ProblemAdmin(admin.ModelAdmin):
    list_display = ["id", "project", "source", "external_id", "answer"]
    list_filter = ["project", "source"]
    search_fields = ["text", "external_id"]


class StepInline(admin.TabularInline):
    model = models.Step
    extra = 0
    fields = ["index", "text"]


@admin.register(models.Solution)
class SolutionAdmin(admin.ModelAdmin):
    list_display = ["id", "project", "generator", "submitted_count", "answer_correct"]
    list_filter = ["project", "generator", "answer_correct"]
    raw_id_fields = ["problem"]
    inlines = [StepInline]


class StepLabelInline(admin.TabularInline):
    model = models.StepLabel
    extra = 0
    raw_id_fields = ["step"]


@admin.register(models.Annotation)
class AnnotationAdmin(admin.ModelAdmin):
    list_display = ["id", "solution", "annotator", "status", "finish_reason", "submitted_at"]
    list_filter = ["status", "finish_reason", "imported"]
    raw_id_fields = ["solution"]
    inlines = [StepLabelInline]


@admin.register(models.Suggestion)
class SuggestionAdmin(admin.ModelAdmin):
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
