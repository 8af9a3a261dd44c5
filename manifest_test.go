package main

import (
	"encoding/xml"
	"os"
	"regexp"
	"slices"
	"testing"
)

// TestAndroidManifest checks the AndroidManifest.xml that `fyne package`
// takes from beside main.go: it keeps fyne's native activity and its
// library name, follows FyneApp.toml, asks for the network permissions a
// LAN table needs, and leaves out what fyne refuses to find there.
func TestAndroidManifest(t *testing.T) {
	raw, err := os.ReadFile("AndroidManifest.xml")
	if err != nil {
		t.Fatal(err)
	}
	type attr = xml.Attr
	var m struct {
		Package     string     `xml:"package,attr"`
		VersionCode string     `xml:"versionCode,attr"`
		VersionName string     `xml:"versionName,attr"`
		UsesSDK     []struct{} `xml:"uses-sdk"`
		Application struct {
			Attrs    []attr `xml:",any,attr"`
			Activity []struct {
				Name     string `xml:"name,attr"`
				MetaData []struct {
					Name  string `xml:"name,attr"`
					Value string `xml:"value,attr"`
				} `xml:"meta-data"`
			} `xml:"activity"`
		} `xml:"application"`
		Permissions []struct {
			Name string `xml:"name,attr"`
		} `xml:"uses-permission"`
	}
	if err := xml.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	toml, err := os.ReadFile("FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	field := func(name string) string {
		t.Helper()
		f := regexp.MustCompile(`(?m)^\s*` + name + `\s*=\s*"?([^"\n]*)"?\s*$`).FindSubmatch(toml)
		if f == nil {
			t.Fatalf("FyneApp.toml has no %s", name)
		}
		return string(f[1])
	}
	t.Run("follows FyneApp.toml", func(t *testing.T) {
		if m.Package != field("ID") || m.VersionName != field("Version") || m.VersionCode != field("Build") {
			t.Fatalf("manifest %s %s (%s), FyneApp.toml %s %s (%s)", m.Package, m.VersionName, m.VersionCode,
				field("ID"), field("Version"), field("Build"))
		}
	})
	t.Run("native activity", func(t *testing.T) {
		// fyne names the Go library after the app's name, letters and digits kept.
		lib := regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(field("Name"), "_")
		if len(m.Application.Activity) != 1 || m.Application.Activity[0].Name != "org.golang.app.GoNativeActivity" {
			t.Fatalf("activities %+v", m.Application.Activity)
		}
		md := m.Application.Activity[0].MetaData
		if len(md) != 1 || md[0].Name != "android.app.lib_name" || md[0].Value != lib {
			t.Fatalf("meta-data %+v, want android.app.lib_name = %s", md, lib)
		}
	})
	t.Run("network permissions", func(t *testing.T) {
		var got []string
		for _, p := range m.Permissions {
			got = append(got, p.Name)
		}
		for _, want := range []string{"INTERNET", "ACCESS_NETWORK_STATE", "ACCESS_WIFI_STATE", "CHANGE_WIFI_MULTICAST_STATE"} {
			if !slices.Contains(got, "android.permission."+want) {
				t.Errorf("no %s in %v", want, got)
			}
		}
	})
	t.Run("nothing fyne refuses", func(t *testing.T) {
		if len(m.UsesSDK) > 0 {
			t.Error("uses-sdk is set by fyne")
		}
		for _, a := range m.Application.Attrs {
			if a.Name.Local == "icon" {
				t.Error("android:icon is added by fyne")
			}
		}
	})
}

// TestIOSLocalNetworkKeys checks the Info.plist keys merged into the iOS
// app (docs/phones.md): a reason for local network use and the Bonjour
// service tables are advertised as.
func TestIOSLocalNetworkKeys(t *testing.T) {
	raw, err := os.ReadFile("ios/LocalNetwork.plist")
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Dict struct {
			Items []struct {
				XMLName xml.Name
				Text    string   `xml:",chardata"`
				Strings []string `xml:"string"`
			} `xml:",any"`
		} `xml:"dict"`
	}
	if err := xml.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	keys := map[string]int{}
	items := p.Dict.Items
	for i := 0; i+1 < len(items); i += 2 {
		if items[i].XMLName.Local != "key" {
			t.Fatalf("item %d is a %s, not a key", i, items[i].XMLName.Local)
		}
		keys[items[i].Text] = i + 1
	}
	if i, ok := keys["NSLocalNetworkUsageDescription"]; !ok || items[i].XMLName.Local != "string" || len(items[i].Text) < 20 {
		t.Errorf("no reason for local network use: %+v", p.Dict.Items)
	}
	if i, ok := keys["NSBonjourServices"]; !ok || items[i].XMLName.Local != "array" || !slices.Equal(items[i].Strings, []string{"_njet._tcp"}) {
		t.Errorf("the Bonjour services are not [_njet._tcp]: %+v", p.Dict.Items)
	}
}
