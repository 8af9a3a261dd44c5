package tablelog

import "context"

// Received is one message delivered by a Transport.
type Received struct {
	// From is the transport-level sender: the peer whose key signed or
	// carried the message (for libp2p, the pubsub message's signed source),
	// never a field the sender fills in. It need not be the envelope's
	// author: envelopes are relayed and synced on behalf of others.
	From Identity
	// Data is the encoded envelope, not yet parsed or checked.
	Data []byte
}

// Transport carries one table's envelopes between its members. Delivery is
// best effort, as with gossipsub: a published envelope may arrive late,
// twice, out of order or never. The Log orders, dedupes and detects gaps,
// and the sync protocol (Fetch) fills them.
//
// Implementations are safe for concurrent use.
type Transport interface {
	// Publish sends an encoded envelope to every other member. A nil error
	// means handed to the network, not delivered. The caller makes the
	// envelope durable (Store.Put) before publishing it.
	Publish(ctx context.Context, data []byte) error
	// Messages returns the channel of received envelopes; every call
	// returns the same channel. It is buffered; a reader that falls behind
	// loses messages (and recovers them by sync). The transport closes it
	// when the transport is closed or the context it was started with ends;
	// readers never close it.
	Messages() <-chan Received
	// Fetch asks the member peer for the encoded envelopes with seq in
	// [from, to) (the sync protocol). The answer is a prefix of the range,
	// in seq order: possibly shorter, at most MaxRange entries, empty if the
	// peer has none. It fails with ErrUnreachable when the peer cannot be
	// reached. The entries are untrusted until a Log accepts them.
	Fetch(ctx context.Context, peer Identity, from, to uint64) ([][]byte, error)
	// Close stops the transport, closes the Messages channel and waits for
	// its goroutines. Further calls fail with ErrClosed.
	Close() error
}

// RangeServer answers sync requests from the local store; a transport calls
// it for every request it receives. Store implements it.
type RangeServer interface {
	// ServeRange returns the encoded envelopes of table with seq in
	// [from, to), following the rules of Transport.Fetch.
	ServeRange(ctx context.Context, table TableID, from, to uint64) ([][]byte, error)
}
