package scripts

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stubJupyter writes a fake `jupyter` that answers the kernelspec check and
// otherwise records its argv and its JUPYTER_TOKEN in out, so that the
// guard of notebook.sh can be tested without starting a server.
func stubJupyter(t *testing.T) (bin, out string) {
	t.Helper()
	bin = t.TempDir()
	out = filepath.Join(t.TempDir(), "argv")
	script := `#!/bin/sh
case "$1 $2" in
"kernelspec list") echo "  gonb  /stub/gonb"; exit 0 ;;
"lab --version") exit 1 ;;
esac
{ printf 'ARGV'; for a in "$@"; do printf ' [%s]' "$a"; done; echo; echo "TOKEN [${JUPYTER_TOKEN-}]"; echo "SOD [${SOD_TOKEN-unset}]"; } >` + out + "\n"
	if err := os.WriteFile(filepath.Join(bin, "jupyter"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, out
}

// runGuard runs scripts/notebook.sh with args and env (plus the stub on
// PATH) and returns its exit status, output and the stub's record.
func runGuard(t *testing.T, args []string, env ...string) (code int, output, record string) {
	t.Helper()
	bin, out := stubJupyter(t)
	cmd := exec.Command("./notebook.sh", args...)
	cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + t.TempDir(), "SOD_BIN=" + bin}
	cmd.Env = append(cmd.Env, env...)
	b, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	rec, _ := os.ReadFile(out)
	return code, string(b), string(rec)
}

// notebookRefusals are command lines and environments notebook.sh must
// refuse (exit 2, nothing started), each with the message it must print.
var notebookRefusals = []struct {
	args []string
	env  []string
	want string
}{
	// Token overrides, every spelling Jupyter accepts (Notebook 6: NotebookApp, jupyter-server 2:
	// ServerApp and IdentityProvider; traitlets also reads a single dash and a space-separated value).
	{[]string{"--NotebookApp.token="}, nil, "refusing '--NotebookApp.token=': token authentication stays on"},
	{[]string{"--NotebookApp.token=''"}, nil, "refusing '--NotebookApp.token='''"},
	{[]string{"--NotebookApp.token", ""}, nil, "refusing '--NotebookApp.token'"},
	{[]string{"--NotebookApp.token", "''"}, nil, "refusing '--NotebookApp.token'"},
	{[]string{"--NotebookApp.token=abc"}, nil, "refusing '--NotebookApp.token=abc'"},
	{[]string{"--ServerApp.token=abc"}, nil, "refusing '--ServerApp.token=abc'"},
	{[]string{"--IdentityProvider.token", "abc"}, nil, "refusing '--IdentityProvider.token'"},
	{[]string{"-NotebookApp.token=abc"}, nil, "refusing '-NotebookApp.token=abc'"},
	{[]string{"--no-browser", "--ServerApp.TOKEN=x"}, nil, "refusing '--ServerApp.TOKEN=x'"},
	// Passwords.
	{[]string{"--NotebookApp.password="}, nil, "refusing '--NotebookApp.password='"},
	{[]string{"--ServerApp.password", "sha1:abc"}, nil, "refusing '--ServerApp.password'"},
	{[]string{"--PasswordIdentityProvider.hashed_password=argon2:x"}, nil, "refusing '--PasswordIdentityProvider.hashed_password=argon2:x'"},
	// XSRF, origins, other ways around the token, config files.
	{[]string{"--NotebookApp.disable_check_xsrf=True"}, nil, "refusing '--NotebookApp.disable_check_xsrf=True': XSRF protection stays on"},
	{[]string{"--ServerApp.disable_check_xsrf", "true"}, nil, "refusing '--ServerApp.disable_check_xsrf true'"},
	{[]string{"--NotebookApp.allow_origin=*"}, nil, "refusing '--NotebookApp.allow_origin=*': allow_origin=* lets every web site use the server"},
	{[]string{"--ServerApp.allow_origin", "*"}, nil, "refusing '--ServerApp.allow_origin *'"},
	{[]string{"--NotebookApp.allow_origin_pat=.*"}, nil, "refusing '--NotebookApp.allow_origin_pat=.*'"},
	{[]string{"--ServerApp.allow_unauthenticated_access=True"}, nil, "refusing '--ServerApp.allow_unauthenticated_access=True'"},
	{[]string{"--ServerApp.identity_provider_class=x.Y"}, nil, "refusing '--ServerApp.identity_provider_class=x.Y'"},
	{[]string{"--NotebookApp.login_handler_class=x.Y"}, nil, "refusing '--NotebookApp.login_handler_class=x.Y'"},
	{[]string{"--ServerApp.authenticate_prometheus=False"}, nil, "refusing '--ServerApp.authenticate_prometheus=False': the metrics page stays behind the token"},
	{[]string{"--NotebookApp.authenticate_prometheus", "0"}, nil, "refusing '--NotebookApp.authenticate_prometheus 0'"},
	{[]string{"--ServerApp.tornado_settings=xsrf_cookies=False"}, nil, "refusing '--ServerApp.tornado_settings=xsrf_cookies=False': it can switch off the XSRF and cookie checks"},
	{[]string{"--NotebookApp.webapp_settings", "xsrf_cookies=False"}, nil, "refusing '--NotebookApp.webapp_settings'"},
	{[]string{"--ServerApp.cookie_options=samesite=None"}, nil, "refusing '--ServerApp.cookie_options=samesite=None'"},
	// Host and origin checks: refused without --relax-host-checks (--allow-non-loopback is not
	// enough), in every spelling.
	{[]string{"--allow-non-loopback", "--ip=0.0.0.0", "--ServerApp.allow_remote_access=True"}, nil, "add --relax-host-checks if that is what you want"},
	{[]string{"--ServerApp.allow_remote_access=True"}, nil, "refusing '--ServerApp.allow_remote_access=True': it weakens Jupyter's host or origin checks"},
	{[]string{"--NotebookApp.allow_remote_access", "true"}, nil, "refusing '--NotebookApp.allow_remote_access true'"},
	{[]string{"--ServerApp.allow_remote_access", "--port=9000"}, nil, "refusing '--ServerApp.allow_remote_access --port=9000'"},
	{[]string{"--ServerApp.allow_remote_access"}, nil, "refusing '--ServerApp.allow_remote_access '"},
	{[]string{"-NotebookApp.allow_remote_access=1"}, nil, "refusing '-NotebookApp.allow_remote_access=1'"},
	{[]string{"--ServerApp.Allow_Remote_Access=TRUE"}, nil, "refusing '--ServerApp.Allow_Remote_Access=TRUE'"},
	{[]string{"--ServerApp.allow-remote-access=yes"}, nil, "refusing '--ServerApp.allow-remote-access=yes'"},
	{[]string{"--allow_remote_access=True"}, nil, "refusing '--allow_remote_access=True'"},
	{[]string{"--ServerApp.local_hostnames=evil.example"}, nil, "refusing '--ServerApp.local_hostnames=evil.example'"},
	{[]string{"--NotebookApp.local_hostnames", "localhost"}, nil, "refusing '--NotebookApp.local_hostnames localhost'"},
	{[]string{"--ServerApp.trust_xheaders=True"}, nil, "refusing '--ServerApp.trust_xheaders=True'"},
	{[]string{"--NotebookApp.allow_credentials", "True"}, nil, "refusing '--NotebookApp.allow_credentials True'"},
	{[]string{"--NotebookApp.allow_origin=https://example.org"}, nil, "refusing '--NotebookApp.allow_origin=https://example.org': it weakens"},
	{[]string{"--ServerApp.allow_origin", "https://example.org"}, nil, "refusing '--ServerApp.allow_origin https://example.org'"},
	// The opt-ins do not open what stays refused.
	{[]string{"--relax-host-checks", "--allow-non-loopback", "--ServerApp.allow_origin=*"}, nil, "refusing '--ServerApp.allow_origin=*'"},
	{[]string{"--relax-host-checks", "--ServerApp.disable_check_xsrf=True"}, nil, "XSRF protection stays on"},
	{[]string{"--relax-host-checks", "--ServerApp.tornado_settings=a=b"}, nil, "refusing '--ServerApp.tornado_settings=a=b'"},
	{[]string{"--config", "/tmp/x.py"}, nil, "refusing '--config': a config file could switch authentication off"},
	{[]string{"--NotebookApp.config_file=/tmp/x.py"}, nil, "refusing '--NotebookApp.config_file=/tmp/x.py'"},
	// Addresses other than loopback without the opt-in, and the empty one.
	{[]string{"--ip="}, nil, "--ip is empty, which binds every interface"},
	{[]string{"--ip", ""}, nil, "--ip is empty"},
	{[]string{"--ip", "0.0.0.0"}, nil, "refusing --ip 0.0.0.0: it is not a loopback address"},
	{[]string{"--ip=192.168.1.5"}, nil, "refusing --ip 192.168.1.5"},
	{[]string{"--NotebookApp.ip=0.0.0.0"}, nil, "refusing --ip 0.0.0.0"},
	{[]string{"--ServerApp.ip", "::"}, nil, "refusing --ip ::"},
	{[]string{"--ip", "127.0.0.1.evil.com"}, nil, "refusing --ip 127.0.0.1.evil.com"},
	{[]string{"--ip", "*"}, nil, "refusing --ip *"},
	{[]string{"--ip"}, nil, "--ip needs an address"},
	// Ports.
	{[]string{"--port", "0"}, nil, "--port 0 is out of range; want an integer in [1, 65535]"},
	{[]string{"--port=70000"}, nil, "--port 70000 is out of range"},
	{[]string{"--ServerApp.port", "abc"}, nil, "--port 'abc' is not a port number"},
	{[]string{"--port"}, nil, "--port needs a port number"},
	// Tokens from the environment.
	{nil, []string{"JUPYTER_TOKEN="}, "JUPYTER_TOKEN is set but empty"},
	{nil, []string{"SOD_TOKEN="}, "SOD_TOKEN is set but empty"},
	{nil, []string{"JUPYTER_TOKEN=abcdefgh1", "SOD_TOKEN=abcdefgh2"}, "JUPYTER_TOKEN and SOD_TOKEN are both set and differ"},
	{nil, []string{"SOD_TOKEN=short"}, "must have at least 8 characters"},
	{nil, []string{"JUPYTER_TOKEN=has spaces in it"}, "must have at least 8 characters, all of A-Z a-z 0-9 . _ ~ -"},
	{nil, []string{"SOD_JUPYTER=classic"}, "SOD_JUPYTER='classic': want lab or notebook"},
}

// TestNotebookGuardRefuses: every refusal exits 2 with its message and the
// usage line, and Jupyter is never started.
func TestNotebookGuardRefuses(t *testing.T) {
	for _, tc := range notebookRefusals {
		code, output, record := runGuard(t, tc.args, tc.env...)
		if code != 2 || !strings.Contains(output, tc.want) || !strings.Contains(output, "usage: scripts/notebook.sh") {
			t.Errorf("%q %q: exit %d, output %q; want exit 2 with %q", tc.args, tc.env, code, output, tc.want)
		}
		if record != "" {
			t.Errorf("%q %q: jupyter was started: %s", tc.args, tc.env, record)
		}
	}
}

// TestNotebookGuardAccepts: what is allowed starts Jupyter with the token
// in the environment only, the address and port asked for, and the URL
// printed for a browser on this machine.
func TestNotebookGuardAccepts(t *testing.T) {
	for _, tc := range []struct {
		args        []string
		env         []string
		argv, url   string // fragments of the stub's argv and of the printed URL
		token       string // JUPYTER_TOKEN Jupyter sees ("" = random, 48 hex digits)
		notInRecord string
	}{
		{nil, nil, "[notebook] [--notebook-dir=", "http://127.0.0.1:8888/tree?token=", "", "--NotebookApp.token"},
		{nil, []string{"SOD_TOKEN=abcdefgh12"}, "[--ip=127.0.0.1] [--port=8888]", "token=abcdefgh12", "abcdefgh12", "abcdefgh12] ["},
		{nil, []string{"JUPYTER_TOKEN=abcdefgh12", "SOD_TOKEN=abcdefgh12"}, "[--port-retries=0]", "token=abcdefgh12", "abcdefgh12", "SOD [abcdefgh12]"},
		{[]string{"--ip", "0.0.0.0", "--allow-non-loopback", "--port=9999"}, []string{"JUPYTER_TOKEN=t0k3n-xyz"}, "[--ip=0.0.0.0] [--port=9999]", "http://127.0.0.1:9999/tree?token=t0k3n-xyz", "t0k3n-xyz", ""},
		{[]string{"--allow-non-loopback", "--ServerApp.ip=10.1.2.3"}, nil, "[--ip=10.1.2.3]", "http://10.1.2.3:8888/", "", ""},
		{[]string{"--ip", "::1"}, nil, "[--ip=::1]", "http://[::1]:8888/", "", ""},
		{[]string{"--ip=localhost", "--port", "08080"}, nil, "[--ip=localhost] [--port=8080]", "http://localhost:8080/", "", ""},
		{[]string{"--ip", "127.0.0.2"}, nil, "[--ip=127.0.0.2]", "http://127.0.0.2:8888/", "", ""},
		{[]string{"--NotebookApp.allow_origin=https://example.org", "--ServerApp.disable_check_xsrf=False", "--relax-host-checks"}, nil,
			"[--NotebookApp.allow_origin=https://example.org] [--ServerApp.disable_check_xsrf=False]", "", "", ""},
		{[]string{"--ServerApp.allow_remote_access", "true", "--ServerApp.trust_xheaders=True", "--relax-host-checks"}, nil,
			"[--ServerApp.allow_remote_access] [true] [--ServerApp.trust_xheaders=True]", "", "", ""},
		{[]string{"--relax-host-checks", "--NotebookApp.local_hostnames=box.lan", "--ServerApp.allow_credentials=True"}, nil,
			"[--NotebookApp.local_hostnames=box.lan] [--ServerApp.allow_credentials=True]", "", "", ""},
		{[]string{"--ServerApp.allow_remote_access=False", "--NotebookApp.allow_credentials", "0", "--ServerApp.authenticate_prometheus=True"}, nil,
			"[--ServerApp.allow_remote_access=False] [--NotebookApp.allow_credentials] [0] [--ServerApp.authenticate_prometheus=True]", "", "", ""},
		{[]string{"--NotebookApp.log_level", "DEBUG", "--browser"}, nil, "[--NotebookApp.log_level] [DEBUG]", "", "", "--no-browser"},
		{nil, []string{"SOD_JUPYTER=lab"}, "[lab] [--notebook-dir=", "/lab?token=", "", ""},
	} {
		code, output, record := runGuard(t, tc.args, tc.env...)
		if code != 0 {
			t.Errorf("%q %q: exit %d: %s", tc.args, tc.env, code, output)
			continue
		}
		if !strings.Contains(record, tc.argv) || !strings.Contains(output, tc.url) {
			t.Errorf("%q %q: argv %q lacks %q or output %q lacks %q", tc.args, tc.env, record, tc.argv, output, tc.url)
		}
		argv, rest, _ := strings.Cut(record, "\n")
		token := strings.TrimSuffix(strings.TrimPrefix(strings.SplitN(rest, "\n", 2)[0], "TOKEN ["), "]")
		if tc.token != "" && token != tc.token || tc.token == "" && len(token) != 48 {
			t.Errorf("%q %q: Jupyter sees JUPYTER_TOKEN %q, want %q (or a random one)", tc.args, tc.env, token, tc.token)
		}
		if strings.Contains(argv, token) {
			t.Errorf("%q %q: the token is on Jupyter's command line: %s", tc.args, tc.env, argv)
		}
		if !strings.Contains(output, "token="+token) {
			t.Errorf("%q %q: the printed URL does not carry the token Jupyter uses:\n%s", tc.args, tc.env, output)
		}
		if tc.notInRecord != "" && strings.Contains(record, tc.notInRecord) {
			t.Errorf("%q %q: record has %q:\n%s", tc.args, tc.env, tc.notInRecord, record)
		}
	}
}

// TestNotebookServerToken starts the real Jupyter through notebook.sh (when
// it is installed) and checks what the guard relies on: the token reaches
// Jupyter through JUPYTER_TOKEN alone (requests without it get 403, with it
// 200), and it is not on any process's command line.
func TestNotebookServerToken(t *testing.T) {
	if _, err := exec.LookPath("jupyter"); err != nil {
		t.Skip("jupyter not installed")
	}
	if out, err := exec.Command("jupyter", "kernelspec", "list").Output(); err != nil || !bytes.Contains(out, []byte("gonb")) {
		t.Skip("the gonb kernel is not installed")
	}
	var tb [16]byte
	_, _ = rand.Read(tb[:])
	token := hex.EncodeToString(tb[:])
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command("./notebook.sh", "--port", fmt.Sprint(port))
	env := deleteEnv(deleteEnv(os.Environ(), "SOD_TOKEN"), "JUPYTER_TOKEN")
	cmd.Env = append(env, "JUPYTER_TOKEN="+token, "JUPYTER_RUNTIME_DIR="+t.TempDir())
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("notebook.sh output:\n%s", log.String())
		}
	}()
	url := fmt.Sprintf("http://127.0.0.1:%d/api/status", port)
	get := func(tok string) int {
		req, _ := http.NewRequest("GET", url, nil)
		if tok != "" {
			req.Header.Set("Authorization", "token "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	deadline := time.Now().Add(60 * time.Second)
	for get(token) != 200 {
		if time.Now().After(deadline) {
			t.Fatalf("the server did not answer with the token within 60 s")
		}
		time.Sleep(200 * time.Millisecond)
	}
	if c := get(""); c != 403 {
		t.Errorf("without the token: HTTP %d, want 403", c)
	}
	if c := get("wrong-token"); c != 403 {
		t.Errorf("with a wrong token: HTTP %d, want 403", c)
	}
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte(token)) {
			t.Errorf("the token is on a command line (%s): %q", p, bytes.ReplaceAll(b, []byte{0}, []byte{' '}))
		}
	}
}

// deleteEnv returns env without its NAME=… entries.
func deleteEnv(env []string, name string) []string {
	var out []string
	for _, e := range env {
		if !strings.HasPrefix(e, name+"=") {
			out = append(out, e)
		}
	}
	return out
}
