package lan

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"

	"github.com/njetlan/njet/p2p"
	"github.com/njetlan/njet/tablelog"
)

// Device is this device on the LAN: its identity, its store and its node,
// kept in one data directory.
type Device struct {
	dir   string
	node  *p2p.Node
	store *tablelog.Store
}

// Damage returns what was wrong with the store file when the device
// opened, or nil: the damaged file was kept aside and the device goes on
// from what could be kept. Its String is the message for the person.
func (d *Device) Damage() *tablelog.Damage { return d.store.Damage() }

// OpenDevice loads the identity kept in dir (creating dir and the identity
// if needed), opens the store there and starts the node, listening on the
// multiaddrs listen (nil: every interface, TCP and QUIC). It ends with
// Close. A damaged store does not stop it: see Damage.
func OpenDevice(dir string, listen []string) (*Device, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	key, err := p2p.LoadIdentity(dir)
	if err != nil {
		return nil, err
	}
	store, err := tablelog.OpenStore(filepath.Join(dir, "njet.db"), nil)
	if err != nil {
		return nil, err
	}
	node, err := p2p.NewNode(p2p.NodeConfig{Key: key, Listen: listen})
	if err != nil {
		return nil, errors.Join(err, store.Close())
	}
	return &Device{dir: dir, node: node, store: store}, nil
}

// Close stops the node and closes the store.
func (d *Device) Close() error { return errors.Join(d.node.Close(), d.store.Close()) }

// ID returns the device's peer id.
func (d *Device) ID() peer.ID { return d.node.ID() }

// Dir returns the device's data directory.
func (d *Device) Dir() string { return d.dir }

// Node returns the device's node.
func (d *Device) Node() *p2p.Node { return d.node }

// Store returns the device's store.
func (d *Device) Store() *tablelog.Store { return d.store }

// JoinAddr is an address where players reach this device as a host: Addr
// (with /p2p) for an address, and Code, its join code, when Addr is a LAN
// address ("" for a loopback one, which only reaches this machine).
type JoinAddr struct {
	Addr multiaddr.Multiaddr
	Code string
}

// JoinAddrs returns the device's IPv4 TCP addresses, loopback ones too, and
// a join code for each LAN one.
func (d *Device) JoinAddrs() []JoinAddr {
	var out []JoinAddr
	for _, a := range d.node.Addrs() {
		ip, err := a.ValueForProtocol(multiaddr.P_IP4)
		if err != nil {
			continue
		}
		if _, err := a.ValueForProtocol(multiaddr.P_TCP); err != nil {
			continue
		}
		ja := JoinAddr{Addr: a}
		if !strings.HasPrefix(ip, "127.") {
			if code, err := p2p.JoinCode(net.ParseIP(ip), d.node.TCPPort(), d.node.ID()); err == nil {
				ja.Code = code
			}
		}
		out = append(out, ja)
	}
	return out
}

// LogPath is where a table's log goes by default: DIR/<table>.njetlog in
// the data directory, named by the id people see (Table.Lobby).
func (d *Device) LogPath(id p2p.LobbyID) string {
	return filepath.Join(d.dir, id.String()+".njetlog")
}

// Export writes the table's log, as the store holds it, to a new file at
// path (table.Verify reads it).
func (d *Device) Export(id tablelog.TableID, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := d.store.Export(f, id); err != nil {
		return errors.Join(err, f.Close())
	}
	return f.Close()
}

// MarkOver records that the table's game ended: Resume skips it from then
// on.
func (d *Device) MarkOver(id tablelog.TableID) error { return p2p.MarkOver(d.store, id) }

// Reconnect dials every other member device of t now, instead of at the
// table's next redial: a device back from the background, or on a network
// that came back, reaches the table at once, and its seats' peers catch
// up by sync from their next tick on. A connection that still stands is
// kept (libp2p's keep-alive ends a dead one). It returns how many member devices
// it reached, and the errors of the others (each dial bounded by ctx).
func (d *Device) Reconnect(ctx context.Context, t *Table) (reached int, err error) {
	var errs []error
	for _, m := range t.setup.Devices {
		if m.ID == d.node.Identity() {
			continue
		}
		pid, perr := p2p.PeerIDOf(m.ID)
		if perr != nil {
			errs = append(errs, perr)
			continue
		}
		if cerr := d.node.Connect(ctx, peer.AddrInfo{ID: pid, Addrs: m.Addrs}); cerr != nil {
			errs = append(errs, cerr)
			continue
		}
		reached++
	}
	return reached, errors.Join(errs...)
}
