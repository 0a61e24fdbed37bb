package scripts

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// bookErrorsDir holds a notebook whose cells fail in every way a cell can
// (compile error, panic, failed `!` line, a `go get` that cannot succeed),
// and expected.txt, what scripts/book.sh must print about it.
const bookErrorsDir = "testdata/book-errors"

// bookExpected reads the lines book.sh must print for bookErrorsDir.
func bookExpected(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(bookErrorsDir + "/expected.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var want []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := sc.Text(); l != "" && !strings.HasPrefix(l, "#") {
			want = append(want, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		t.Fatal("expected.txt lists nothing")
	}
	return want
}

// TestBookFailsOnCellErrors runs scripts/book.sh with this host's Jupyter
// (Notebook 6 and nbconvert 6 on bookworm; the image build runs the same
// check with trixie's nbconvert 7, docker/image-build.sh) on a notebook
// whose cells fail: book.sh must exit 1 and name every failing cell.
// Skipped without Jupyter and the gonb kernel, unless SOD_REQUIRE_NOTEBOOKS=1.
func TestBookFailsOnCellErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("executes a notebook")
	}
	if err := jupyterWithGonb(); err != nil {
		if os.Getenv("SOD_REQUIRE_NOTEBOOKS") == "1" {
			t.Fatalf("cannot execute notebooks: %v (SOD_REQUIRE_NOTEBOOKS=1): run scripts/install.sh", err)
		}
		t.Skipf("cannot execute notebooks: %v (scripts/install.sh installs them)", err)
	}
	want := bookExpected(t)
	cmd := exec.Command("./book.sh", "--no-check", "--no-live", "--notebooks", bookErrorsDir, "-o", t.TempDir())
	cmd.Env = append(os.Environ(), "GOPROXY=off")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
		t.Errorf("book.sh exited 0 on a notebook whose cells fail")
	case !errors.As(err, &ee) || ee.ExitCode() != 1:
		t.Errorf("book.sh: %v, want exit status 1", err)
	}
	for _, w := range want {
		if !bytes.Contains(out, []byte(w)) {
			t.Errorf("book.sh did not print %q", w)
		}
	}
	if t.Failed() {
		t.Logf("book.sh output:\n%s", out)
	}
}

// jupyterWithGonb says why notebooks cannot be executed here, or nil.
func jupyterWithGonb() error {
	if _, err := exec.LookPath("jupyter"); err != nil {
		return errors.New("jupyter not installed")
	}
	if out, err := exec.Command("jupyter", "kernelspec", "list").Output(); err != nil || !bytes.Contains(out, []byte("gonb")) {
		return errors.New("the gonb kernel is not installed")
	}
	return nil
}
