package clocale

import "testing"

func TestLanguage(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string // "" when the environment needs no change
	}{
		{"C.UTF-8", map[string]string{"LANG": "C.UTF-8"}, "en"},
		{"C.utf8 in LC_ALL", map[string]string{"LC_ALL": "C.utf8", "LANG": "de_DE.UTF-8"}, "en"},
		{"POSIX with a modifier", map[string]string{"LC_MESSAGES": "POSIX@euro"}, "en"},
		{"plain C", map[string]string{"LANG": "C"}, ""},
		{"plain POSIX", map[string]string{"LC_ALL": "POSIX"}, ""},
		{"German", map[string]string{"LANG": "de_DE.UTF-8"}, ""},
		{"LC_ALL wins over LANG", map[string]string{"LC_ALL": "fr_FR.UTF-8", "LANG": "C.UTF-8"}, ""},
		{"nothing set", map[string]string{}, ""},
		{"LANGUAGE names a language", map[string]string{"LANG": "C.UTF-8", "LANGUAGE": "de"}, ""},
		{"LANGUAGE is C", map[string]string{"LANG": "en_GB.UTF-8", "LANGUAGE": "C:de"}, "en"},
		{"Catalan is not C", map[string]string{"LANG": "ca_ES.UTF-8"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Language(func(k string) string { return tc.env[k] })
			if ok != (tc.want != "") || got != tc.want {
				t.Fatalf("got %q, %v; want %q", got, ok, tc.want)
			}
		})
	}
}
