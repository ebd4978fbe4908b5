"""The web page: ``snakecube serve`` (a local app on the compiled engine) and ``snakecube web``
(the same page as a static site that solves in the browser with Pyodide).

Both are a thin layer over the public API. :mod:`snakecube.web.answers` turns the page's
requests into JSON-ready answers with the standard library only, so the same module runs in
the server's worker processes and in Pyodide; :mod:`snakecube.web.server` (Starlette,
imported only by ``snakecube serve``) and :mod:`snakecube.web.site` (the static-site builder)
never import each other.
"""
