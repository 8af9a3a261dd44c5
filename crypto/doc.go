// Package crypto is a mental-poker library: 1 to 5 seats deal a deck of 36
// to 98 cards among themselves with no dealer anyone must trust. Every step
// comes with a proof, so a cheat is caught the moment it happens and the
// error names the seat; a finished round can be re-verified by anyone from
// its Transcript with Audit. The package knows nothing of any game: it deals
// deck positions, and the caller decides which position goes to whom.
//
// # Protocol
//
// The group is ristretto255, a prime-order group with canonical encodings;
// every point and scalar received is decoded and checked. Card i is a point
// hashed from a label (deck id, i), so nobody knows a relation between two
// cards.
//
//  1. Keys. Each seat draws round Secrets and publishes a KeyMessage: an
//     ElGamal key share Y = x*G, an HPKE (X25519) key, and a Schnorr proof
//     of knowledge of x bound to table, round and seat. The proof stops a
//     seat from choosing a key that cancels the others; the HPKE key must
//     be a canonical X25519 key not of small order, so that others can
//     seal to it. NewRound checks all key messages and adds the shares
//     into the joint key H.
//     At three seats or more each seat then splits its ElGamal secret
//     into shares for the other seats, committed to in public and sealed
//     to their holders (Escrow, OpenEscrow); see escrow.go.
//  2. Shuffle. The deck starts as encryptions of the cards in order
//     (InitialDeck). Each seat in turn re-randomises every ciphertext,
//     permutes the deck and proves it did so with Neff's shuffle proof
//     (from go.dedis.ch/kyber/v4, run over ristretto255). The proof is bound
//     to table, round, seat, joint key and both decks, so it cannot be
//     replayed. Everybody verifies each pass (VerifyShuffle): kyber's
//     verifier, plus the link between the pair shuffle and its embedded
//     simple shuffle that kyber omits, without which a deck that is not a
//     permutation of its input would pass (see shufflelink.go).
//  3. Deal. To give a position to seat P, every other seat computes its
//     decryption token D = x*C1 with a DLEQ proof that it used its real key,
//     and seals it to P with HPKE (Deal). The sealed message carries a hash
//     commitment to its plaintext, so it can travel through a public log.
//     P opens each token, checks the commitment and the proof (OpenDeal,
//     or OpenDeals for a whole hand, whose proofs are checked in one batch),
//     and recovers the card with its own share (Card).
//  4. Play. The holder publishes every token of the position, its own with
//     a fresh proof (Play); everyone checks them and learns the card
//     (VerifyPlay).
//  5. Pass. The holder seals every token of the position to the new holder
//     (Forward), who checks each proof and that each token opens the
//     commitment it was originally dealt under (OpenForward).
//  6. Reveal. After the round each seat publishes its round Secrets (a
//     Reveal). AuditDeck decrypts every position of the final deck, dealt
//     or not, and checks it holds each card once; Audit also opens every
//     sealed message with the recipient's HPKE key and re-runs every check.
//
// Each step is a method producing a message; each message has a matching
// check that returns a *CheatError naming the seat, and MarshalBinary and
// UnmarshalBinary with a strict, versioned encoding. Randomness is always
// an io.Reader parameter (crypto/rand in production).
//
// # Guarantees
//
// As long as one seat is honest and keeps its secrets, the order of the
// deck is hidden from everyone else, and a card is seen only by the seats
// it is opened for. No seat can change, drop, duplicate or swap a card, or
// send a wrong token, without a proof failing at once and naming it.
//
// # Limits
//
// The secret is shared n-of-n: a position opens only with a token from
// every seat, so even all other seats together open no position the honest
// seat has not given its token for (the positions dealt to them, and each
// position once it is played); after the round the reveals open them all.
// The scheme cannot stop a seat from leaving: with n-of-n
// decryption alone a seat that is gone for good takes its share with it and
// the rest of the deck can no longer be opened. That is why a seat stores
// its Secrets (MarshalBinary) before it sends anything and resumes with them
// after a crash, and why, at three seats or more, it escrows its secret with
// the other seats: all of them together, and only all of them, can then
// open the positions it held for whoever plays its seat next (Recover,
// RecoveredPlay) and rebuild its secret for the audit (RecoveredSecrets). Sealed messages use the standard library's HPKE, whose
// ephemeral keys come from crypto/rand rather than from the io.Reader
// given; they do not affect any proof. Hiding is computational: it rests on
// the hardness of discrete logarithms in ristretto255. Message envelopes,
// signatures and ordering belong to the layer above, which must check that
// the author of a message is the seat it names.
package crypto
