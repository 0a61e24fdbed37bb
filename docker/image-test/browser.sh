# shellcheck shell=bash
# docker/image-test/browser.sh — part of docker/test-image.sh (sourced): the notebooks in
# JupyterLab in headless Chromium on the host (labcheck, .ci/testtools/cmd/labcheck).
#
#   browser_missing     why the browser test cannot run here (no Go, no Chromium), or nothing
#   run_browser         every notebook (or those of --browser-notebooks) run in Lab as a student
#                       would: the charts draw, the sliders redraw their charts, live and after
#                       reopening the saved notebook; screenshots in $artifacts
#   run_browser_prefix  the notebooks with sliders again, Lab served under /user/student/ (as
#                       behind JupyterHub); saved and reopened there when the run at / left them out

# The reason the browser test cannot run on this host, or nothing.
browser_missing() {
  [ "$opt_browser" = 0 ] && { echo "--no-browser"; return; }
  command -v go >/dev/null || [ -x /usr/local/go/bin/go ] || { echo "no Go on this host (scripts/install.sh)"; return; }
  local b
  for b in ${SOD_CHROMIUM:-} chromium chromium-browser google-chrome; do
    command -v "$b" >/dev/null && return
  done
  echo "no Chromium on this host (scripts/install.sh --with-browser)"
}

# labcheck_in_container NAME PREFIX OUT LABCHECK-ARGS...: the image's own command in a fresh
# container (Lab's application object exposed for the test to drive it, served under PREFIX/),
# then labcheck (.ci/testtools/cmd/labcheck) on it. A failed check is tried again in another
# fresh container (browser_retries times): the failure, its server log and its screenshot
# (NN-name-failed.png) are kept and printed, and the summary says the step passed only on a
# second attempt. A failure that repeats fails the test.
browser_retried=()
labcheck_in_container() {
  local name=$1 prefix=$2 out=$3 token attempt tries=$((browser_retries + 1)) cfg=()
  shift 3
  [ -z "$prefix" ] || cfg=(--ServerApp.base_url="$prefix/")
  for attempt in $(seq "$tries"); do
    containers+=("$name-$attempt")
    token=$(random_token)
    show $engine run -d --name "$name-$attempt" -p "127.0.0.1:$port:8888" -e JUPYTER_TOKEN="$token" "$image" \
      sod-notebook --LabApp.expose_app_in_browser=True "${cfg[@]}" >/dev/null
    wait_api "$prefix" || {
      $engine logs "$name-$attempt" 2>&1 | tail -20
      die "the server for the browser test did not answer${prefix:+ under $prefix/}"
    }
    if [ "$#" = 0 ]; then # every notebook in the image
      set -- $($engine exec "$name-$attempt" sh -c 'cd ~/notebooks && ls [0-9]*.ipynb' | tr '\n' ' ')
      say "  notebooks: $*"
    fi
    if (cd "$repo/.ci/testtools" && PATH="$PATH:/usr/local/go/bin" JUPYTER_TOKEN=$token show go run ./cmd/labcheck \
      -url "http://127.0.0.1:$port$prefix" -shots "$out" "$@") | tee "$out/labcheck-$attempt.txt"; then
      $engine rm -f "$name-$attempt" >/dev/null 2>&1
      [ "$attempt" = 1 ] || browser_retried+=("${prefix:-/}: failed on attempt 1 ($out/labcheck-1.txt, $out/server-1.log), passed on attempt $attempt")
      return 0
    fi
    $engine logs "$name-$attempt" 2>&1 | tail -60 >"$out/server-$attempt.log"
    $engine rm -f "$name-$attempt" >/dev/null 2>&1
    say "  the browser test${prefix:+ under $prefix/} FAILED on attempt $attempt of $tries: $(grep '^FAIL' "$out/labcheck-$attempt.txt" | head -3 | tr '\n' ' ')(server log: $out/server-$attempt.log)"
    [ "$attempt" = "$tries" ] || say "  trying once more in a fresh container; the failure above stays in this log and in the summary"
  done
  die "the browser test${prefix:+ under the base URL $prefix/} failed $tries times (see $out/labcheck-*.txt, $out/server-*.log)"
}

run_browser() {
  local out=$artifacts
  rm -rf "$out" && mkdir -p "$out"
  say "  screenshots: $out"
  # shellcheck disable=SC2086
  labcheck_in_container sod-test-lab-$$ "" "$out" $opt_browser_notebooks
}

# The sliders under a base URL, as behind JupyterHub (/user/NAME/): GoNB's widget script opens its
# websocket without the base URL, which widgets.Explore corrects (widgets/explore.go). The notebooks
# with live-only cells (the sliders) run in Lab served under /user/student/.
# Where the run at / left every one of them out (--browser-notebooks, as the CI profile does), they
# get the whole check here, saved and reopened too: each notebook runs in Lab once.
run_browser_prefix() {
  local nbs nb out=$artifacts/base-url reopen=-reopen=true
  nbs=$(cd "$repo/notebooks" && grep -l '"live-only"' [0-9]*.ipynb | tr '\n' ' ')
  [ -n "$nbs" ] || { say "  no notebook has live-only cells (sliders)"; return 0; }
  for nb in $nbs; do
    case " ${opt_browser_notebooks:-$nbs} " in *" $nb "*) reopen=-reopen=false ;; esac
  done
  mkdir -p "$out"
  say "  notebooks with sliders: $nbs ($reopen: $([ "$reopen" = -reopen=true ] && echo "not run at /, so saved and reopened here" || echo "saved and reopened at /"); screenshots: $out)"
  # shellcheck disable=SC2086
  labcheck_in_container sod-test-lab-prefix-$$ /user/student "$out" $reopen $nbs
}
