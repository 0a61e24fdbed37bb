//go:build !linux

package escapebench

import "time"

// threadCPU reports −1 (unknown): per-thread CPU time is measured on Linux
// only; the wall time of the run is recorded on every system.
func threadCPU() func() time.Duration {
	return func() time.Duration { return -1 }
}
