# shellcheck shell=bash
# docker/image-test/notebooks.sh — part of docker/test-image.sh (sourced): notebooks in the image.
#
#   run_smoke          docker/smoke.ipynb with nbconvert in a container without network; the Go
#                      build cache is warm for every package the notebooks import
#                      (docker/compile-check.sh compiles none)
#   run_own_notebooks  the same notebook from a host folder mounted at ~/notebooks/work (the
#                      README's route for your own notebooks)
#   run_more_notebooks the notebooks of --notebooks, without network, as the notebook harness runs them
#   run_latency        each notebook's first code cell through the server's API with a fresh
#                      kernel (scripts/kernel_check.py), timed from opening it: at most
#                      max_first_cell_s seconds

nbconvert_args=(jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=600 --output-dir /tmp/out)

check_notebook() { # check_notebook FILE [WANT...]: no error output, no failed ! line, WANTs printed
  python3 - "$@" <<'PY'
import json, re, sys
nb = json.load(open(sys.argv[1]))
text, errors = "", []
for c in nb["cells"]:
    for o in c.get("outputs", []):
        if o.get("output_type") == "error":
            errors.append(o.get("ename", "") + ": " + o.get("evalue", "")[:300])
        t = o.get("text", "")
        t = "".join(t) if isinstance(t, list) else t
        m = re.search(r"(?m)^exit status ([1-9][0-9]*)\s*$", t)
        if m:
            errors.append("a ! command failed: " + t.strip()[-300:])
        text += t
if len(sys.argv) > 2:
    print("  cell output: " + " | ".join(text.strip().splitlines()))
if errors:
    sys.exit("notebook errors: " + "; ".join(errors))
for want in sys.argv[2:]:
    if want not in text:
        sys.exit("missing in the notebook's output: " + want)
PY
}

check_smoke() { check_notebook "$1" "eigenvalues: [1.000000 3.000000]" go1.26 "smoke test: ok"; }

run_smoke() {
  local name=sod-test-nb-$$ t0
  containers+=("$name")
  t0=$(date +%s)
  # No network: the image must hold everything a notebook needs (modules, build cache, assets).
  show $engine run --name "$name" --network none -w /home/jovyan/docker "$image" \
    "${nbconvert_args[@]}" smoke.ipynb
  say "smoke notebook executed in $(($(date +%s) - t0)) s (container start, kernel start, first cells)"
  $engine cp "$name:/tmp/out/smoke.ipynb" "$tmp/smoke.out.ipynb"
  check_smoke "$tmp/smoke.out.ipynb"
  # The warm build cache covers what the notebooks import: a program importing every package the
  # notebooks' cells import builds without compiling any of them (docker/compile-check.sh).
  local compiled pkgs
  pkgs=$($engine run --rm --network none -w /home/jovyan "$image" \
    sh -c 'python3 scripts/kernel_check.py --imports notebooks/[0-9]*.ipynb') || die "could not list the notebooks' imports in the image"
  compiled=$($engine run --rm -i --network none -e "PKGS=$pkgs" -e MODULE=/home/jovyan "$image" \
    bash -s <"$repo/docker/compile-check.sh") || die "could not build the notebooks' packages in the image"
  compiled=$(sed -n 's/^compiled: //p' <<<"$compiled")
  [ -z "$compiled" ] || die "the image's Go build cache is not warm for: $(echo $compiled)"
  say "  build cache: warm for every package the notebooks import (nothing compiled)"
}

run_own_notebooks() {
  local name=sod-test-own-$$ own=$tmp/own
  containers+=("$name")
  mkdir -p "$own"
  cp "$repo/docker/smoke.ipynb" "$own/mine.ipynb"
  chmod -R a+rwX "$own"
  # The README's route for your own notebooks: mount a folder at ~/notebooks/work.
  show $engine run --name "$name" --network none -v "$own:/home/jovyan/notebooks/work" \
    -w /home/jovyan/notebooks/work "$image" "${nbconvert_args[@]}" mine.ipynb
  $engine cp "$name:/tmp/out/mine.ipynb" "$tmp/mine.out.ipynb"
  check_smoke "$tmp/mine.out.ipynb"
}

run_more_notebooks() {
  local list=$opt_notebooks nb name i=0 t0
  if [ "$list" = all ]; then
    list=$(cd "$repo" && git ls-files 'notebooks/*.ipynb' | tr '\n' ' ')
  fi
  for nb in $list; do
    i=$((i + 1))
    name=sod-test-more-$$-$i
    containers+=("$name")
    t0=$(date +%s)
    # As the notebook harness does: cells tagged live-only need a browser and are left out.
    show $engine run --name "$name" --network none -w "/home/jovyan/$(dirname "$nb")" "$image" \
      "${nbconvert_args[@]}" --TagRemovePreprocessor.enabled=True \
      --TagRemovePreprocessor.remove_cell_tags=live-only "$(basename "$nb")" ||
      die "$nb failed in the image"
    $engine cp "$name:/tmp/out/$(basename "$nb")" "$tmp/more.ipynb"
    check_notebook "$tmp/more.ipynb" || die "$nb: errors in the executed notebook"
    say "  $nb: ok in $(($(date +%s) - t0)) s"
  done
}

# The first-cell latency: for each notebook, a fresh kernel (a new session, as when a student opens
# it), and in it the notebook's cells up to its first cell that runs code (scripts/kernel_check.py),
# timed from the session request (kernel start, go.mod set-up, compiling and running that cell). One
# container serves them all: a server started once instead of once per notebook (the server's start
# is not part of the latency); each notebook's kernel is new and shut down after it.
run_latency() {
  local nbs name=sod-test-latency-$$ token out line max=$max_first_cell_s slow=() i ok=0
  containers+=("$name")
  token=$(random_token)
  $engine run -d --name "$name" --network none -e JUPYTER_TOKEN="$token" "$image" >/dev/null
  for i in $(seq 1 90); do
    if $engine exec "$name" sod-healthcheck >/dev/null 2>&1; then ok=1; break; fi
    sleep 1
  done
  [ $ok = 1 ] || die "the server in $name did not answer"
  nbs=$($engine exec "$name" sh -c 'cd ~/notebooks && ls [0-9]*.ipynb' | tr '\n' ' ')
  # shellcheck disable=SC2086
  out=$($engine exec -i "$name" python3 - http://127.0.0.1:8888 "$token" $nbs <"$repo/scripts/kernel_check.py") ||
    die "the notebooks' first cells did not all run through the server: $out"
  while IFS= read -r line; do
    say "$line"
    # "  first-cell latency NN-name.ipynb   N.N s from opening it; ..."
    if awk -v l="$line" -v m="$max" 'BEGIN { split(l, a, " s from opening"); n = split(a[1], b, " "); exit !(b[n] + 0 > m) }'; then
      slow+=("$(awk '{ print $3 }' <<<"$line")")
    fi
  done <<<"$out"
  [ "$(grep -c 'first-cell latency' <<<"$out")" = "$(wc -w <<<"$nbs")" ] || die "first-cell latencies: $(grep -c 'first-cell latency' <<<"$out") lines for the notebooks $nbs"
  $engine rm -f "$name" >/dev/null 2>&1
  [ ${#slow[@]} = 0 ] || die "first cell slower than $max s: ${slow[*]}"
}
