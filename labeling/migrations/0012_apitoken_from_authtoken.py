"""Legacy DRF authtoken tokens become ApiToken rows named "API token", same secret (hashed).

Scripts that send an old key keep working: the key's sha256 is what ApiTokenAuthentication looks
up. The plain-text rows are then deleted, so the database no longer holds any secret. Not
reversible (the secrets are gone): going back leaves the ApiToken rows as they are.
"""

import hashlib

from django.db import migrations

LEGACY_NAME = "API token"


def convert_legacy_tokens(apps, schema_editor) -> int:
    """Returns how many were converted. Idempotent: a key already converted is not doubled."""
    Token = apps.get_model("authtoken", "Token")
    ApiToken = apps.get_model("labeling", "ApiToken")
    converted = 0
    for legacy in Token.objects.all().iterator():
        digest = hashlib.sha256(legacy.key.encode()).hexdigest()
        if not ApiToken.objects.filter(key_hash=digest).exists():
            ApiToken.objects.create(
                user_id=legacy.user_id,
                name=LEGACY_NAME,
                key_hash=digest,
                prefix=legacy.key[:8],
                created_at=legacy.created,
            )
            converted += 1
    Token.objects.all().delete()
    return converted


class Migration(migrations.Migration):
    dependencies = [
        ("labeling", "0011_apitoken"),
        ("authtoken", "0004_alter_tokenproxy_options"),
    ]

    operations = [migrations.RunPython(convert_legacy_tokens, migrations.RunPython.noop)]
