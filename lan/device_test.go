package lan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/njetlan/njet/p2p"
)

// TestOpenDeviceDamagedFiles damages the files of a data directory and
// checks that the device opens with a message (the store) or refuses with
// the file named (the identity), within a deadline, never hanging.
func TestOpenDeviceDamagedFiles(t *testing.T) {
	tests := []struct {
		name   string
		damage func(t *testing.T, dir string)
		refuse string // the file an error must name, "" if the device opens
	}{
		{"empty store", func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, "njet.db"), nil) }, ""},
		{"store of another format", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "njet.db"), make([]byte, 16384))
		}, ""},
		{"store cut short", func(t *testing.T, dir string) {
			if err := os.Truncate(filepath.Join(dir, "njet.db"), 4); err != nil {
				t.Fatal(err)
			}
		}, ""},
		{"identity of the wrong size", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, p2p.IdentityFile), []byte("0 0\n0 0\n0 0"))
		}, p2p.IdentityFile},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			d, err := OpenDevice(dir, loopback)
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Close(); err != nil {
				t.Fatal(err)
			}
			tc.damage(t, dir)
			done := make(chan struct{})
			go func() {
				defer close(done)
				d, err := OpenDevice(dir, loopback)
				if tc.refuse != "" {
					if err == nil {
						_ = d.Close()
						t.Errorf("the device opened")
					} else if !strings.Contains(err.Error(), filepath.Join(dir, tc.refuse)) {
						t.Errorf("the error does not name the file: %v", err)
					}
					return
				}
				if err != nil {
					t.Errorf("open: %v", err)
					return
				}
				defer d.Close()
				if dmg := d.Damage(); dmg == nil || !strings.Contains(dmg.String(), "lost") {
					t.Errorf("damage %v", dmg)
				}
				if tbl, err := d.Resume(""); tbl != nil || err != nil {
					t.Errorf("resume %v, %v", tbl, err)
				}
			}()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("OpenDevice hangs")
			}
		})
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}
