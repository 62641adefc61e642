from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("labeling", "0008_assignment"),
    ]

    operations = [
        migrations.AddField(
            model_name="projectmembership",
            name="screening_reset_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
