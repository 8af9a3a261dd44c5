//go:build unix

package tablelog

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lockFile takes an exclusive advisory lock on f, so that two processes
// never append to one store, waiting up to timeout for another holder.
func lockFile(f *os.File, timeout time.Duration) (func() error, error) {
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("another process holds the store (waited %v)", timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
