package reproducecli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod/reproduction"
)

// TestReportCommand runs the subcommand end to end through run: the report
// on stdout, byte for byte the committed one (package sod/reproduction's
// TestReportUpToDate keeps that equal to a fresh render), a usage error
// (exit status 2) for arguments, -h.
func TestReportCommand(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("..", "..", reproduction.File))
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"report"}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) || errb.Len() != 0 {
		t.Errorf("report printed %d bytes (want the %d of %s), stderr %q", out.Len(), len(want), reproduction.File, errb.String())
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"report", "ablation"}, 2, "takes no arguments"},
		{[]string{"report", "-out", "x"}, 2, "flag provided but not defined"},
		{[]string{"report", "-h"}, 0, ""},
	} {
		out.Reset()
		err := run(context.Background(), tc.args, &out, &errb)
		if exitCode(err) != tc.code || (tc.want != "" && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%v: exit %d, error %v; want exit %d with %q", tc.args, exitCode(err), err, tc.code, tc.want)
		}
		if tc.code == 0 && (!errors.Is(err, flag.ErrHelp) || !strings.Contains(out.String(), reproduction.RegenerateCommand)) {
			t.Errorf("%v: help %q", tc.args, out.String())
		}
	}
}
