package host

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestLoadAverage(t *testing.T) {
	if _, err := os.Stat("/proc/loadavg"); err != nil {
		if LoadAverage() != "" {
			t.Fatalf("LoadAverage() = %q without /proc/loadavg, want \"\"", LoadAverage())
		}
		t.Skip("no /proc/loadavg")
	}
	f := strings.Fields(LoadAverage())
	if len(f) != 3 {
		t.Fatalf("LoadAverage() = %q, want three numbers", LoadAverage())
	}
	for _, s := range f {
		if v, err := strconv.ParseFloat(s, 64); err != nil || v < 0 {
			t.Errorf("load %q is not a non-negative number", s)
		}
	}
}

func TestCPUModel(t *testing.T) {
	if m := CPUModel(); m == "" {
		t.Fatal("CPUModel() is empty, want a model name or \"unknown\"")
	}
}
