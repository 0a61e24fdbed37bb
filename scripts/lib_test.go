package scripts

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// TestLibHelpers: the shell helpers every script sources (lib.sh) print with the script's
// prefix, fail with exit status 1 after the script's on_die, and time the steps that passed.
func TestLibHelpers(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	tests := []struct {
		name   string
		script string
		code   int
		stdout []string
		stderr []string
	}{
		{"say", `say hello world`, 0, []string{"[demo] hello world\n"}, nil},
		{"die", `die "no such thing"; echo after`, 1, nil, []string{"[demo] FAIL: no such thing\n"}},
		{"die runs on_die", `on_die() { echo "summary: $step_passed passed"; }; step one true; die broken`, 1,
			[]string{"summary: 1 passed"}, []string{"[demo] FAIL: broken"}},
		{"steps", `step "first" true; step "second" sleep 0; printf '%s\n' "${step_timings[@]}"; echo "passed=$step_passed"`, 0,
			[]string{"[demo] == first\n", "[demo] first: ok in ", "s  first\n", "s  second\n", "passed=2\n"}, nil},
		{"a failing step stops the script", `set -e; step "bad" false; echo after`, 1,
			[]string{"[demo] == bad\n"}, nil},
		{"random token", `t=$(random_token); [ ${#t} = 32 ] && [[ $t =~ ^[0-9a-f]+$ ]] && echo ok`, 0, []string{"ok\n"}, nil},
	}
	for _, tc := range tests {
		cmd := exec.Command("bash", "-c", "lib_name=demo; . ./lib.sh; "+tc.script)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d (stdout %q, stderr %q)", tc.name, code, tc.code, stdout.String(), stderr.String())
		}
		for _, w := range tc.stdout {
			if !strings.Contains(stdout.String(), w) {
				t.Errorf("%s: stdout %q lacks %q", tc.name, stdout.String(), w)
			}
		}
		for _, w := range tc.stderr {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("%s: stderr %q lacks %q", tc.name, stderr.String(), w)
			}
		}
		if strings.Contains(stdout.String(), "after") {
			t.Errorf("%s: the script went on after failing: %q", tc.name, stdout.String())
		}
	}
}
