package main

import (
	"context"
	"os"
	"strings"
	"testing"
)

// TestParseNotebookRefusals: every notebook the grader cannot run is refused with a message that
// says what is wrong, before anything runs (a deeply nested JSON once reached nbconvert and came
// back as a fragment of a Python traceback).
func TestParseNotebookRefusals(t *testing.T) {
	cell := func(extra string) string {
		return `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [` + extra + `]}`
	}
	deep := strings.Repeat(`{"a": `, 5000) + "1" + strings.Repeat("}", 5000)
	for _, tc := range []struct{ name, json, want string }{
		{"not JSON", "{ this is not", "not a notebook (invalid JSON"},
		{"nested deep", cell(`{"cell_type": "code", "source": "", "metadata": ` + deep + `}`), "nested 5003 deep, more than any notebook (at most 64 levels)"},
		{"nested lists", strings.Repeat("[", 100000), "nested 100000 deep"},
		{"no cells", `{"nbformat": 4}`, "no cells list"},
		{"nbformat 3", `{"nbformat": 3, "cells": []}`, "nbformat 3, want 4"},
		{"no nbformat", `{"cells": []}`, "nbformat <nil>, want 4"},
		{"cell not object", cell(`1`), "cell 0 is not an object"},
		{"cell type", cell(`{"cell_type": "python", "source": ""}`), `cell 0 has cell_type "python"`},
		{"no source", cell(`{"cell_type": "code"}`), "cell 0 has no source text"},
		{"source numbers", cell(`{"cell_type": "code", "source": [1, 2]}`), "cell 0 has no source text"},
		{"metadata list", cell(`{"cell_type": "code", "source": "", "metadata": []}`), "cell 0's metadata is not an object"},
		{"bad id", cell(`{"cell_type": "code", "source": "", "id": "a b"}`), `cell 0's id "a b" is not`},
		{"id number", cell(`{"cell_type": "code", "source": "", "id": 7}`), `cell 0's id "7" is not`},
		{"same id", cell(`{"cell_type": "code", "source": "", "id": "x"}, {"cell_type": "markdown", "source": "", "id": "x"}`), `cell 1's id "x" is used by an earlier cell`},
		{"grader's id", cell(`{"cell_type": "code", "source": "", "id": "sodgrade-99-1"}`), "of the form the grader gives its own cells"},
		{"fine", cell(`{"cell_type": "code", "source": ["a", "b"], "metadata": {}, "id": "x"}, {"cell_type": "raw", "source": "[[[{"}`), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nb, err := parseNotebook([]byte(tc.json))
			if err == nil {
				err = studentCells(nb)
			}
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestCheckSubmissionRefusals: what the grader promises to refuse it refuses before anything
// runs, with nbformat's own validator and a line per reason: an nbformat_minor that is not a
// number or is negative, no or a string top-level metadata, a markdown cell with outputs,
// malformed attachments; and a notebook larger than -notebook-size, sized apart from -output.
func TestCheckSubmissionRefusals(t *testing.T) {
	python, err := nbformatPython()
	if err != nil {
		if os.Getenv("SOD_REQUIRE_NOTEBOOKS") == "1" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	r := &runner{limits: defaultLimits, python: python}
	code := `{"cell_type": "code", "id": "a", "metadata": {}, "source": "x", "outputs": [], "execution_count": null}`
	nb := func(minor, meta, cells string) string {
		s := `{"nbformat": 4, "nbformat_minor": ` + minor
		if meta != "" {
			s += `, "metadata": ` + meta
		}
		return s + `, "cells": [` + cells + `]}`
	}
	md := func(extra string) string {
		return `{"cell_type": "markdown", "id": "m", "metadata": {}, "source": "x"` + extra + `}`
	}
	big := nb("5", "{}", `{"cell_type": "raw", "id": "r", "metadata": {}, "source": "`+strings.Repeat("x", 9<<20)+`"}`)
	for _, tc := range []struct{ name, json, want string }{
		{"minor x", nb(`"x"`, "{}", code), "nbformat_minor: 'x' is not of type 'integer'"},
		{"minor -1", nb("-1", "{}", code), "nbformat_minor: -1 is less than the minimum of"},
		{"no metadata", nb("5", "", code), "top level: 'metadata' is a required property"},
		{"string metadata", nb("5", `"s"`, code), "metadata: 's' is not of type 'object'"},
		{"markdown outputs", nb("5", "{}", md(`, "outputs": []`)), "cells/0: Additional properties are not allowed ('outputs' was unexpected)"},
		{"attachment string", nb("5", "{}", md(`, "attachments": {"a.png": "zz"}`)), "cells/0/attachments/a.png: 'zz' is not of type 'object'"},
		{"attachment number", nb("5", "{}", md(`, "attachments": {"a.png": {"image/png": 5}}`)), "cells/0/attachments/a.png/image/png: 5 is not valid"},
		{"two reasons", nb(`"x"`, `"s"`, code), "; "},
		{"too large", big, "larger than the limit of a submitted notebook (-notebook-size 8 MiB)"},
		{"fine", nb("5", "{}", code+", "+md(`, "attachments": {"a.png": {"image/png": "aGk="}}`)), ""},
		{"fine 4.4", `{"nbformat": 4, "nbformat_minor": 4, "metadata": {}, "cells": [{"cell_type": "code", "metadata": {}, "source": "x", "outputs": [], "execution_count": null}]}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.checkSubmission(context.Background(), []byte(tc.json))
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want one containing %q", err, tc.want)
			case err != nil && strings.Contains(err.Error(), "\n"):
				t.Errorf("error %q spans lines", err)
			}
		})
	}
}
