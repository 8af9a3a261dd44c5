//go:build !unix

package tablelog

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// held names the store files open in this process, where the platform
// offers no flock: two processes on one data directory are then the
// caller's affair, but one process never opens a store twice.
var held = struct {
	sync.Mutex
	m map[string]bool
}{m: map[string]bool{}}

// lockFile marks f's path as open in this process, waiting up to timeout
// for another Store of this process to close it.
func lockFile(f *os.File, timeout time.Duration) (func() error, error) {
	path, err := filepath.Abs(f.Name())
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(timeout)
	for {
		held.Lock()
		if !held.m[path] {
			held.m[path] = true
			held.Unlock()
			return func() error {
				held.Lock()
				delete(held.m, path)
				held.Unlock()
				return nil
			}, nil
		}
		held.Unlock()
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the store is open already (waited %v)", timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
