// Package host reads what a timing belongs to: the machine's CPU model and
// its load averages (Linux's /proc). A time measured on one CPU does not hold
// on another, and a time measured on a loaded machine is read beside the load.
package host

import (
	"bufio"
	"os"
	"strings"
)

// CPUModel returns the CPU's model name from /proc/cpuinfo, or "unknown"
// where the file or the field is missing.
func CPUModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// LoadAverage returns the 1, 5 and 15 minute load averages from
// /proc/loadavg, separated by spaces (e.g. "2.40 3.73 3.41"), or "" where
// the file is missing or malformed.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
