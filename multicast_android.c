// The multicast lock of an Android app, through JNI: Android drops the
// multicast packets mDNS needs unless an app holds a
// WifiManager.MulticastLock. Built only for Android (the file name says
// so); multicast_android.go calls it from the JVM's thread that Fyne's
// driver.RunNative lends.

#include <jni.h>
#include <stddef.h>
#include <stdint.h>

#include "multicast_android.h"

// failed clears a pending Java exception and reports whether there was one.
static int failed(JNIEnv *env) {
	if ((*env)->ExceptionCheck(env)) {
		(*env)->ExceptionClear(env);
		return 1;
	}
	return 0;
}

jobject njet_multicast_acquire(uintptr_t envp, uintptr_t ctxp, const char **err) {
	JNIEnv *env = (JNIEnv *)envp;
	jobject ctx = (jobject)ctxp;
	jobject lock = NULL, global = NULL;
	*err = NULL;

	jclass ctxClass = (*env)->GetObjectClass(env, ctx);
	jmethodID getService = (*env)->GetMethodID(env, ctxClass, "getSystemService", "(Ljava/lang/String;)Ljava/lang/Object;");
	if (getService == NULL || failed(env)) {
		*err = "Context.getSystemService not found";
		goto out;
	}
	jstring wifiName = (*env)->NewStringUTF(env, "wifi"); // Context.WIFI_SERVICE
	if (wifiName == NULL || failed(env)) {
		*err = "no memory for a string";
		goto out;
	}
	jobject wifi = (*env)->CallObjectMethod(env, ctx, getService, wifiName);
	(*env)->DeleteLocalRef(env, wifiName);
	if (wifi == NULL || failed(env)) {
		*err = "no WifiManager on this device";
		goto out;
	}
	jclass wifiClass = (*env)->GetObjectClass(env, wifi);
	jmethodID create = (*env)->GetMethodID(env, wifiClass, "createMulticastLock",
		"(Ljava/lang/String;)Landroid/net/wifi/WifiManager$MulticastLock;");
	if (create == NULL || failed(env)) {
		*err = "WifiManager.createMulticastLock not found";
		goto out;
	}
	jstring tag = (*env)->NewStringUTF(env, "njet-mdns");
	if (tag == NULL || failed(env)) {
		*err = "no memory for a string";
		goto out;
	}
	lock = (*env)->CallObjectMethod(env, wifi, create, tag);
	(*env)->DeleteLocalRef(env, tag);
	if (lock == NULL || failed(env)) {
		*err = "WifiManager.createMulticastLock failed";
		goto out;
	}
	jclass lockClass = (*env)->GetObjectClass(env, lock);
	jmethodID acquire = (*env)->GetMethodID(env, lockClass, "acquire", "()V");
	if (acquire == NULL || failed(env)) {
		*err = "MulticastLock.acquire not found";
		goto out;
	}
	(*env)->CallVoidMethod(env, lock, acquire);
	if (failed(env)) {
		*err = "MulticastLock.acquire refused (is CHANGE_WIFI_MULTICAST_STATE in the manifest?)";
		goto out;
	}
	global = (*env)->NewGlobalRef(env, lock);
	if (global == NULL) {
		*err = "no memory for a global reference";
	}
out:
	if (lock != NULL) {
		(*env)->DeleteLocalRef(env, lock);
	}
	return global;
}

int njet_multicast_release(uintptr_t envp, jobject lock, const char **err) {
	JNIEnv *env = (JNIEnv *)envp;
	int ok = 0;
	*err = NULL;
	jclass lockClass = (*env)->GetObjectClass(env, lock);
	jmethodID release = (*env)->GetMethodID(env, lockClass, "release", "()V");
	if (release == NULL || failed(env)) {
		*err = "MulticastLock.release not found";
	} else {
		(*env)->CallVoidMethod(env, lock, release);
		if (failed(env)) {
			*err = "MulticastLock.release failed";
		} else {
			ok = 1;
		}
	}
	(*env)->DeleteGlobalRef(env, lock);
	return ok;
}
