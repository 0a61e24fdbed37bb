// Package notebooksetup is the notebooks' set-up cell: it points the Go
// module GoNB builds the cells in at the workbench module the notebook lives
// in, so that the cells can import sodworkbench.org/workbench/... without
// any network. Command sod/cmd/setup runs it:
//
//	!*cd "$GONB_DIR" && go run sodworkbench.org/workbench/sod/cmd/setup
package notebooksetup

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ModulePath is the workbench module's path.
const ModulePath = "sodworkbench.org/workbench"

// zeroVersion is the version required: any version, since the replace
// directive points at the folder.
const zeroVersion = "v0.0.0-00010101000000-000000000000"

// ModuleRoot returns the folder of the workbench module that holds dir: the
// nearest folder, from dir up, with a go.mod declaring ModulePath.
func ModuleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if modulePath(filepath.Join(d, "go.mod")) == ModulePath {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%s is not inside the workbench module (no go.mod declaring %s in it or above it): open the notebook from a checkout of the workbench", dir, ModulePath)
		}
	}
}

// modulePath returns the module path a go.mod declares ("" if none).
func modulePath(gomod string) string {
	f, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(s.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// Run makes the cells' module (GoNB's $GONB_TMP_DIR) require the
// workbench module that holds the notebook's folder (the current folder,
// $GONB_DIR), replaced by that folder, and writes which folder to w. It
// changes nothing when the cells' module is not found.
func Run(w io.Writer, notebookDir, cellsDir string) error {
	if cellsDir == "" {
		return errors.New("GONB_TMP_DIR is not set: run this in a notebook's set-up cell (!*cd \"$GONB_DIR\" && go run sodworkbench.org/workbench/sod/cmd/setup)")
	}
	if _, err := os.Stat(filepath.Join(cellsDir, "go.mod")); err != nil {
		return fmt.Errorf("the cells' module: %w", err)
	}
	root, err := ModuleRoot(notebookDir)
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "mod", "edit", "-require="+ModulePath+"@"+zeroVersion, "-replace="+ModulePath+"="+root)
	cmd.Dir = cellsDir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go mod edit in %s: %v: %s", cellsDir, err, out)
	}
	_, err = fmt.Fprintf(w, "workbench module: %s\n", root)
	return err
}
