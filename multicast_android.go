//go:build android && !nogui

package main

/*
#include <stdlib.h>
#include "multicast_android.h"
*/
import "C"

import (
	"fmt"
	"sync"

	"fyne.io/fyne/v2/driver"
)

// heldLock is the app's one multicast lock, held while anyone needs it.
var heldLock struct {
	sync.Mutex
	users int
	ref   C.jobject
}

// multicastLock acquires Android's Wi-Fi multicast lock, without which
// the system drops the mDNS packets that find and advertise tables: the
// first user acquires it through Fyne's native driver (JNI on the JVM's
// thread), the last release lets it go. release is safe to call more
// than once.
func multicastLock() (release func(), err error) {
	heldLock.Lock()
	defer heldLock.Unlock()
	if heldLock.users == 0 {
		err := driver.RunNative(func(ctx any) error {
			ac, ok := ctx.(*driver.AndroidContext)
			if !ok {
				return fmt.Errorf("njet: no Android context for the multicast lock (%T)", ctx)
			}
			var cerr *C.char
			ref := C.njet_multicast_acquire(C.uintptr_t(ac.Env), C.uintptr_t(ac.Ctx), &cerr)
			if ref == 0 {
				return fmt.Errorf("njet: multicast lock: %s", C.GoString(cerr))
			}
			heldLock.ref = ref
			return nil
		})
		if err != nil {
			return func() {}, err
		}
	}
	heldLock.users++
	var once sync.Once
	return func() { once.Do(releaseMulticast) }, nil
}

// releaseMulticast drops one user of the lock, and the lock with the
// last one. A failure to release is not worth telling: the system frees
// the lock with the app.
func releaseMulticast() {
	heldLock.Lock()
	defer heldLock.Unlock()
	heldLock.users--
	if heldLock.users > 0 || heldLock.ref == 0 {
		return
	}
	ref := heldLock.ref
	heldLock.ref = 0
	_ = driver.RunNative(func(ctx any) error {
		ac, ok := ctx.(*driver.AndroidContext)
		if !ok {
			return nil
		}
		var cerr *C.char
		C.njet_multicast_release(C.uintptr_t(ac.Env), ref, &cerr)
		return nil
	})
}
