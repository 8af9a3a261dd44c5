// Package clocale names English as the language of a process that runs
// under the C locale with an encoding (LANG=C.UTF-8, common in containers
// and minimal systems), before any other package reads the environment.
//
// Fyne's lang package picks its language when it is initialised, in every
// run of the njet binary, the terminal commands included. It takes the
// language from LC_ALL, LC_MESSAGES or LANG, and from LANGUAGE unless the
// locale is exactly "C" or "POSIX". "C.UTF-8" is neither, so its language
// part "C" reaches the language tag parser, which refuses it and logs an
// error to stderr before main runs. Setting LANGUAGE to "en" for such a
// locale gives fyne a language it knows, and the same English the C
// locale means.
//
// The package must be initialised before fyne's lang package: main
// imports it, and it imports nothing but os. Go initialises packages in
// import-path order as soon as their imports are; this path sorts before
// "log", which fyne imports and which itself needs os, so it always runs
// first.
package clocale

import "os"

func init() {
	if lang, ok := Language(os.Getenv); ok {
		_ = os.Setenv("LANGUAGE", lang) // cannot fail for a valid name
	}
}

// Language returns the LANGUAGE a process with the environment getenv
// should have, and true, when its locale is the C or POSIX locale with an
// encoding or a modifier and LANGUAGE names no other language; false
// when the environment needs no change.
func Language(getenv func(string) string) (string, bool) {
	locale := ""
	for _, name := range [...]string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if locale = getenv(name); locale != "" {
			break
		}
	}
	if locale == "C" || locale == "POSIX" {
		return "", false // read as English as it stands
	}
	if languages := getenv("LANGUAGE"); languages != "" {
		if isC(languages) {
			return "en", true
		}
		return "", false
	}
	if isC(locale) {
		return "en", true
	}
	return "", false
}

// isC reports whether the first entry of a locale or language list is the
// C or POSIX locale: its language part, before any of "_.@:-", is "C" or
// "POSIX".
func isC(locale string) bool {
	end := len(locale)
	for i := 0; i < len(locale) && end == len(locale); i++ {
		switch locale[i] {
		case '_', '.', '@', ':', '-':
			end = i
		}
	}
	lang := locale[:end]
	return lang == "C" || lang == "POSIX"
}
