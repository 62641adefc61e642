from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('labeling', '0003_annotation_shown_suggestions'),
    ]

    operations = [
        migrations.AlterField(
            model_name='suggestion',
            name='source',
            field=models.CharField(choices=[('symbolic', 'Symbolic check'), ('rollout', 'Monte-Carlo rollouts'), ('judge', 'LLM judge'), ('prm', 'Trained PRM'), ('import', 'Imported dataset'), ('consensus', 'Consensus'), ('code', 'Code execution')], max_length=20),
        ),
    ]
