//go:build !android && !nogui

package main

// multicastLock does nothing: only Android drops multicast packets unless
// an app holds a lock, so other systems need none. See
// multicast_android.go.
func multicastLock() (release func(), err error) { return func() {}, nil }
