//go:build linux

package escapebench

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTimeID is Linux's CLOCK_THREAD_CPUTIME_ID.
const clockThreadCPUTimeID = 3

// threadCPU starts measuring the CPU time of the calling goroutine, which
// it locks to its OS thread, and returns the function that stops and
// reports it (clock_gettime(CLOCK_THREAD_CPUTIME_ID): nanosecond
// resolution, unlike getrusage's scheduler ticks). Work the run hands to
// other goroutines (gonum's parallel BLAS, for large matrices) is not
// included.
func threadCPU() func() time.Duration {
	runtime.LockOSThread()
	start, ok := threadNow()
	return func() time.Duration {
		end, ok2 := threadNow()
		runtime.UnlockOSThread()
		if !ok || !ok2 {
			return -1
		}
		return end - start
	}
}

func threadNow() (time.Duration, bool) {
	var ts syscall.Timespec
	if _, _, e := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
