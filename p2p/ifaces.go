package p2p

import (
	"net"

	"github.com/wlynxg/anet"
)

// interfaceAddrs returns the addresses of the interfaces that are up,
// through anet: on Android 11 and later the standard library cannot list
// interfaces (netlink is denied), anet can; elsewhere it calls the
// standard library. Builds for Android that link it need
// -ldflags=-checklinkname=0.
func interfaceAddrs() ([]net.IP, error) {
	ifaces, err := upInterfaces(net.FlagUp)
	var out []net.IP
	for _, ifi := range ifaces {
		addrs, err := anet.InterfaceAddrsByInterface(&ifi)
		if err != nil {
			continue
		}
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok {
				out = append(out, ipn.IP)
			}
		}
	}
	return out, err
}

// multicastInterfaces returns the interfaces that are up and can multicast,
// for mDNS.
func multicastInterfaces() ([]net.Interface, error) {
	return upInterfaces(net.FlagUp | net.FlagMulticast)
}

// upInterfaces returns the interfaces that have every one of flags.
func upInterfaces(flags net.Flags) ([]net.Interface, error) {
	ifaces, err := anet.Interfaces()
	if err != nil {
		return nil, err
	}
	var out []net.Interface
	for _, ifi := range ifaces {
		if ifi.Flags&flags == flags {
			out = append(out, ifi)
		}
	}
	return out, nil
}
