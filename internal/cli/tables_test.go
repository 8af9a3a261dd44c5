package cli

import (
	"strings"
	"testing"

	"github.com/njetlan/njet/lan"
)

// TestDescribeAd: njet tables shows a table's name as typed, the host's
// player name when the advert has one, and the table's clock.
func TestDescribeAd(t *testing.T) {
	cases := []struct {
		name string
		ad   lan.TableAd
		want []string
	}{
		{"named host", lan.TableAd{Name: "Küche & Co", Host: "Анна", Variant: "classic", Players: 4, Free: 2},
			[]string{`table "Küche & Co"`, `host "Анна"`, "4 players, 2 free"}},
		{"no host name", lan.TableAd{Name: "李雷的桌子", Variant: "modern", Players: 3, Free: 1},
			[]string{`table "李雷的桌子"`, "1 free, host "}},
		{"clock", lan.TableAd{Name: "Timed", Variant: "modern", Players: 3, Free: 1, Clock: 90},
			[]string{`table "Timed"`, "1 free, 1m30s per move, host "}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := describeAd(c.ad)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q has no %q", got, w)
				}
			}
			if strings.Contains(got, `\`) {
				t.Errorf("%q is escaped", got)
			}
		})
	}
}
