from django.db import migrations, models

STEP_SPLIT_CHOICES = [
    ("line", "One step per line"),
    ("paragraph", "One step per blank-line paragraph"),
    ("step_marker", '"Step k:" markers'),
    ("regex", "Split on a regular expression"),
    ("sentence", "One step per sentence"),
    ("step_tags", "A model's step separator tags"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("labeling", "0039_project_allow_resegment"),
    ]

    operations = [
        migrations.AddField(
            model_name="step",
            name="thinking",
            field=models.BooleanField(db_default=False, default=False),
        ),
        migrations.AddIndex(
            model_name="step",
            index=models.Index(
                condition=models.Q(("thinking", True)),
                fields=["solution"],
                name="step_thinking_idx",
            ),
        ),
        migrations.AlterField(
            model_name="project",
            name="step_split",
            field=models.CharField(choices=STEP_SPLIT_CHOICES, default="line", max_length=20),
        ),
        migrations.AddField(
            model_name="project",
            name="step_split_tag",
            field=models.CharField(blank=True, default="", max_length=100),
        ),
        migrations.AddField(
            model_name="importjob",
            name="step_split",
            field=models.CharField(blank=True, choices=STEP_SPLIT_CHOICES, max_length=20),
        ),
        migrations.AddField(
            model_name="importjob",
            name="step_split_regex",
            field=models.CharField(blank=True, max_length=500),
        ),
        migrations.AddField(
            model_name="importjob",
            name="step_split_tag",
            field=models.CharField(blank=True, max_length=100),
        ),
    ]
