package docker

import (
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// runImageStep runs docker/image-step.sh with args, and env added to a clean environment (no
// SOD_* set).
func runImageStep(t *testing.T, args, env []string) (string, int) {
	t.Helper()
	cmd := exec.Command("./image-step.sh", args...)
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "SOD_") {
			cmd.Env = append(cmd.Env, e)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return string(out), 0
	case errors.As(err, &ee):
		return string(out), ee.ExitCode()
	}
	t.Fatalf("image-step.sh: %v", err)
	return "", -1
}

// TestImageStepDecisions: the image step never skips silently, says why, and fails only when
// asked to treat a skip as a failure or when asked for a mode it does not know. (The paths that
// build are exercised by docker/test-image.sh itself.)
func TestImageStepDecisions(t *testing.T) {
	measured := regexp.MustCompile(`(?m)^image_ci_measured_min=([0-9]+)$`)
	src, err := os.ReadFile("image-step.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := measured.FindSubmatch(src)
	if m == nil {
		t.Fatal("image-step.sh does not record the measured cost (image_ci_measured_min=N)")
	}
	tests := []struct {
		name string
		args []string
		env  []string
		code int
		want []string
	}{
		{"not asked", nil, nil, 0, []string{"image test SKIPPED: not asked for", "SOD_IMAGE_TEST=ci"}},
		{"not asked, required", nil, []string{"SOD_REQUIRE_IMAGE=1"}, 1, []string{"image test SKIPPED: not asked for", "SOD_REQUIRE_IMAGE=1"}},
		{"unknown mode", nil, []string{"SOD_IMAGE_TEST=yes"}, 2, []string{"SOD_IMAGE_TEST=yes: want 0, 1 or ci"}},
		{"unknown option", []string{"--budget"}, nil, 2, []string{"usage: docker/image-step.sh"}},
		{"bad budget", []string{"--budget-min", "x"}, nil, 2, []string{"--budget-min wants a whole number"}},
		{"ci over budget on 2 cores", []string{"--budget-min", "0", "--nproc", "2"}, []string{"SOD_IMAGE_TEST=ci"}, 0,
			[]string{"image test SKIPPED: the CI profile of the image test takes " + string(m[1]) + " min cold on 2 cores", "more than the 0 min CI gives it", "this machine has 2 cores"}},
		{"ci over budget, required", []string{"--budget-min", "0", "--nproc", "2"}, []string{"SOD_IMAGE_TEST=ci", "SOD_REQUIRE_IMAGE=1"}, 1,
			[]string{"image test SKIPPED: the CI profile", "SOD_REQUIRE_IMAGE=1"}},
	}
	for _, tc := range tests {
		out, code := runImageStep(t, tc.args, tc.env)
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d\n%s", tc.name, code, tc.code, out)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", tc.name, w, out)
			}
		}
	}
}
