#!/usr/bin/env bash
# scripts/book.sh — execute every notebook and export a static HTML "book" of the paper.
#
#   scripts/book.sh [-o DIR] [--check|--no-check] [--notebooks DIR] [--executed DIR] [REGEXP]
#
# Executes notebooks/[0-9]*.ipynb (or those whose file name matches REGEXP) from scratch with
# nbconvert and the gonb kernel, exactly as the test harness does (cells tagged "live-only" are
# removed), and writes into DIR (default out/book/, git-ignored):
#
#   index.html          a table of contents linking every notebook (status, time, the paper's
#                       figures it covers) and a map from each figure of the paper to notebooks
#   NN-name.html        the executed notebook as HTML
#   ipynb/NN-name.ipynb the executed notebook
#   REPRODUCTION.html   the reproduction report, notebooks/REPRODUCTION.md (`reproduce report`)
#   mathjax/            a copy of Debian's MathJax 2 (libjs-mathjax), so equations render offline
#   live/               the live book (livebook): a Go interpreter compiled to WebAssembly that
#                       runs every code cell in the page, editable, from any static server, offline
#                       (open a page with ?run=all to run every cell on load); --no-live skips it
#
# Charts work offline: the widgets inline ECharts into every notebook's output (no CDN). With
# Chromium installed (--check, the default when it is found) every exported page is loaded in
# headless Chromium with all network names unresolvable, and each chart must have been drawn
# (ECharts initialised its container); the index shows "drawn/charts" per notebook.
# A notebook with a cell error, a failed `!` line or no output at all is still exported, marked
# FAILED in the index, and makes the script exit 1. SOD_NOTEBOOK_TIMEOUT (seconds, default 600)
# limits a cell; --notebooks DIR takes the notebooks from another folder (default notebooks/).
# --executed DIR takes the executed notebooks from DIR instead of executing them again: the test
# harness's copies (SOD_NOTEBOOK_OUT of .ci/testtools/notebookcheck, executed by the same nbconvert
# command), as scripts/test.sh does; a notebook missing there is FAILED.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$repo/out/book
match=.
check=auto
live=yes
nbdir=$repo/notebooks
executed=
while [ $# -gt 0 ]; do
  case "$1" in
  --no-check) check=no; shift ;;
  --check) check=yes; shift ;;
  --no-live) live=no; shift ;;
  -o) out=$2; shift 2 ;;
  --notebooks) nbdir=$2; shift 2 ;;
  --executed) executed=$2; shift 2 ;;
  -o*) out=${1#-o}; shift ;;
  -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  *) match=$1; shift ;;
  esac
done
timeout=${SOD_NOTEBOOK_TIMEOUT:-600}

command -v jupyter >/dev/null || {
  echo "book.sh: jupyter not found. Run scripts/install.sh first (see README)." >&2
  exit 1
}
# gonb and goimports live where scripts/install.sh put them.
export PATH="${SOD_BIN:-$HOME/.local/bin}:/usr/local/bin:/usr/local/go/bin:$PATH"
export PYDEVD_DISABLE_FILE_VALIDATION=1
kernels=$(jupyter kernelspec list 2>/dev/null || true)
grep -qw gonb <<<"$kernels" || {
  echo "book.sh: the gonb kernel is not installed. Run scripts/install.sh --user first." >&2
  exit 1
}
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3 # Debian's, next to its Jupyter

browser=
if [ "$check" != no ]; then
  for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null; then browser=$b; break; fi
  done
  if [ -z "$browser" ] && [ "$check" = yes ]; then
    echo "book.sh: --check needs chromium (scripts/install.sh --with-browser)" >&2
    exit 1
  fi
fi

# charts FILE prints "drawn/total" for an exported page: the charts (widgets' <div class="sodw">)
# and how many of them ECharts initialised in headless Chromium, offline.
charts() {
  local dom profile
  profile=$(mktemp -d)
  dom=$("$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$profile" --window-size=1200,3000 \
    --virtual-time-budget=15000 --dump-dom "file://$1" 2>/dev/null || true)
  rm -rf "$profile"
  printf '%d/%d' "$(grep -o '_echarts_instance_="' <<<"$dom" | wc -l)" "$(grep -o 'class="sodw"' <<<"$dom" | wc -l)"
}

mkdir -p "$out/ipynb"
out=$(cd "$out" && pwd)

# MathJax for offline equations: copy Debian's (without the unpacked sources and tests).
mathjax=()
mj=/usr/share/javascript/mathjax
if [ -f "$mj/MathJax.js" ]; then
  if [ ! -f "$out/mathjax/MathJax.js" ]; then
    mkdir -p "$out/mathjax"
    for d in "$mj"/*; do
      case "$(basename "$d")" in unpacked | test) continue ;; esac
      cp -rL "$d" "$out/mathjax/"
    done
  fi
  mathjax=("--HTMLExporter.mathjax_url=mathjax/MathJax.js?config=TeX-AMS_CHTML-full,Safe")
else
  echo "book.sh: $mj not found (Debian package libjs-mathjax): equations will load MathJax from a CDN" >&2
fi

status=$out/.status.tsv
: >"$status"
failed=0
t0=$(date +%s)
nbdir=$(cd "$nbdir" && pwd)
[ -z "$executed" ] || executed=$(cd "$executed" && pwd)
cd "$nbdir"
for nb in [0-9]*.ipynb; do
  name=${nb%.ipynb}
  echo "$nb" | grep -Eq -- "$match" || continue
  start=$(date +%s)
  state=ok
  # 1. execute (the kernel starts in notebooks/, as in Jupyter and the harness), or take the
  #    harness's executed copy
  if [ -n "$executed" ]; then
    if ! cp "$executed/$nb" "$out/ipynb/$nb" 2>"$out/ipynb/$name.log"; then
      state=FAILED
      echo "$nb: no executed copy in $executed" >&2
    fi
  elif ! jupyter nbconvert --to notebook --execute --allow-errors \
    --ExecutePreprocessor.kernel_name=gonb \
    --ExecutePreprocessor.timeout="$timeout" \
    --TagRemovePreprocessor.enabled=True \
    --TagRemovePreprocessor.remove_cell_tags=live-only \
    --output-dir "$out/ipynb" --output "$name" "$nb" >"$out/ipynb/$name.log" 2>&1; then
    state=FAILED
    tail -5 "$out/ipynb/$name.log" >&2
  fi
  # 2. check for cell errors and failed `!` lines (GoNB prints "exit status N")
  if [ -f "$out/ipynb/$nb" ]; then
    if ! problems=$("$py" - "$out/ipynb/$nb" <<'EOF'
import json, re, sys
nb = json.load(open(sys.argv[1]))
bad = []
for i, c in enumerate(nb["cells"]):
    for o in c.get("outputs", []):
        if o.get("output_type") == "error":
            bad.append("cell %d: %s: %s" % (i, o.get("ename"), o.get("evalue", "")[:200]))
        elif o.get("output_type") == "stream":
            text = "".join(o.get("text", ""))
            m = re.search(r"(?m)^exit status ([0-9]+)\s*$", text)
            if m and m.group(1) != "0":
                bad.append("cell %d: a command failed (%s)" % (i, m.group(0).strip()))
if not any(c.get("outputs") for c in nb["cells"]):
    bad.append("the notebook produced no output at all")
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
    ); then
      state=FAILED
      echo "$problems" >&2
    fi
    # 3. export to HTML
    jupyter nbconvert --to html "${mathjax[@]}" --output-dir "$out" --output "$name" "$out/ipynb/$nb" >>"$out/ipynb/$name.log" 2>&1 || state=FAILED
  else
    state=FAILED
  fi
  # 4. every chart drawn in Chromium?
  drawn=-
  if [ -n "$browser" ] && [ -f "$out/$name.html" ]; then
    drawn=$(charts "$out/$name.html")
    if [ "${drawn%/*}" != "${drawn#*/}" ]; then
      state=FAILED
      echo "$nb: only $drawn charts drawn in $browser" >&2
    fi
  fi
  secs=$(($(date +%s) - start))
  [ "$state" = ok ] || failed=$((failed + 1))
  printf '%-6s %-45s %4ds  charts %s\n' "$state" "$nb" "$secs" "$drawn"
  printf '%s\t%s\t%s\t%s\n' "$nb" "$state" "$secs" "$drawn" >>"$status"
done

# 5. the reproduction report (notebooks/REPRODUCTION.md, generated by `reproduce report`) as a page of
#    the book: rendered by nbconvert's own Markdown as a one-cell notebook, its notebook links
#    pointing at the exported pages
report=failed
if [ -f "$repo/notebooks/REPRODUCTION.md" ]; then
  if "$py" - "$repo/notebooks/REPRODUCTION.md" "$out/ipynb/REPRODUCTION.ipynb" <<'EOF2'
import json, re, sys
text = open(sys.argv[1], encoding="utf-8").read()
text = re.sub(r"\]\((\d\d-[^)]+)\.ipynb\)", r"](\1.html)", text)
nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": text.splitlines(True)}],
      "metadata": {"title": "Reproduction report"}, "nbformat": 4, "nbformat_minor": 5}
json.dump(nb, open(sys.argv[2], "w", encoding="utf-8"), ensure_ascii=False, indent=1)
EOF2
  then
    jupyter nbconvert --to html "${mathjax[@]}" --output-dir "$out" --output REPRODUCTION \
      "$out/ipynb/REPRODUCTION.ipynb" >"$out/ipynb/REPRODUCTION.log" 2>&1 && report=ok
  fi
fi
if [ "$report" = ok ]; then
  echo "ok     REPRODUCTION.md -> REPRODUCTION.html"
else
  echo "FAILED REPRODUCTION.md (see $out/ipynb/REPRODUCTION.log)" >&2
  failed=$((failed + 1))
fi
# 6. the live book: the interpreter (livebook/cmd/sodlive) built for WebAssembly, the page
#    runtime, ECharts, and every exported notebook page made editable and runnable
if [ "$live" = yes ]; then
  #    (two interpreters: the one with gonum/plot's static figures only for the pages that use them)
  if (cd "$repo/livebook" && export GOOS=js GOARCH=wasm &&
    go build -trimpath -ldflags="-s -w" -o "$out/ipynb/sodlive.wasm" ./cmd/sodlive &&
    go build -trimpath -ldflags="-s -w" -tags sodlive_plots -o "$out/ipynb/sodlive-plots.wasm" ./cmd/sodlive &&
    unset GOOS GOARCH && go run ./cmd/livebook -book "$out" -wasm "$out/ipynb/sodlive.wasm" \
      -wasm-plots "$out/ipynb/sodlive-plots.wasm" -known known.json -notebooks "$nbdir") >"$out/ipynb/live.log" 2>&1; then
    echo "ok     live book: $(tail -1 "$out/ipynb/live.log")"
    rm -f "$out/ipynb/sodlive.wasm" "$out/ipynb/sodlive-plots.wasm"
  else
    echo "FAILED live book (see $out/ipynb/live.log)" >&2
    tail -5 "$out/ipynb/live.log" >&2
    failed=$((failed + 1))
  fi
fi
total=$(($(date +%s) - t0))

# 7. the index: one line per notebook, titled by its first Markdown heading, with the paper's
#    figures and tables its opening cell names (e.g. Fig. `exp2`), and a figure-to-notebook map
"$py" - "$nbdir" "$status" "$total" >"$out/index.html" <<'EOF'
import html, json, os, re, sys, datetime
nbdir, status, total = sys.argv[1], sys.argv[2], int(sys.argv[3])
# The paper's figures (their LaTeX labels) and its ablation table.
figures = ["taxonomy", "basic_example", "matrix_tensor", "r1_r2", "simulation", "quadratic_funcs", "sod-escape",
           "ablation", "exp2", "exp3", "numerical_study", "quadratic_nn"]
rows, where = [], {}
for line in open(status):
    nb, state, secs, drawn = line.rstrip("\n").split("\t")
    name = nb[:-len(".ipynb")]
    title, intro = nb, ""
    try:
        cells = [c for c in json.load(open(os.path.join(nbdir, nb)))["cells"] if c["cell_type"] == "markdown"]
        intro = "".join(cells[0]["source"]) if cells else ""
        m = re.search(r"(?m)^#\s+(.*)$", intro)
        if m:
            title = m.group(1).strip()
    except Exception:
        pass
    covers = []
    for f in figures:
        if re.search(r"(Figs?\.|Figures?)[^.;\n]*?`%s`" % re.escape(f), intro):
            covers.append("Fig. " + f)
            where.setdefault("Fig. " + f, []).append(name)
    if re.search(r"Table `ablation`", intro, re.I):
        covers.append("table ablation")
        where.setdefault("table ablation", []).append(name)
    rows.append('<tr><td><a href="%s.html">%s</a></td><td>%s</td><td class="%s">%s</td><td>%s s</td><td>%s</td><td><a href="ipynb/%s">ipynb</a></td></tr>'
                % (html.escape(name), html.escape(title), html.escape(", ".join(covers)), "ok" if state == "ok" else "bad", state, secs, drawn, html.escape(nb)))
figrows = []
for f in ["Fig. " + x for x in figures] + ["table ablation"]:
    links = ", ".join('<a href="%s.html">%s</a>' % (html.escape(n), html.escape(n)) for n in where.get(f, []))
    figrows.append("<tr><td>%s</td><td>%s</td></tr>" % (html.escape(f), links or "—"))
print("""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>SOD Workbench — the book</title>
<style>body{font-family:sans-serif;max-width:64em;margin:2em auto;line-height:1.5}
td,th{padding:.2em 1em .2em 0;vertical-align:top;text-align:left}.ok{color:#2a7}.bad{color:#c22;font-weight:bold}</style></head><body>
<h1>SOD Workbench — the book</h1>
<p>The notebooks of the SOD Workbench, executed from scratch and exported to HTML: the figures and tables of
<em>Escaping Local Minima Provably in Non-convex Matrix Sensing: A Deterministic Framework via Simulated Lifting</em>
as computed by the <code>sod</code> library, with the findings of the project's independent check shown where they arise.
<a href="REPRODUCTION.html">The reproduction report</a> sets every value the paper prints beside the workbench's, with the
conventions assumed and where the paper does not hold.
Charts and equations work offline. Every code cell can be edited and run in the page: a Go interpreter
compiled to WebAssembly runs it in the browser, with the workbench's packages built in (nothing is installed
and nothing leaves the page; open a notebook with <code>?run=all</code> to run all its cells).</p>
<h2>Notebooks</h2>
<table><tr><th>notebook</th><th>paper figures and tables</th><th>status</th><th>time</th><th>charts drawn (Chromium, offline)</th><th></th></tr>
%s</table>
<h2>Where is each figure of the paper?</h2>
<p>As named in each notebook's opening cell (figures that are schematics in the paper, like <code>taxonomy</code> and
<code>sod-escape</code>, have no computed counterpart).</p>
<table>%s</table>
<p>Built %s UTC by <code>scripts/book.sh</code> in %d s.</p>
</body></html>""" % ("\n".join(rows), "\n".join(figrows), datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M"), total))
EOF
rm -f "$status"
echo "book: $out/index.html ($total s)"
[ "$failed" = 0 ] || {
  echo "book.sh: $failed notebook(s) failed" >&2
  exit 1
}
