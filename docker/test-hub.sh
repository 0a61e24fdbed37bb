#!/usr/bin/env bash
# docker/test-hub.sh — build the classroom hub (docker/hub/) and test it with three students.
#
#   docker/test-hub.sh               (from anywhere in the repository; podman, no registry needed)
#
# 1. the workbench image ($SOD_IMAGE, default sod-workbench): used if present, else built and
#    smoke-tested by docker/test-image.sh; then the hub image, FROM it (docker/hub/Dockerfile);
#    its shared read-only Go build cache must hold every package of the workbench and every
#    package the notebooks import (a student's build of them compiles none)
# 2. the config refuses the test-only authenticator without SOD_HUB_TEST=1 (and the hub starts
#    with it when the flag is set)
# 3. three students are added (sod-hub-user, PAM passwords) and the hub started in a container
#    (host network, 127.0.0.1 and random ports, volumes for the hub's state and the homes);
#    docker/hub/hub_check.py then, through the REST APIs: logs each student in with their
#    password, starts their servers, runs a Go cell using the workbench in each (which has no
#    capability and can gain none: /proc/self/status's capability sets empty and NoNewPrivs 1;
#    it cannot read B's home or the instructor's notebooks, nor write the shared build cache),
#    saves an edited notebook, and proves that A's token is refused on B's server and files, and that requests
#    without a token (or with a made-up one) are refused
#    3b. limits per student: A's memory hog fails in A's server; B's kernel keeps running cells
# 4. the hub's container is removed and a new one started on the same volumes: the tokens, the
#    servers and each student's work (file, edited notebook) are still there
# 5. culling: an idle kernel is shut down, then the idle server stops (short times for the test)
# 6. the workbench image run as Zero to JupyterHub's spawner would (z2jh-values.yaml's
#    singleuser.cmd, JupyterHub's environment variables): it serves under its prefix, refuses
#    requests without a token and passes its health check
# 7. SOD_HUB_LOAD="5 10 20": the capacity test, K students at once open a notebook and run its
#    cells (per-cell latency median/p95, memory per student); off by default (several minutes);
#    SOD_HUB_LOAD_ONLY=1 runs only this step
#
# It prints a table of its checks and exits 1 if any failed. Every wait is bounded.
# Environment (scripts/environment.md): SOD_ENGINE, SOD_IMAGE, SOD_HUB_IMAGE (sod-hub), SOD_KEEP=1
# (keep containers and volumes), SOD_HUB_LOAD, SOD_HUB_LOAD_NOTEBOOK (00-welcome.ipynb),
# SOD_APT_MIRROR, SOD_GOPROXY, SOD_BUILD_CA (as for docker/test-image.sh),
# CONTAINERS_CONF (podman; a file of the script's own if unset, as docker/test-image.sh does).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
image=${SOD_IMAGE:-sod-workbench}
hub_image=${SOD_HUB_IMAGE:-sod-hub}
state=${XDG_CACHE_HOME:-$HOME/.cache}/sod-workbench/test-hub
mkdir -p "$state"
t_start=$(date +%s)
tag=$$
name=sod-hub-test-$tag
vol_state=sod-hub-test-state-$tag
vol_homes=sod-hub-test-homes-$tag
results=()
failed=0

lib_name=test-hub
# shellcheck source=scripts/lib.sh
. "$repo/scripts/lib.sh"
record() { # record NAME ok|FAIL DETAIL
  results+=("$(printf '%-62s %-4s %s' "$1" "$2" "$3")")
  [ "$2" = ok ] || failed=1
  printf '[test-hub] %-4s %s  %s\n' "$2" "$1" "$3"
}
cleanup() {
  if [ "${SOD_KEEP:-0}" != 1 ]; then
    $engine rm -f -t 2 "$name" "$name-auth" "$name-su" >/dev/null 2>&1 || true
    $engine volume rm -f "$vol_state" "$vol_homes" >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT

engine=${SOD_ENGINE:-}
if [ -z "$engine" ]; then
  if command -v docker >/dev/null && docker info >/dev/null 2>&1; then engine=docker
  elif command -v podman >/dev/null; then engine=podman
  else die "neither a working docker nor podman found: apt-get install podman runc"; fi
fi
if [ "$engine" = podman ] && [ -z "${CONTAINERS_CONF:-}" ]; then
  export CONTAINERS_CONF=$state/containers.conf
  {
    echo '[containers]'
    echo 'default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]'
    echo '[engine]'
    if command -v runc >/dev/null; then echo 'runtime = "runc"'; fi
  } >"$CONTAINERS_CONF"
fi
say "engine: $engine${CONTAINERS_CONF:+, CONTAINERS_CONF=$CONTAINERS_CONF}"

# ---------------------------------------------------------------- 1. images
if ! $engine image inspect "$image" >/dev/null 2>&1; then
  say "no $image image: building and smoke-testing it with docker/test-image.sh"
  SOD_IMAGE=$image "$repo/docker/test-image.sh" --no-hub
fi
t0=$(date +%s)
build=("$engine" build --pull=never --build-arg "BASE_IMAGE=$image" -t "$hub_image" -f docker/hub/Dockerfile)
[ "$engine" = podman ] && build+=(--format docker)
[ -n "${SOD_APT_MIRROR:-}" ] && build+=(--build-arg "APT_MIRROR=$SOD_APT_MIRROR")
[ -n "${SOD_GOPROXY:-}" ] && build+=(--build-arg "GOPROXY=$SOD_GOPROXY")
# The HTTPS build steps (Go module proxy) trust the host's CA bundle, as docker/test-image.sh's do.
ca=${SOD_BUILD_CA:-/etc/ssl/certs/ca-certificates.crt}
[ "$ca" != none ] && [ -s "$ca" ] && build+=(--secret "id=build_ca,src=$ca")
say "+ ${build[*]} ."
(cd "$repo" && "${build[@]}" . >"$state/build.log" 2>&1) || { tail -30 "$state/build.log"; die "building $hub_image failed (log: $state/build.log)"; }
record "hub image built FROM $image" ok "$(($(date +%s) - t0)) s, $($engine run --rm "$hub_image" jupyterhub --version 2>/dev/null | tail -1 | sed 's/^/JupyterHub /')"

# The shared read-only build cache covers what students compile: as a student (an unprivileged
# uid, a home of its own, the hub's Go settings and sod-gocache over /opt/sod-gocache), a
# program importing every package of the workbench and every package the notebooks import
# builds without compiling any of them (docker/compile-check.sh).
# (The package list is read as root: students cannot read the instructor's notebooks.)
t0=$(date +%s)
hub_pkgs=$($engine run --rm --network none --entrypoint bash "$hub_image" -c 'cd /opt/sod-workbench &&
  { GOFLAGS=-mod=mod GOPROXY=off go list ./sod/... ./widgets/... 2>/dev/null | grep -v -e /cmd/ -e /internal/;
    python3 scripts/kernel_check.py --imports notebooks/[0-9]*.ipynb | tr " " "\n"; } | sort -u' 2>/dev/null | tr '\n' ' ') || true
compiled=$($engine run --rm -i --network none --user 2999:100 -e "PKGS=$hub_pkgs" -e MODULE=/opt/sod-workbench \
  --entrypoint bash "$hub_image" -c '
export HOME=$(mktemp -d /tmp/student.XXXXXX) GOFLAGS="-mod=mod -p=1 -trimpath" GOPROXY=off GOSUMDB=off GOTOOLCHAIN=local \
  GOMODCACHE=/home/jovyan/.go/pkg/mod GOCACHEPROG="sod-gocache -ro /opt/sod-gocache -rw /tmp/student-layer"
export GOCACHE=$HOME/.cache/go-build
bash -s' <"$repo/docker/compile-check.sh" 2>&1) && rc=0 || rc=$?
if [ $rc -ne 0 ]; then
  record "shared Go build cache: a student's build of the workbench" FAIL "exit $rc: $(tail -3 <<<"$compiled" | tr '\n' ' ')"
elif grep -q '^compiled: ' <<<"$compiled"; then
  record "shared Go build cache covers the workbench and the notebooks' imports" FAIL "compiled $(grep -c '^compiled: ' <<<"$compiled"): $(grep '^compiled: ' <<<"$compiled" | head -8 | sed 's/^compiled: //' | tr '\n' ' ')"
else
  record "shared Go build cache covers the workbench and the notebooks' imports" ok "$(grep '^packages: ' <<<"$compiled" | sed 's/packages: //') packages imported, none compiled ($(($(date +%s) - t0)) s)"
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port); hport=$(free_port); aport=$(free_port)
url=http://127.0.0.1:$port
hubenv=(-e "SOD_HUB_URL=$url" -e "SOD_HUB_PORTS=$hport,$aport")
$engine volume create "$vol_state" >/dev/null
$engine volume create "$vol_homes" >/dev/null
vols=(-v "$vol_state:/srv/jupyterhub" -v "$vol_homes:/srv/homes")
cull_kernel=600   # long while the students work; the cull test restarts the hub with short times
cull_server=900
start_hub() {
  $engine run -d --no-healthcheck --name "$name" --network host "${hubenv[@]}" "${vols[@]}" \
    -e SOD_HUB_CULL_KERNEL=$cull_kernel -e SOD_HUB_CULL_SERVER=$cull_server "$hub_image" >/dev/null
  local i
  for i in $(seq 60); do
    if curl -fsS -o /dev/null "$url/hub/health" 2>/dev/null; then return 0; fi
    sleep 1
  done
  $engine logs "$name" 2>&1 | tail -20
  die "the hub did not answer $url/hub/health within 60 s"
}
stop_hub() { # the hub stops its students' servers on SIGTERM: give it the time to
  $engine stop -t 60 "$name" >/dev/null 2>&1 || true
  $engine rm -f "$name" >/dev/null 2>&1 || true
}
check() { # check PHASE ARGS...: run hub_check.py in the container, record its CHECK lines
  local out rc line
  out=$(timeout "${check_timeout:-600}" $engine exec -i "$name" python3 - "$url" "$@" <"$repo/docker/hub/hub_check.py" 2>&1) && rc=0 || rc=$?
  while IFS=$'\t' read -r kind n ok detail; do
    if [ "$kind" = CHECK ]; then record "$n" "$ok" "$detail"; fi
    if [ "$kind" = LOAD ]; then loads+=("$n $ok $detail"); fi
  done <<<"$out"
  if [ $rc -ne 0 ] && ! grep -q '^CHECK' <<<"$out"; then
    record "hub_check.py $1" FAIL "exit $rc: $(tail -3 <<<"$out" | tr '\n' ' ')"
  fi
}
loads=()
# the resident memory (KiB) of every process of the hub's users (uid >= 2000, sod-hub-user's)
rss_py='
import glob
s = 0
for f in glob.glob("/proc/[0-9]*/status"):
    try:
        d = dict(l.split(":", 1) for l in open(f) if ":" in l)
        if int(d["Uid"].split()[0]) >= 2000 and "VmRSS" in d:
            s += int(d["VmRSS"].split()[0])
    except (OSError, ValueError, KeyError):
        pass
print(s)'

if [ "${SOD_HUB_LOAD_ONLY:-0}" != 1 ]; then # SOD_HUB_LOAD_ONLY=1: only the capacity test (7)
# ---------------------------------------------------------------- 2. the test-only authenticator

# The hub with the test-only authenticator, on ports of its own; `timeout` ends the client, so
# the container is named and removed explicitly.
tport=$(free_port); thport=$(free_port); taport=$(free_port)
testauth() { # testauth SECONDS ENV...: run the hub with the test authenticator, print its log
  local n=$name-auth
  $engine run -d --no-healthcheck --name "$n" --network host -e "SOD_HUB_URL=http://127.0.0.1:$tport" \
    -e "SOD_HUB_PORTS=$thport,$taport" -e SOD_HUB_AUTH=test -e SOD_HUB_TEST_PASSWORD=test-password "${@:2}" "$hub_image" >/dev/null
  local i
  for i in $(seq "$1"); do
    [ "$($engine inspect -f '{{.State.Running}}' "$n" 2>/dev/null)" = true ] || break
    if curl -fsS -o /dev/null "http://127.0.0.1:$tport/hub/health" 2>/dev/null; then break; fi
    sleep 1
  done
  $engine logs "$n" 2>&1
  echo "exit status: $($engine inspect -f '{{.State.ExitCode}} {{.State.Running}}' "$n")"
  $engine rm -f -t 2 "$n" >/dev/null 2>&1
}
out=$(testauth 30)
if grep -q "refused unless SOD_HUB_TEST=1" <<<"$out" && grep -q "exit status: [1-9][0-9]* false" <<<"$out"; then
  record "test-only authenticator refused without SOD_HUB_TEST=1" ok "$(grep -o 'exit status: [0-9]*' <<<"$out")"
else
  record "test-only authenticator refused without SOD_HUB_TEST=1" FAIL "$(tail -2 <<<"$out" | tr '\n' ' ')"
fi
out=$(testauth 60 -e SOD_HUB_TEST=1)
if grep -q "JupyterHub is now running" <<<"$out"; then
  record "test-only authenticator accepted with SOD_HUB_TEST=1" ok "hub started"
else
  record "test-only authenticator accepted with SOD_HUB_TEST=1" FAIL "$(tail -2 <<<"$out" | tr '\n' ' ')"
fi

# ---------------------------------------------------------------- 3. three students
students=(alice bob carol)
creds=()
for s in "${students[@]}"; do
  pw="pw-$s-$RANDOM$RANDOM"
  creds+=("$s:$pw")
  $engine run --rm "${vols[@]}" -i "$hub_image" sod-hub-user add "$s" <<<"$pw" >/dev/null
done
start_hub
record "hub started (3 students, PAM), listening on 127.0.0.1 only" ok "$url"
check login /srv/jupyterhub/test-state.json "${creds[@]}"
listen=$($engine exec "$name" sh -c 'cat /proc/net/tcp /proc/net/tcp6 2>/dev/null' | awk -v p="$(printf '%04X' "$port")" '$4=="0A" && $2 ~ ":"p"$" {print $2}')
if [ -n "$listen" ] && ! grep -qv '^0100007F:\|^00000000000000000000000001000000:' <<<"$listen"; then
  record "the hub's port is bound to loopback only" ok "$(tr '\n' ' ' <<<"$listen")"
else
  record "the hub's port is bound to loopback only" FAIL "$(tr '\n' ' ' <<<"$listen")"
fi

# ---------------------------------------------------------------- 3b. limits per student
# jupyterhub_config.py's limits per student (SOD_HUB_MEM_LIMIT, default 2G): A runs a cell that
# allocates memory without bound; it must fail in A's own server, and B's kernel, started
# before, must still run a cell afterwards. The functions of hub_check.py drive the kernels.
limits_py=$(cat <<'PY'
def run_in(base, name, token, kid, code, timeout=300):
    async def go():
        ws = await websocket_connect(HTTPRequest(
            "ws" + base[len("http"):] + "/user/%s/api/kernels/%s/channels" % (name, kid),
            headers={"Authorization": "token " + token}, connect_timeout=60, request_timeout=60))
        msg_id = uuid.uuid4().hex
        ws.write_message(json.dumps({
            "header": {"msg_id": msg_id, "username": name, "session": uuid.uuid4().hex,
                       "msg_type": "execute_request", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "channel": "shell",
            "content": {"code": code, "silent": False, "store_history": True,
                        "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}}))
        out, status = "", None
        while status is None:
            m = json.loads(await asyncio.wait_for(ws.read_message(), timeout=timeout))
            if m.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            if m["header"]["msg_type"] == "stream":
                out += m["content"]["text"]
            elif m["header"]["msg_type"] == "execute_reply":
                status = m["content"]["status"]
        ws.close()
        return status, out
    return asyncio.run(go())

HOG = ("%%\nvar hoard [][]byte\nfor {\n\tb := make([]byte, 64<<20)\n\tfor i := range b {\n\t\tb[i] = 1\n\t}\n"
       "\thoard = append(hoard, b)\n}\n")
base, state, users = sys.argv[1].rstrip("/"), sys.argv[2], [tuple(a.split(":", 1)) for a in sys.argv[3:]]
tokens, nb = json.load(open(state))["tokens"], json.load(open(state))["notebook"]
(a, _), (b, _) = users[0], users[1]
_, cells = setup_cell(base, b, tokens[b], nb)
outs, _, err, kid_b = asyncio.run(run_cells(base, b, tokens[b], [cells[0]["source"], "%%\nfmt.Println(\"B before\")"]))
check("B starts a kernel and runs a cell", not err and outs and "B before" in outs[-1], err)
_, cells = setup_cell(base, a, tokens[a], nb)
t0 = time.time()
outs, _, err, kid_a = asyncio.run(run_cells(base, a, tokens[a], [cells[0]["source"], HOG], timeout=600))
check("A's memory hog fails in A's own server (limit per student)", bool(err), "%.0fs: %s" % (time.time() - t0, err or "the cell ended without an error"))
status, out = run_in(base, b, tokens[b], kid_b, "%%\nfmt.Println(\"B after\")")
check("B's kernel still runs cells after A's hog", status == "ok" and "B after" in out, "%s %s" % (status, out.strip()))
status, out = run_in(base, a, tokens[a], kid_a, "%%\nfmt.Println(\"A after\")")
check("A's own kernel still runs cells after its hog", status == "ok" and "A after" in out, "%s %s" % (status, out.strip()))
sys.exit(1 if FAILED else 0)
PY
)
out=$({ sed '/^if __name__ == "__main__":/,$d' "$repo/docker/hub/hub_check.py"; printf '%s\n' "$limits_py"; } |
  timeout 900 $engine exec -i "$name" python3 - "$url" /srv/jupyterhub/test-state.json "${creds[@]}" 2>&1) && rc=0 || rc=$?
while IFS=$'\t' read -r kind n ok detail; do
  if [ "$kind" = CHECK ]; then record "$n" "$ok" "$detail"; fi
done <<<"$out"
if [ $rc -ne 0 ] && ! grep -q '^CHECK' <<<"$out"; then
  record "limits per student" FAIL "exit $rc: $(tail -3 <<<"$out" | tr '\n' ' ')"
fi
record "limits per student, as the hub applies them" ok "$($engine logs "$name" 2>&1 | grep -o 'limits per student: .*' | tail -1)"

# ---------------------------------------------------------------- 4. a new hub container, same volumes
stop_hub
start_hub
check restart /srv/jupyterhub/test-state.json "${creds[@]}"

# ---------------------------------------------------------------- 5. culling
stop_hub
cull_kernel=20 cull_server=45
start_hub
check cull /srv/jupyterhub/test-state.json $cull_kernel $cull_server "${creds[0]}"

# ---------------------------------------------------------------- 6. the image as a spawner runs it
# What KubeSpawner (z2jh-values.yaml) does: the workbench image with singleuser.cmd and
# JupyterHub's environment variables; the server must come up under its prefix, refuse requests
# without a token and pass the image's health check.
cmd=$(awk '/^singleuser:/ {s=1} s && /^  cmd:/ {print $2; exit}' "$repo/docker/hub/z2jh-values.yaml")
sport=$(free_port)
$engine run -d --no-healthcheck --name "$name-su" --network host \
  -e JUPYTERHUB_API_TOKEN=0123456789abcdef0123456789abcdef -e JUPYTERHUB_CLIENT_ID=jupyterhub-user-dora \
  -e "JUPYTERHUB_API_URL=http://127.0.0.1:$hport/hub/api" -e JUPYTERHUB_BASE_URL=/ -e JUPYTERHUB_USER=dora \
  -e JUPYTERHUB_SERVICE_PREFIX=/user/dora/ -e "JUPYTERHUB_SERVICE_URL=http://127.0.0.1:$sport/user/dora/" \
  -e JUPYTERHUB_OAUTH_CALLBACK_URL=/user/dora/oauth_callback -e JUPYTERHUB_OAUTH_SCOPES='["access:servers!server=dora/"]' \
  -e JUPYTERHUB_ACTIVITY_URL="http://127.0.0.1:$hport/hub/api/users/dora/activity" \
  -e SOD_PORT="$sport" "$image" "$cmd" >/dev/null
su_ok=""
for i in $(seq 90); do
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$sport/user/dora/api" 2>/dev/null || true)
  if [ "$code" = 200 ]; then su_ok=1; break; fi
  [ "$($engine inspect -f '{{.State.Running}}' "$name-su")" = true ] || break
  sleep 1
done
if [ -n "$su_ok" ]; then
  record "image runs singleuser.cmd ($cmd) with JupyterHub's env" ok "/user/dora/api answers after ${i}s"
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$sport/user/dora/api/contents")
  [ "$code" = 403 ] && r=ok || r=FAIL
  record "  ... and refuses /user/dora/api/contents without a token" $r "HTTP $code"
  $engine exec "$name-su" sod-healthcheck >/dev/null 2>&1 && r=ok || r=FAIL
  record "  ... and the image's health check passes under the prefix" $r ""
else
  record "image runs singleuser.cmd ($cmd) with JupyterHub's env" FAIL "$($engine logs "$name-su" 2>&1 | tail -3 | tr '\n' ' ')"
fi
$engine rm -f -t 2 "$name-su" >/dev/null 2>&1

fi # SOD_HUB_LOAD_ONLY

# ---------------------------------------------------------------- 7. capacity (optional)
if [ -n "${SOD_HUB_LOAD:-}" ]; then
  nb=${SOD_HUB_LOAD_NOTEBOOK:-00-welcome.ipynb}
  for k in $SOD_HUB_LOAD; do
    stop_hub
    lcreds=()
    for i in $(seq "$k"); do
      s=$(printf 'load%02d%s' "$i" "$k"); pw="pw-$s-$RANDOM$RANDOM"
      lcreds+=("$s:$pw")
      $engine run --rm "${vols[@]}" -i "$hub_image" sod-hub-user add "$s" <<<"$pw" >/dev/null
    done
    cull_kernel=3600 cull_server=7200 start_hub
    ( peak=0; while sleep 2; do
        m=$($engine exec "$name" python3 -c "$rss_py" 2>/dev/null || echo 0)
        [ "$m" -gt "$peak" ] && peak=$m && echo "$peak" >"$state/peak-$k"
      done ) &
    sampler=$!
    check_timeout=1800 check load /srv/jupyterhub/test-state.json "$nb" "${lcreds[@]}"
    kill "$sampler" 2>/dev/null || true
    peak=$(cat "$state/peak-$k" 2>/dev/null || echo 0)
    loads[${#loads[@]}-1]+=" peak_rss_MiB=$((peak / 1024)) per_student_MiB=$((peak / 1024 / k))"
    for i in $(seq "$k"); do $engine run --rm "${vols[@]}" "$hub_image" sod-hub-user del "$(printf 'load%02d%s' "$i" "$k")" >/dev/null; done
  done
fi

# ---------------------------------------------------------------- summary
echo
echo "test-hub: $(($(date +%s) - t_start)) s"
printf '%-62s %-4s %s\n' "check" "" "detail"
printf '%s\n' "${results[@]}"
if [ ${#loads[@]} -gt 0 ]; then
  echo
  echo "capacity ($nb, every code cell, K students at once; seconds):"
  printf '%s\n' "${loads[@]}"
fi
[ $failed -eq 0 ] || die "some checks failed"
echo "test-hub: all checks passed"
