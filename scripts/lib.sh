# scripts/lib.sh — the shell helpers of the docker/*.sh scripts. Sourced, never run:
#
#   . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"   (bash)
#   lib_name=NAME                                the prefix of every line, e.g. [install]
#
#   say MSG...       print "[NAME] MSG" on stdout
#   die MSG...       print "[NAME] FAIL: MSG" on stderr, run the script's on_die function if it
#                    defines one (e.g. to print a summary), and exit 1
#   step NAME CMD... say "== NAME", run CMD, then say "NAME: ok in N s"; the line "N s  NAME" is
#                    added to the array step_timings and step_passed counts the steps that passed
#   random_token     print 32 random hex digits (a Jupyter token)
#
# On a terminal the prefix is bold and FAIL red.

lib_name=${lib_name:-$(basename "$0" .sh)}
if [ -t 1 ]; then lib_b=$'\033[1m' lib_r=$'\033[31m' lib_n=$'\033[0m'; else lib_b='' lib_r='' lib_n=''; fi
step_timings=()
step_passed=0

say() { printf '%s[%s]%s %s\n' "$lib_b" "$lib_name" "$lib_n" "$*"; }

die() {
  printf '%s[%s] FAIL:%s %s\n' "$lib_r" "$lib_name" "$lib_n" "$*" >&2
  if declare -F on_die >/dev/null; then on_die; fi
  exit 1
}

step() {
  local name=$1 t0 t
  shift
  t0=$(date +%s)
  say "== $name"
  "$@"
  t=$(($(date +%s) - t0))
  step_timings+=("$(printf '%5d s  %s' "$t" "$name")")
  step_passed=$((step_passed + 1))
  say "$name: ok in $t s"
}

random_token() { od -An -N16 -tx1 /dev/urandom | tr -d ' \n'; }
