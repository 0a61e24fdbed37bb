package live

import (
	"bytes"
	"testing"
)

// TestTraceFilter checks the interpreter's standard error: what the
// program writes (the log package of a package the interpreter compiles
// from source, such as must's "2026/11/28 13:49:36 Must not error: …")
// passes as Go prints it, text that looks like a position ("12:5:")
// included, and yaegi's line for each function a panic leaves is dropped.
func TestTraceFilter(t *testing.T) {
	tests := []struct{ write, want string }{
		{"2026/11/28 13:49:36 Must not error: x\n", "2026/11/28 13:49:36 Must not error: x\n"},
		{"12:5: not a position\n", "12:5: not a position\n"},
		{"ratio (7:1) and 3:4:\n", "ratio (7:1) and 3:4:\n"},
		{"_.go:12:3: panic: main.f(...)\n", ""},
		{"14:2: panic: main.main.func1(...)\n", ""},
		{"14:2: panic: main.f(...)\nand more\n", "14:2: panic: main.f(...)\nand more\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		n, err := traceFilter{&b}.Write([]byte(tt.write))
		if err != nil || n != len(tt.write) || b.String() != tt.want {
			t.Errorf("Write(%q) = %d, %v, wrote %q; want %d, nil, %q", tt.write, n, err, b.String(), len(tt.write), tt.want)
		}
	}
}
