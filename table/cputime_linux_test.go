package table

import (
	"syscall"
	"time"
)

// threadCPU returns the processor time the calling OS thread has used (user
// and system), and true. The caller locks its goroutine to its thread. On a
// shared machine it measures a decision's cost apart from the time spent
// waiting for a core.
func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
