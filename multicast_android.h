// The multicast lock's C part (multicast_android.c), for
// multicast_android.go.

#include <jni.h>
#include <stdint.h>

// njet_multicast_acquire acquires a WifiManager.MulticastLock of the
// Android Context ctxp with the JNIEnv envp of the calling thread. It
// returns a global reference to the lock, or NULL with *err saying which
// step failed.
jobject njet_multicast_acquire(uintptr_t envp, uintptr_t ctxp, const char **err);

// njet_multicast_release releases the lock and frees its global
// reference. It returns 1, or 0 with *err saying what failed.
int njet_multicast_release(uintptr_t envp, jobject lock, const char **err);
