#!/usr/bin/env bash
# scripts/notebook.sh — serve the SOD Workbench notebooks with Jupyter.
#
#   scripts/notebook.sh [--ip ADDR] [--port PORT] [--allow-non-loopback] [--relax-host-checks]
#                      [--no-browser|--browser] [other jupyter options...]
#
# Serves notebooks/ on http://127.0.0.1:8888 and prints the URL with its token.
#   Token:   $JUPYTER_TOKEN or $SOD_TOKEN (one setting under two names: if both are set they must
#            be equal), else a fresh random token. At least 8 of A-Z a-z 0-9 . _ ~ -. It reaches
#            Jupyter through the environment (JUPYTER_TOKEN), never its command line.
#   Address: loopback only (127.0.0.1, ::1, localhost) unless --allow-non-loopback is given; the
#            image's sod-notebook gives it, since a container listens on its own interface
#            (publish it on the host's loopback: podman run -p 127.0.0.1:8888:8888 ...).
#   Refused: anything that switches authentication off or weakens it, in every spelling Jupyter
#            accepts (--X=v, --X v, -X=v; NotebookApp., ServerApp., IdentityProvider. or any other
#            class prefix; any case, - or _): token, password, hashed_password, disable_check_xsrf,
#            allow_origin=*, allow_origin_pat, allow_unauthenticated_access, authenticate_prometheus,
#            identity_provider_class, login_handler_class, authorizer_class, tornado_settings,
#            webapp_settings, cookie_options, and config files (--config, config_file), which could
#            set any of these. Refusals exit with status 2 before Jupyter starts.
#   Opt-in:  options that weaken Jupyter's host and origin checks are refused too unless
#            --relax-host-checks is given (--allow-non-loopback does not imply it): allow_remote_access,
#            local_hostnames, trust_xheaders, allow_origin (a named origin), allow_credentials
#            (false or 0 as value always passes).
#   Jupyter: JupyterLab 4 (jupyter lab, jupyter-server 2) where installed, else Notebook 6
#            (jupyter notebook); SOD_JUPYTER=lab or SOD_JUPYTER=notebook chooses.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ip=127.0.0.1 port=8888 browser=--no-browser remote= relax=
extra=()

refuse() {
  echo "notebook.sh: $*" >&2
  echo "usage: scripts/notebook.sh [--ip ADDR] [--port PORT] [--allow-non-loopback] [--relax-host-checks] [--no-browser|--browser] [jupyter options...] (--help for more)" >&2
  exit 2
}

# trait prints the option name of a command-line argument as Jupyter reads it: leading dashes,
# any "=value" and any "Class." prefix removed, lower-cased (--ServerApp.IP=x → ip). It fails
# for an argument that is not an option.
trait() {
  local a=$1
  case "$a" in
  --?*) a=${a#--} ;;
  -?*) a=${a#-} ;;
  *) return 1 ;;
  esac
  a=${a%%=*}
  a=${a##*.}
  a=${a,,}
  printf '%s' "${a//-/_}"
}

# weakened lists the host and origin options given (they need --relax-host-checks).
weakened=()

args=("$@")
i=0
while [ $i -lt ${#args[@]} ]; do
  arg=${args[$i]}
  name=$(trait "$arg") || name=
  # The option's value: after "=", else the next argument.
  has_eq=
  case "$arg" in *=*) has_eq=1 value=${arg#*=} ;; *) value=${args[$((i + 1))]-} ;; esac
  step=1 shown=$arg
  [ -z "$has_eq" ] && step=2 shown="$arg $value"
  case "$arg" in
  -h | --help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  --allow-non-loopback) remote=1; i=$((i + 1)); continue ;;
  --relax-host-checks) relax=1; i=$((i + 1)); continue ;;
  --browser) browser=; i=$((i + 1)); continue ;;
  --no-browser) browser=--no-browser; i=$((i + 1)); continue ;;
  esac
  case "$name" in
  ip)
    [ -n "$has_eq" ] || [ $((i + 1)) -lt ${#args[@]} ] || refuse "$arg needs an address"
    ip=$value; i=$((i + step)) ;;
  port)
    [ -n "$has_eq" ] || [ $((i + 1)) -lt ${#args[@]} ] || refuse "$arg needs a port number"
    port=$value; i=$((i + step)) ;;
  token | password | hashed_password)
    refuse "refusing '$arg': token authentication stays on; choose the token with JUPYTER_TOKEN (or SOD_TOKEN) in the environment" ;;
  disable_check_xsrf)
    case "${value,,}" in
    false | 0) extra+=("${args[@]:$i:$step}"); i=$((i + step)) ;;
    *) refuse "refusing '$shown': XSRF protection stays on" ;;
    esac ;;
  allow_origin)
    case "$value" in
    '*' | "'*'" | '"*"' | '') refuse "refusing '$shown': allow_origin=* lets every web site use the server; name the origins you trust" ;;
    *) weakened+=("$shown"); extra+=("${args[@]:$i:$step}"); i=$((i + step)) ;;
    esac ;;
  allow_remote_access | trust_xheaders | allow_credentials)
    case "${value,,}" in
    false | 0) ;;
    *) weakened+=("$shown") ;;
    esac
    extra+=("${args[@]:$i:$step}"); i=$((i + step)) ;;
  local_hostnames)
    weakened+=("$shown"); extra+=("${args[@]:$i:$step}"); i=$((i + step)) ;;
  allow_origin_pat | allow_unauthenticated_access | identity_provider_class | login_handler_class | authorizer_class)
    refuse "refusing '$arg': it can open the server without the token" ;;
  authenticate_prometheus)
    case "${value,,}" in
    true | 1) extra+=("${args[@]:$i:$step}"); i=$((i + step)) ;;
    *) refuse "refusing '$shown': the metrics page stays behind the token" ;;
    esac ;;
  tornado_settings | webapp_settings | cookie_options)
    refuse "refusing '$arg': it can switch off the XSRF and cookie checks; run jupyter yourself if you need it" ;;
  config | config_file)
    refuse "refusing '$arg': a config file could switch authentication off; run jupyter yourself if you need one" ;;
  *) extra+=("$arg"); i=$((i + 1)) ;;
  esac
done

if [ ${#weakened[@]} -gt 0 ] && [ -z "$relax" ]; then
  refuse "refusing '${weakened[0]}': it weakens Jupyter's host or origin checks (allow_remote_access, local_hostnames, trust_xheaders, allow_origin, allow_credentials); add --relax-host-checks if that is what you want (the token stays on)"
fi

case "$port" in
'' | *[!0-9]*) refuse "--port '$port' is not a port number; want an integer in [1, 65535]" ;;
esac
[ "${#port}" -le 5 ] && [ "$port" -ge 1 ] && [ "$port" -le 65535 ] ||
  refuse "--port $port is out of range; want an integer in [1, 65535]"
port=$((10#$port))

loopback=
case "$ip" in
'') refuse "--ip is empty, which binds every interface; give an address (127.0.0.1 by default)" ;;
localhost | ::1 | '[::1]') loopback=1 ;;
127.*)
  if [[ $ip =~ ^127\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$ ]]; then loopback=1; fi ;;
esac
if [ -z "$loopback" ] && [ -z "$remote" ]; then
  refuse "refusing --ip $ip: it is not a loopback address (127.0.0.1, ::1, localhost), so other machines could reach the server; add --allow-non-loopback if that is what you want (the token stays on)"
fi

# The token: JUPYTER_TOKEN and SOD_TOKEN are one setting under two names.
if [ -n "${JUPYTER_TOKEN+set}" ] && [ -z "$JUPYTER_TOKEN" ]; then
  refuse "JUPYTER_TOKEN is set but empty: token authentication stays on; unset it for a random token"
fi
if [ -n "${SOD_TOKEN+set}" ] && [ -z "$SOD_TOKEN" ]; then
  refuse "SOD_TOKEN is set but empty: token authentication stays on; unset it for a random token"
fi
if [ -n "${JUPYTER_TOKEN:-}" ] && [ -n "${SOD_TOKEN:-}" ] && [ "$JUPYTER_TOKEN" != "$SOD_TOKEN" ]; then
  refuse "JUPYTER_TOKEN and SOD_TOKEN are both set and differ; set one of them"
fi
token=${JUPYTER_TOKEN:-${SOD_TOKEN:-}}
if [ -z "$token" ]; then
  token=$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')
fi
if [ ${#token} -lt 8 ] || [[ ! $token =~ ^[A-Za-z0-9._~-]+$ ]]; then
  refuse "the token (JUPYTER_TOKEN or SOD_TOKEN) must have at least 8 characters, all of A-Z a-z 0-9 . _ ~ -"
fi

command -v jupyter >/dev/null || {
  echo "notebook.sh: jupyter not found. Run scripts/install.sh first (see README)." >&2
  exit 1
}
# gonb and goimports live where scripts/install.sh put them.
export PATH="${SOD_BIN:-$HOME/.local/bin}:/usr/local/bin:/usr/local/go/bin:$PATH"
# The gonb kernel must be listed. While other Jupyter processes start (tests run several at once),
# `jupyter kernelspec list` has been seen to miss it once: the check is tried three times, a second
# apart, and on failure says what the command printed.
specs="" tries=0
until specs=$(jupyter kernelspec list 2>&1) && grep -w gonb >/dev/null <<<"$specs"; do
  tries=$((tries + 1))
  if [ $tries -ge 3 ]; then
    echo "notebook.sh: the gonb kernel is not installed ('jupyter kernelspec list' printed: $(tr '\n' ' ' <<<"$specs" | cut -c1-400)). Run scripts/install.sh --user first." >&2
    exit 1
  fi
  sleep 1
done

app=${SOD_JUPYTER:-}
if [ -z "$app" ]; then
  app=notebook
  jupyter lab --version >/dev/null 2>&1 && app=lab
fi
case "$app" in
lab) path=lab ;;
notebook) path=tree ;;
*) refuse "SOD_JUPYTER='$app': want lab or notebook" ;;
esac

[ "$(id -u)" = 0 ] && extra+=(--allow-root)

host=$ip
case "$ip" in
0.0.0.0 | '*') host=127.0.0.1 ;;
:: | '[::]') host='[::1]' ;;
*:*) [[ $ip == \[* ]] || host="[$ip]" ;;
esac
echo "SOD Workbench: serving $repo/notebooks with jupyter $app"
echo "Open this URL in your browser:"
echo
echo "    http://$host:$port/$path?token=$token"
echo
# The token goes through the environment: Notebook 6 and jupyter-server 2 both read JUPYTER_TOKEN,
# and it stays out of the process list (ps shows the command line to every local user).
export JUPYTER_TOKEN=$token
unset SOD_TOKEN
exec jupyter "$app" --notebook-dir="$repo/notebooks" --ip="$ip" --port="$port" --port-retries=0 \
  $browser "${extra[@]}"
