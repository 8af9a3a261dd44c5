package thegame

import "math/bits"

func trailing(x uint64) int { return bits.TrailingZeros64(x) }
