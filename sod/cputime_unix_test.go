//go:build unix

package sod

import (
	"syscall"
	"testing"
	"time"
)

// cpuMetric starts measuring the process's CPU time (user + system) and
// returns a function that reports it per operation as "cpu-ns/op". On a
// shared machine wall time (ns/op) includes the time the benchmark waited
// for a core; CPU time does not, so it is the figure to compare when the
// load is high. Call it after setup, and the returned function after the
// loop. The benchmarks are single-threaded, so CPU time ≈ work.
func cpuMetric(b *testing.B) func() {
	start := cpuNow()
	return func() {
		b.ReportMetric(float64(cpuNow()-start)/float64(b.N), "cpu-ns/op")
	}
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
