"""``hotdice serve``: the game in the browser. FastAPI app (:func:`create_app`; :func:`serve_app` in a server
process), Jinja2 pages, static vanilla JS and CSS shipped in the package (no build step), games held by the
server.

Layout: ``app.py`` (factory), ``routes/`` (thin: one module per part, collected in ``routes/__init__``),
``services/`` (the logic), ``deps.py`` (``Annotated`` dependencies), ``settings.py`` (environment),
``hub.py`` (live updates), ``i18n.py`` (the page's language; the words are :mod:`hotdice.i18n`'s), ``charts.py`` (SVG),
``templates/`` and ``static/``.
"""

from hotdice.web.app import create_app, serve_app
from hotdice.web.settings import Settings

__all__ = ["Settings", "create_app", "serve_app"]
