package main

import (
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
