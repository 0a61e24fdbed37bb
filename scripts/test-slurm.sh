#!/usr/bin/env bash
# scripts/test-slurm.sh — the escape benchmark and the success-rate study on a real Slurm cluster
# (scripts/test.sh runs it after the library tests; docker/README.md, "The benchmark and the study
# on Slurm"). Run from anywhere in the repository, as root:
#
#   scripts/test-slurm.sh [--no-install]
#
# 1. installs Debian's slurm-wlm and munge with apt-get if they are missing (not with --no-install:
#    then missing packages are a skip);
# 2. starts a single-node cluster on 127.0.0.1, all of it in a fresh /tmp/sod-slurm.XXXXXX: its own
#    munged (own key and socket, as user munge), slurmctld and slurmd (ports 16817/16818), a
#    slurm.conf that SLURM_CONF points every Slurm command at; nothing under /etc is changed;
# 3. builds `reproduce` once and submits (a) the benchmark's quick suite as a job array of 3 shards
#    (`reproduce bench -shard k/3`) and (b) the success-rate study as an array of 4 shards
#    (`reproduce study -shard k/4`), each followed by its merge as a job with
#    --dependency=afterok:<array>;
# 4. runs the same two commands in one process here and compares the merged files with `cmp`.
#
# Not root, or no apt-get / no network for the install: prints "slurm test SKIPPED: <reason>" and
# exits 0. A failed job, a merge that never ran, or one differing byte: exits 1. The daemons it
# started are always stopped by their pids (trap on EXIT), and its folder removed (kept on a
# failure, for the logs); a later run first stops what an earlier one left running, found by the
# pid files in the earlier folders only.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
lib_name=slurm
. scripts/lib.sh
export PATH="/usr/local/go/bin:/usr/local/bin:$PATH"
t0=$(date +%s)

skip() {
  ok=1 # nothing to keep
  echo "slurm test SKIPPED: $*"
  exit 0
}
install=1
for arg in "$@"; do
  case "$arg" in
  --no-install) install=0 ;;
  *) echo "usage: scripts/test-slurm.sh [--no-install]" >&2; exit 2 ;;
  esac
done

[ "$(id -u)" = 0 ] || skip "not root (installing Slurm and starting its daemons needs root)"

# The quick suites: seconds each, on 2 cores.
bench_args=(-quiet -workers 1 -families paper,pmc -pmc-sizes 12 -pmc-eps 0.15 -per-cell 2 -trials 3)
study_args=(study -quiet -workers 1 -sizes 20,30 -eps 0.15,0.1 -trials 12)
bench_files=(bench-results.json bench-results.csv bench-instances.json) # the rest holds CPU times
ports=(16817 16818)

# stop_pids FOLDER: stop the daemons whose pid files are FOLDER/run/*.pid, if the process is still
# that daemon of that folder (its command line names the folder).
stop_pids() {
  local f pid left=()
  for f in "$1"/run/*.pid; do
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    case "$pid" in '' | *[!0-9]*) continue ;; esac
    if { tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null | grep -qF -- "$1/"; then
      kill "$pid" 2>/dev/null && left+=("$pid")
    fi
    rm -f "$f"
  done
  for _ in $(seq 50); do
    [ ${#left[@]} -gt 0 ] || return 0
    local still=()
    for pid in "${left[@]}"; do kill -0 "$pid" 2>/dev/null && still+=("$pid"); done
    left=("${still[@]+"${still[@]}"}")
    sleep 0.2
  done
  for pid in "${left[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
}

# An earlier run that was killed may have left daemons: stop them (its folders only).
for d in /tmp/sod-slurm.*; do
  [ -d "$d" ] && [ ! -L "$d" ] && [ "$(stat -c %u "$d")" = 0 ] || continue
  stop_pids "$d"
  rm -rf "$d"
done

w=$(mktemp -d /tmp/sod-slurm.XXXXXX)
chmod 755 "$w" # munged (user munge) must reach its folder inside
mkdir -p "$w/run" "$w/log" "$w/state" "$w/spool"
ok=0
cleanup() {
  stop_pids "$w"
  if [ "$ok" = 1 ]; then rm -rf "$w"; else echo "slurm: logs kept in $w (the next run removes them)" >&2; fi
}
trap cleanup EXIT
bad_logs=() # the outputs of the jobs that failed
on_die() {
  local f
  [ ${#bad_logs[@]} -gt 0 ] || bad_logs=("$w"/log/*.txt "$w"/log/*.log)
  for f in "${bad_logs[@]}"; do
    [ -s "$f" ] && { echo "--- $f (last lines)"; tail -n 12 "$f"; } >&2
  done
  return 0
}

# 1. Install.
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  [ "$install" = 1 ] || { skip "slurm-wlm and munge are not installed (and --no-install)"; }
  command -v apt-get >/dev/null || skip "slurm-wlm and munge are not installed and there is no apt-get"
  say "apt-get install slurm-wlm munge"
  export DEBIAN_FRONTEND=noninteractive
  inst=(apt-get install -y -q --no-install-recommends slurm-wlm munge)
  "${inst[@]}" >"$w/log/apt.txt" 2>&1 ||
    { apt-get update -q >>"$w/log/apt.txt" 2>&1 && "${inst[@]}" >>"$w/log/apt.txt" 2>&1; } ||
    { skip "apt-get could not install slurm-wlm and munge (no network or mirror?): $(tail -n 1 "$w/log/apt.txt")"; }
fi
command -v go >/dev/null || die "no go on PATH"
for p in "${ports[@]}"; do
  if ss -Hltn "sport = :$p" 2>/dev/null | grep -q .; then skip "port $p on this machine is taken"; fi
done
say "slurm-wlm $(dpkg-query -W -f '${Version}' slurm-wlm 2>/dev/null || sbatch --version), munge $(dpkg-query -W -f '${Version}' munge 2>/dev/null)"

# 2. The binary the jobs run.
go build -o "$w/reproduce" ./sod/cmd/reproduce

# 3. munged: its own key and socket, as user munge.
id munge >/dev/null 2>&1 || die "no user munge (the munge package creates it)"
mkdir -p "$w/munge" "$w/munge-socket"
dd if=/dev/urandom of="$w/munge/munge.key" bs=1024 count=1 status=none
chown -R munge:munge "$w/munge" "$w/munge-socket"
chmod 700 "$w/munge"
chmod 755 "$w/munge-socket" # munged wants its socket reachable by all
chmod 400 "$w/munge/munge.key"
sock=$w/munge-socket/munge.socket
setpriv --reuid=munge --regid=munge --init-groups munged --foreground --socket="$sock" \
  --key-file="$w/munge/munge.key" --pid-file="$w/munge/munged.pid" --seed-file="$w/munge/munged.seed" \
  --log-file="$w/munge/munged.log" >"$w/log/munged.txt" 2>&1 &
echo $! >"$w/run/munged.pid"
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || die "munged did not start: $(cat "$w/log/munged.txt")"

# 4. slurmctld and slurmd on 127.0.0.1, everything in $w.
host=$(hostname -s)
cpus=$(nproc)
mem=$(($(awk '/^MemTotal:/ {print $2}' /proc/meminfo) / 1024 * 9 / 10))
export SLURM_CONF=$w/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=sodtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=${ports[0]}
SlurmdPort=${ports[1]}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$w/state
SlurmdSpoolDir=$w/spool
SlurmctldPidFile=$w/run/slurmctld.pid
SlurmdPidFile=$w/run/slurmd.pid
SlurmctldLogFile=$w/log/slurmctld.log
SlurmdLogFile=$w/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=30 State=UP
EOF
slurmctld -D -i -f "$SLURM_CONF" >"$w/log/slurmctld.txt" 2>&1 &
echo $! >"$w/run/slurmctld.pid"
slurmd -D -f "$SLURM_CONF" >"$w/log/slurmd.txt" 2>&1 &
echo $! >"$w/run/slurmd.pid"
state=
for _ in $(seq 120); do
  state=$(sinfo -h -N -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.5
done
[ "$state" = idle ] || die "the node is not idle after 60 s (sinfo: ${state:-no answer})"
say "cluster up: node $host ($cpus CPUs, ${mem} MB), partition test, state $state ($(($(date +%s) - t0)) s)"

# 5. Submit: two job arrays, each with its merge as a dependent job.
submit() { # prints the sbatch line, then returns the job id
  say "sbatch $*" >&2
  sbatch --parsable --chdir="$w" --output="$w/log/%x-%j.out" "$@"
}
shard='-shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT'
sub_t0=$(date +%s)
jb=$(submit --job-name=bench --array=0-2 --cpus-per-task=1 \
  --wrap "./reproduce bench ${bench_args[*]} $shard -out bench/shard-\$SLURM_ARRAY_TASK_ID")
jbm=$(submit --job-name=bench-merge --dependency=afterok:"$jb" --kill-on-invalid-dep=yes \
  --wrap "./reproduce bench merge -out bench/merged bench/shard-*")
js=$(submit --job-name=study --array=0-3 --cpus-per-task=1 \
  --wrap "./reproduce ${study_args[*]} $shard -out study/shard-\$SLURM_ARRAY_TASK_ID")
jsm=$(submit --job-name=study-merge --dependency=afterok:"$js" --kill-on-invalid-dep=yes \
  --wrap "./reproduce merge -out study/merged study/shard-*")

# 6. The same two commands in one process, while the cluster works.
(cd "$w" && ./reproduce bench "${bench_args[@]}" -out bench/one >log/one-bench.out 2>&1) || die "the one-process benchmark failed"
(cd "$w" && ./reproduce "${study_args[@]}" -out study/one >log/one-study.out 2>&1) || die "the one-process study failed"

# 7. Wait for the queue to empty (a merge whose array failed is cancelled: --kill-on-invalid-dep).
ids="$jb,$jbm,$js,$jsm"
for _ in $(seq 300); do
  [ -z "$(squeue -h -j "$ids" 2>/dev/null)" ] && break
  sleep 0.5
done
[ -z "$(squeue -h -j "$ids")" ] || die "jobs still queued after 150 s: $(squeue -h -j "$ids" -o '%i %T %r' | tr '\n' ';')"
wall=$(($(date +%s) - sub_t0))

failed=0 rows=()
for id in "$jb" "$jbm" "$js" "$jsm"; do
  while read -r line; do
    f() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $line"; }
    task=$(f ArrayTaskId)
    printf -v row '%-6s %-12s %-10s %-9s %-9s %-9s %s' "$id${task:+_$task}" "$(f JobName)" "$(f JobState)" \
      "$(f StartTime | cut -dT -f2)" "$(f EndTime | cut -dT -f2)" "$(f RunTime)" "$(f ExitCode)"
    rows+=("$row")
    [ "$(f JobState)" = COMPLETED ] || { failed=1 && bad_logs+=("$w/log/$(f JobName)-$(f JobId).out"); }
  done < <(scontrol -o show job "$id")
done
say "job    name         state      start     end       run time  exit"
while read -r row; do say "$row"; done < <(printf '%s\n' "${rows[@]}" | sort -V)
[ "$failed" = 0 ] || die "a job did not complete"

# 8. Byte for byte.
for f in "${bench_files[@]}"; do
  cmp "$w/bench/merged/$f" "$w/bench/one/$f" || die "bench: merged $f differs from the one-process run's"
done
n=0
for f in "$w"/study/one/*; do
  cmp "$w/study/merged/${f##*/}" "$f" || die "study: merged ${f##*/} differs from the one-process run's"
  n=$((n + 1))
done
[ "$n" -gt 0 ] || die "the one-process study wrote nothing"
say "bench: 3 shards merged = one run, identical: ${bench_files[*]}"
say "study: 4 shards merged = one run, identical: $(cd "$w/study/one" && echo *)"
say "jobs done in $wall s; whole test $(($(date +%s) - t0)) s"
ok=1
