"""Sign-in with the username in any case (and any Unicode form): 'Alice' signs in as 'alice'.

Usernames are unique by `labeling.accounts.usernames.username_key`, so at most one account matches a
case-insensitive lookup of names created through steplab; an exact match wins when older
accounts differ only by case.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from labeling.accounts.usernames import normalize


class CaseInsensitiveModelBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None or password is None:
            return super().authenticate(request, username=username, password=password, **kwargs)
        model = get_user_model()
        name = normalize(username)
        matches = list(model._default_manager.filter(username__iexact=name)[:2])
        exact = [u for u in matches if u.username == name]
        user = exact[0] if exact else (matches[0] if len(matches) == 1 else None)
        if user is None:
            # Run the hasher anyway: the time taken does not tell which names exist.
            model().set_password(password)
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None
