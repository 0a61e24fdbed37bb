# shellcheck shell=bash
# docker/image-test/server.sh — part of docker/test-image.sh (sourced): the notebook server's
# security, as the image's default command (sod-notebook) starts it.
#
#   run_server        JUPYTER_TOKEN given, published on the host's loopback only: the API, Lab, the
#                     files and the HTML book answer with the token and refuse requests without it
#                     or with a wrong one (403/401); a Go cell runs through the API and the kernel's
#                     websocket (scripts/kernel_check.py); the health check passes; the log shows the
#                     URL with the token
#   run_random_token  without JUPYTER_TOKEN: a random token is made, printed, and required

run_server() {
  local name=sod-test-server-$$ token code t0
  containers+=("$name")
  token=$(random_token)
  t0=$(date +%s)
  show $engine run -d --name "$name" -p "127.0.0.1:$port:8888" -e JUPYTER_TOKEN="$token" "$image" >/dev/null
  wait_api || {
    $engine logs "$name" | tail -20
    die "the server did not answer on port $port"
  }
  say "server answered /api after $(($(date +%s) - t0)) s: $(cat "$tmp/body")"

  code=$(http_code "http://127.0.0.1:$port/api/kernelspecs" -H "Authorization: token $token")
  [ "$code" = 200 ] || die "/api/kernelspecs with the token: HTTP $code"
  python3 - "$tmp/body" <<'PY' || die "/api/kernelspecs does not list the gonb kernel"
import json, sys
specs = json.load(open(sys.argv[1]))["kernelspecs"]
print("  kernelspecs:", ", ".join(sorted(specs)))
sys.exit(0 if "gonb" in specs else 1)
PY
  code=$(http_code "http://127.0.0.1:$port/api/kernelspecs?token=$token")
  [ "$code" = 200 ] || die "/api/kernelspecs?token=...: HTTP $code"
  code=$(http_code "http://127.0.0.1:$port/api/kernelspecs")
  say "  without a token: HTTP $code"
  [ "$code" = 403 ] || [ "$code" = 401 ] || die "/api/kernelspecs without the token answered HTTP $code"
  code=$(http_code "http://127.0.0.1:$port/api/kernelspecs" -H "Authorization: token wrong-$token")
  say "  with a wrong token: HTTP $code"
  [ "$code" = 403 ] || [ "$code" = 401 ] || die "/api/kernelspecs with a wrong token answered HTTP $code"
  code=$(http_code "http://127.0.0.1:$port/api/contents")
  say "  /api/contents without a token: HTTP $code"
  [ "$code" = 403 ] || [ "$code" = 401 ] || die "/api/contents without the token answered HTTP $code"
  code=$(http_code "http://127.0.0.1:$port/lab")
  say "  /lab without a token: HTTP $code ($(grep -o 'login[^"]*' "$tmp/body" | head -1 || true))"
  [ "$code" = 302 ] || [ "$code" = 403 ] || [ "$code" = 401 ] || die "/lab without the token answered HTTP $code"
  code=$(http_code "http://127.0.0.1:$port/lab" -H "Authorization: token $token")
  [ "$code" = 200 ] || die "/lab with the token: HTTP $code"
  grep -q 'jupyter-config-data' "$tmp/body" || die "/lab does not serve JupyterLab's page"
  code=$(http_code "http://127.0.0.1:$port/files/book/index.html" -H "Authorization: token $token")
  [ "$code" = 200 ] || die "the HTML book (~/notebooks/book/index.html): HTTP $code"
  code=$(http_code "http://127.0.0.1:$port/files/book/index.html")
  [ "$code" = 403 ] || [ "$code" = 401 ] || [ "$code" = 302 ] || die "the HTML book without the token: HTTP $code"

  # A Go cell runs through the server, as from a browser: REST API + the kernel's websocket.
  show $engine exec -i "$name" python3 - http://127.0.0.1:8888 "$token" <"$repo/scripts/kernel_check.py" ||
    die "a Go cell did not run through the server"
  code=$(http_code "http://127.0.0.1:$port/api/kernels" -X POST -H 'Content-Type: application/json' -d '{"name": "gonb"}')
  say "  starting a kernel without a token: HTTP $code"
  [ "$code" = 403 ] || [ "$code" = 401 ] || die "POST /api/kernels without the token answered HTTP $code"

  # The health check.
  if [ "$engine" = podman ]; then
    show podman healthcheck run "$name" || die "health check failed"
  else
    local i status=
    for i in $(seq 1 90); do
      status=$(docker inspect --format '{{.State.Health.Status}}' "$name")
      [ "$status" = healthy ] && break
      sleep 1
    done
    [ "$status" = healthy ] || die "health status: $status"
  fi
  say "  health check: healthy"
  # Jupyter prints its URLs (with the token) once its extensions have loaded, which can be after
  # /api answers: wait for the line.
  local i
  for i in $(seq 1 30); do
    $engine logs "$name" 2>&1 | grep "token=$token" >/dev/null && break # not grep -q: SIGPIPE + pipefail
    [ "$i" = 30 ] && die "the server log does not show the URL with the token (30 s)"
    sleep 1
  done
  $engine rm -f "$name" >/dev/null 2>&1
}

run_random_token() {
  local name=sod-test-random-$$ token code
  containers+=("$name")
  show $engine run -d --name "$name" -p "127.0.0.1:$port:8888" "$image" >/dev/null
  wait_api || die "the server (random token) did not answer"
  token=$($engine logs "$name" 2>&1 | sed -n 's/.*lab?token=\([0-9a-f]*\).*/\1/p' | head -1)
  [ ${#token} -ge 32 ] || die "no random token in the server log"
  say "  random token printed in the log: ${token:0:6}… (${#token} hex digits)"
  code=$(http_code "http://127.0.0.1:$port/api/kernelspecs" -H "Authorization: token $token")
  [ "$code" = 200 ] || die "the printed token is refused: HTTP $code"
  code=$(http_code "http://127.0.0.1:$port/api/kernelspecs")
  [ "$code" = 403 ] || [ "$code" = 401 ] || die "without a token: HTTP $code"
  $engine rm -f "$name" >/dev/null 2>&1
}
