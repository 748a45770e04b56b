"""The staff roles see the login lockouts in the admin (axes' access attempts and failures);
operators may also release one by deleting its attempt. The groups are the ones
cardroom/migrations/0003_operator_actions.py makes (either migration may run first)."""

from django.db import migrations

#: Each role's permissions on axes' models, as codenames.
LOCKOUTS = {
    "Auditors": ["view_accessattempt", "view_accessfailurelog"],
    "Operators": ["view_accessattempt", "view_accessfailurelog", "delete_accessattempt"],
}


def grant(apps, schema_editor):
    """Permissions are normally made after every migration (post_migrate); make axes' now so
    the groups can hold them on a fresh database."""
    from django.contrib.auth.management import create_permissions

    axes = apps.get_app_config("axes")
    axes.models_module = True
    create_permissions(axes, apps=apps, verbosity=0)
    axes.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in LOCKOUTS.items():
        group, _ = Group.objects.get_or_create(name=name)
        group.permissions.add(
            *Permission.objects.filter(content_type__app_label="axes", codename__in=codenames)
        )


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in LOCKOUTS.items():
        for group in Group.objects.filter(name=name):
            group.permissions.remove(
                *Permission.objects.filter(content_type__app_label="axes", codename__in=codenames)
            )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_display_name_and_login_sessions"),
        ("axes", "0010_accessattemptexpiration"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
