"""The single-page app: Django serves the built frontend's index.html at its routes."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import ensure_csrf_cookie

MISSING_BUILD = """<!doctype html><title>steplab</title>
<h1>The frontend is not built</h1><p>Run <code>make run</code> (or <code>cd frontend &amp;&amp;
npm ci &amp;&amp; npm run build</code>).</p>"""


@ensure_csrf_cookie
def spa(request: HttpRequest, status: int = 200, **kwargs: object) -> HttpResponse:
    index = settings.FRONTEND_DIST / "index.html"
    if not index.exists():
        return HttpResponse(MISSING_BUILD, status=503)
    response = HttpResponse(index.read_text(encoding="utf-8"), status=status)
    # The page names the build's hashed assets (cached a year, annotate/static.py): a browser
    # asks again every time so that a new build's names reach it at once.
    response["Cache-Control"] = "no-cache"
    return response
