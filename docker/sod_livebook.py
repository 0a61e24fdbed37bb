"""sod_livebook: the image's Jupyter server serves the SOD Workbench's live book at <base_url>sod-book/.

The live book (scripts/book.sh, livebook/README.md) is the executed notebooks as HTML pages whose
code cells run in the page, in a Go interpreter compiled to WebAssembly that a Web Worker loads
from the page's own origin. jupyter-server's /files/ cannot serve it: it confines every page it
serves to a unique origin (Content-Security-Policy "sandbox allow-scripts", so that an uploaded
HTML file cannot use the server's API), and such a page can neither start a worker nor fetch its
interpreter. This extension serves one folder, BOOK, the image's own book: owned by root and
read-only for the notebook user, so no file a user writes or uploads is ever served here. Requests
are authenticated as for /files/ (the token, JupyterHub's login); under JupyterHub the book is at
/user/NAME/sod-book/.

Enabled in /etc/jupyter/jupyter_server_config.d/sod-workbench.json (docker/jupyter_server_config.json).
"""

import os

from jupyter_server.base.handlers import AuthenticatedFileHandler, JupyterHandler
from jupyter_server.utils import url_path_join
from tornado import web

BOOK = "/usr/local/share/sod-workbench/book"
ROUTE = "sod-book"


class BookHandler(AuthenticatedFileHandler):
    """The book's files, with the server's usual policy instead of the /files/ sandbox."""

    @property
    def content_security_policy(self) -> str:
        return JupyterHandler.content_security_policy.fget(self)

    def check_xsrf_cookie(self) -> None:
        # /files/ refuses a GET without a same-site Referer (against cross-site inclusion of the
        # user's files), which refuses the book's address typed or bookmarked. The book holds no
        # user data: the same pages for everybody, so there is nothing to include; the request is
        # still authenticated (web.authenticated, as for /files/).
        return None


def _jupyter_server_extension_points():
    return [{"module": "sod_livebook"}]


def _load_jupyter_server_extension(serverapp):
    if not os.path.isfile(os.path.join(BOOK, "index.html")):
        serverapp.log.warning("sod_livebook: no book at %s; %s/ is not served", BOOK, ROUTE)
        return
    web_app = serverapp.web_app
    route = url_path_join(web_app.settings["base_url"], ROUTE)
    web_app.add_handlers(".*$", [
        (route, web.RedirectHandler, {"url": route + "/"}),
        (route + "/(.*)", BookHandler, {"path": BOOK, "default_filename": "index.html"}),
    ])
    serverapp.log.info("sod_livebook: the live book %s at %s/", BOOK, route)
