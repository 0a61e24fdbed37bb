# shellcheck shell=bash
# docker/image-test/livebook.sh — part of docker/test-image.sh (sourced): the live book, as the
# image's server serves it at /sod-book/ (docker/sod_livebook.py).
#
#   run_livebook          in a container of the default command: the index and a live page answer
#                         with the token and refuse requests without it; the page loads the live
#                         runtime and no script from another host; its runtime files (live.js,
#                         worker.js, wasm_exec.js, ECharts) and both interpreters are served (sizes
#                         > 0; each interpreter a WebAssembly module, or the gzip of one); the
#                         page is not confined to the /files/ sandbox; the book's folder is
#                         read-only for the notebook user, and a page written through the server's
#                         contents API is refused and never served at /sod-book/; the interpreter's
#                         packages load offline from the image's module cache (go list -deps)
#   run_browser_live      one page of the live book in headless Chromium on the host, served by
#                         the container (.ci/testtools/cmd/livecheck): every cell of it runs in the
#                         page's Go interpreter, offline, and prints what the kernel printed

livebook_dir=/usr/local/share/sod-workbench/book # where the image installs the book (Dockerfile)
livebook_page=00-welcome                         # the page the checks open (its cells are cheap)

# livebook_get PATH TOKEN: GET /sod-book/PATH with the token; prints the status, size and content
# type; the body is in $tmp/body, the headers in $tmp/headers.
livebook_get() {
  curl -s -o "$tmp/body" -D "$tmp/headers" -w '%{http_code} %{size_download} %{content_type}' --max-time 60 \
    -H "Authorization: token $2" "http://127.0.0.1:$port/sod-book/$1" || true
}

# is_wasm FILE: the file is a WebAssembly module (magic \0asm, version 1), or the gzip of one.
is_wasm() {
  local magic
  if [ "$(head -c 2 "$1" | od -An -tx1 | tr -d ' \n')" = 1f8b ]; then
    magic=$(gzip -dc "$1" 2>/dev/null | head -c 8 | od -An -tx1 | tr -d ' \n' || true)
  else
    magic=$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')
  fi
  [ "$magic" = 0061736d01000000 ]
}

run_livebook() {
  local name=sod-test-livebook-$$ token code got size f wasm
  containers+=("$name")
  token=$(random_token)
  show $engine run -d --name "$name" -p "127.0.0.1:$port:8888" -e JUPYTER_TOKEN="$token" "$image" >/dev/null
  wait_api || {
    $engine logs "$name" | tail -20
    die "the server did not answer on port $port"
  }
  got=$(livebook_get "" "$token")
  [ "${got%% *}" = 200 ] && grep -q "$livebook_page.html" "$tmp/body" || die "/sod-book/ (the live book's index): $got"
  code=$(http_code "http://127.0.0.1:$port/sod-book/")
  [ "$code" = 403 ] || [ "$code" = 401 ] || [ "$code" = 302 ] || die "/sod-book/ without the token answered HTTP $code"
  code=$(http_code "http://127.0.0.1:$port/sod-book/$livebook_page.html" -H "Authorization: token wrong-$token")
  [ "$code" = 403 ] || [ "$code" = 401 ] || [ "$code" = 302 ] || die "/sod-book/ with a wrong token answered HTTP $code"
  say "  /sod-book/ without a token or with a wrong one: refused (HTTP $code)"

  got=$(livebook_get "$livebook_page.html" "$token")
  [ "${got%% *}" = 200 ] || die "/sod-book/$livebook_page.html: $got"
  grep -q '<script src="live/live.js">' "$tmp/body" || die "/sod-book/$livebook_page.html does not load the live runtime (live/live.js): a frozen page"
  grep -q 'id="sodlive-cells"' "$tmp/body" || die "/sod-book/$livebook_page.html carries no cell sources"
  if grep -Eio '<script[^>]+src="(https?:)?//[^"]*"' "$tmp/body" | head -3 | grep .; then
    die "/sod-book/$livebook_page.html loads a script from another host (above): the image's copy must serve it"
  fi
  if grep -i '^content-security-policy:.*sandbox' "$tmp/headers"; then
    die "/sod-book/ pages are sandboxed as /files/ (above): the page can start no worker"
  fi
  wasm=$(sed -n 's/.*id="sodlive-cells">{"wasm":"\([^"]*\)".*/\1/p' "$tmp/body" | head -1)
  say "  /sod-book/$livebook_page.html: ${got#* } (live runtime, cells, interpreter ${wasm:-?}, no script from another host, not sandboxed)"

  for f in live.js worker.js wasm_exec.js memfs.js manifest.json echarts.min.js; do
    got=$(livebook_get "live/$f" "$token")
    size=$(echo "$got" | cut -d' ' -f2)
    [ "${got%% *}" = 200 ] && [ "${size:-0}" -gt 0 ] || die "/sod-book/live/$f: $got"
    say "  live/$f: ${got#* }"
  done
  # Both interpreters, as the files the pages name (sodlive.wasm, or precompressed .wasm.gz).
  for f in sodlive.wasm sodlive-plots.wasm; do
    got=$(livebook_get "live/$f" "$token")
    if [ "${got%% *}" != 200 ]; then
      got=$(livebook_get "live/$f.gz" "$token")
      f=$f.gz
    fi
    size=$(echo "$got" | cut -d' ' -f2)
    [ "${got%% *}" = 200 ] && [ "${size:-0}" -gt 0 ] || die "/sod-book/live/$f: $got"
    is_wasm "$tmp/body" || die "/sod-book/live/$f is not a WebAssembly module (nor the gzip of one): $(head -c 16 "$tmp/body" | od -An -tx1)"
    say "  live/$f: ${got#* }, a WebAssembly module"
  done

  # Only the image's own files are served outside the /files/ sandbox: the book's folder is root's,
  # the notebook user can write nothing into it, and a page written through the contents API (as
  # Lab's upload does) is refused and not served.
  $engine exec "$name" sh -c "test ! -O $livebook_dir && test ! -w $livebook_dir && test ! -w $livebook_dir/live" ||
    die "the live book's folder $livebook_dir is the notebook user's or writable by it"
  if $engine exec "$name" sh -c "touch $livebook_dir/mine.html $livebook_dir/live/live.js" 2>/dev/null; then
    die "the notebook user could write into the live book's folder $livebook_dir"
  fi
  code=$(http_code "http://127.0.0.1:$port/api/contents/notebooks/book/mine.html" -X PUT -H "Authorization: token $token" \
    -H 'Content-Type: application/json' -d '{"type": "file", "format": "text", "content": "<script>alert(1)</script>"}')
  case "$code" in 2*) die "a page was written into the live book through the contents API (HTTP $code)" ;; esac
  got=$(livebook_get mine.html "$token")
  [ "${got%% *}" = 404 ] || die "/sod-book/mine.html after an upload: $got"
  say "  the book's folder is read-only for the user: touch refused, an upload through the API refused (HTTP $code), nothing served"
  $engine rm -f "$name" >/dev/null 2>&1

  # The interpreter's modules are in the image's module cache: its packages load without network
  # (go list -deps reads every package's source), for js/wasm with and without the plots tag, and
  # the command that makes the pages live.
  show $engine run --rm --network none -w /home/jovyan/livebook "$image" sh -c \
    'export GOPROXY=off GOFLAGS=-mod=readonly; GOOS=js GOARCH=wasm go list -deps ./cmd/sodlive >/dev/null &&
      GOOS=js GOARCH=wasm go list -deps -tags sodlive_plots ./cmd/sodlive >/dev/null && go list -deps ./cmd/livebook >/dev/null' ||
    die "the live book's interpreter cannot be built offline in the image: a module is missing from its module cache"
  say "  the interpreter's modules (livebook/cmd/sodlive for js/wasm, with and without plots; cmd/livebook) load offline"
}

run_browser_live() {
  local name=sod-test-livebrowser-$$ token out=$artifacts/livebook
  containers+=("$name")
  mkdir -p "$out"
  token=$(random_token)
  show $engine run -d --name "$name" -p "127.0.0.1:$port:8888" -e JUPYTER_TOKEN="$token" "$image" >/dev/null
  wait_api || die "the server for the live book's browser test did not answer"
  # The kernel's outputs to compare with: the executed notebook of the image's book.
  $engine cp "$name:$livebook_dir/ipynb/$livebook_page.ipynb" "$out/$livebook_page.ipynb" ||
    die "the image's book has no executed notebook ipynb/$livebook_page.ipynb"
  if ! (cd "$repo/.ci/testtools" && PATH="$PATH:/usr/local/go/bin" JUPYTER_TOKEN=$token show go run ./cmd/livecheck \
    -url "http://127.0.0.1:$port" -page "$livebook_page" -kernel "$out/$livebook_page.ipynb" -shot "$out/$livebook_page.png") |
    tee "$out/livecheck.txt"; then
    $engine logs "$name" 2>&1 | tail -40 >"$out/server.log"
    die "the live book's page $livebook_page did not run in the browser (see $out/livecheck.txt, $out/server.log)"
  fi
  $engine rm -f "$name" >/dev/null 2>&1
}
