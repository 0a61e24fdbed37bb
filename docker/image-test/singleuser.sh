# shellcheck shell=bash
# docker/image-test/singleuser.sh — part of docker/test-image.sh (sourced): the image under a hub.
#
#   run_singleuser  the image's environment (user, home, commands) and jupyterhub-singleuser
#                   started as a spawner starts it, with the hub's environment variables: it serves
#                   the API and the live book under the hub's prefix (/user/student/), refuses
#                   requests without the hub's auth, and the health check follows the prefix

# jupyterhub-singleuser as a spawner starts it: the hub's environment variables, the command
# replacing sod-notebook. JupyterHub 5's singleuser asks its hub's API for the hub's version at
# start, and exits when no hub answers: a stand-in answers that one request (GET /hub/api, with
# the image's JupyterHub version) in the container, and nothing else (a real hub: docker/test-hub.sh).
# The server must serve its API under the prefix, refuse requests without the hub's auth, and pass
# the health check.
fake_hub='import http.server, json, os
class Hub(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        ok = self.path.rstrip("/") == "/hub/api"
        self.send_response(200 if ok else 404)
        self.send_header("X-JupyterHub-Version", os.environ["HUB_VERSION"])
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(json.dumps({"version": os.environ["HUB_VERSION"]} if ok else {}).encode())
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", 8081), Hub).serve_forever()'

run_singleuser() {
  local name=sod-test-hub-$$ prefix=/user/student code version
  containers+=("$name")
  show $engine run --rm "$image" sh -c 'echo "NB_USER=$NB_USER NB_UID=$NB_UID HOME=$HOME uid=$(id -u) cwd=$PWD"; go version; for c in gonb goimports jupyter jupyter-lab jupyterhub-singleuser tini; do command -v $c; done'
  version=$($engine run --rm "$image" jupyterhub-singleuser --version 2>/dev/null | tail -1)
  say "  jupyterhub-singleuser $version"
  case "$version" in 5.*) ;; *) die "jupyterhub-singleuser --version: '$version', want JupyterHub 5" ;; esac
  show $engine run -d --name "$name" -p "127.0.0.1:$port:8888" \
    -e JUPYTERHUB_API_TOKEN="$(random_token)" \
    -e JUPYTERHUB_CLIENT_ID=jupyterhub-user-student -e JUPYTERHUB_USER=student \
    -e JUPYTERHUB_API_URL=http://127.0.0.1:8081/hub/api -e JUPYTERHUB_BASE_URL=/ \
    -e JUPYTERHUB_SERVICE_PREFIX=$prefix/ -e JUPYTERHUB_OAUTH_CALLBACK_URL=$prefix/oauth_callback \
    -e JUPYTERHUB_SERVICE_URL=http://0.0.0.0:8888$prefix/ \
    -e FAKE_HUB="$fake_hub" -e HUB_VERSION="$version" \
    "$image" sh -c 'python3 -c "$FAKE_HUB" & exec jupyterhub-singleuser' >/dev/null
  wait_api "$prefix" || {
    $engine logs "$name" 2>&1 | tail -30
    die "jupyterhub-singleuser did not answer $prefix/api"
  }
  say "  jupyterhub-singleuser answers $prefix/api: $(cat "$tmp/body")"
  code=$(http_code "http://127.0.0.1:$port$prefix/api/kernelspecs")
  say "  $prefix/api/kernelspecs without the hub's auth: HTTP $code"
  [ "$code" = 403 ] || [ "$code" = 401 ] || [ "$code" = 302 ] || die "jupyterhub-singleuser answered HTTP $code without auth"
  code=$(http_code "http://127.0.0.1:$port$prefix/lab")
  say "  $prefix/lab without the hub's auth: HTTP $code (a redirect to the hub's login)"
  [ "$code" = 302 ] || [ "$code" = 403 ] || [ "$code" = 401 ] || die "$prefix/lab answered HTTP $code without auth"
  # The live book under the prefix (docker/sod_livebook.py): the route exists there (a redirect to
  # the hub's login, not a 404) and the server's log names it.
  code=$(http_code "http://127.0.0.1:$port$prefix/sod-book/index.html")
  say "  $prefix/sod-book/ without the hub's auth: HTTP $code"
  [ "$code" = 302 ] || [ "$code" = 403 ] || [ "$code" = 401 ] || die "$prefix/sod-book/ answered HTTP $code without auth"
  $engine logs "$name" 2>&1 | grep "sod_livebook: the live book .* at $prefix/sod-book/" >/dev/null ||
    die "the server log does not say the live book is served at $prefix/sod-book/"
  if [ "$engine" = podman ]; then
    show podman healthcheck run "$name" || die "health check under JUPYTERHUB_SERVICE_PREFIX failed"
    say "  health check under JUPYTERHUB_SERVICE_PREFIX: healthy"
  fi
  $engine logs "$name" 2>&1 | grep -i 'jupyterlab' >/dev/null || say "  (the server log does not mention JupyterLab)"
  $engine rm -f "$name" >/dev/null 2>&1
}
