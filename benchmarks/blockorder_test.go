package benchmarks

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// blockOrder is the order in which n sides run their blocks in the given round: the rows of a
// Williams design. Within a cycle of rounds (n rounds, 2n for odd n) every side follows every
// other side equally often; two sides simply alternate. With more, each cycle gives the sides
// new places in the design (a relabelled Williams design is one too; the labels come from a
// fixed seed), so that the pairs where one round ends and the next begins vary as well. A
// side's block can be slowed by the one before it (a JVM's collection or compilation spilling
// over, a Go heap left to sweep), and a rotation by one, which the benchmarks ran before, gives
// each side the same predecessor in nearly every round, so such a carry-over became a steady
// bias.
func blockOrder(round, n int) []int {
	base := make([]int, n)
	for j := 1; j < n; j++ {
		if j%2 == 1 {
			base[j] = (j + 1) / 2
		} else {
			base[j] = n - j/2
		}
	}
	rows := n
	if n%2 == 1 {
		rows = 2 * n
	}
	rows = max(rows, 1)
	r, label := round%rows, rand.New(rand.NewPCG(uint64(round/rows), 0)).Perm(n)
	if n <= 2 {
		// Two sides alternate (the design's two rows); new labels would only give one side
		// two blocks in a row where cycles meet.
		label = []int{0, 1}[:n]
	}
	order := make([]int, n)
	for j := range n {
		order[j] = label[(base[j]+r)%n]
	}
	if r >= n {
		for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
			order[i], order[j] = order[j], order[i]
		}
	}
	return order
}

func TestBlockOrderBalancesPredecessors(t *testing.T) {
	for n := 1; n <= 7; n++ {
		rows := n
		if n%2 == 1 {
			rows = 2 * n
		}
		follows := make(map[[2]int]int)
		for r := 3 * rows; r < 4*rows; r++ { // the fourth cycle
			o := blockOrder(r, n)
			seen := make([]bool, n)
			for _, s := range o {
				if s < 0 || s >= n || seen[s] {
					t.Fatalf("n=%d round %d: %v is not an order of the sides", n, r, o)
				}
				seen[s] = true
			}
			for j := 1; j < n; j++ {
				follows[[2]int{o[j-1], o[j]}]++
			}
		}
		// Every ordered pair of distinct sides is adjacent the same number of times.
		want := rows / n
		if n == 1 {
			want = 0
		}
		for a := range n {
			for b := range n {
				if a != b && follows[[2]int{a, b}] != want {
					t.Fatalf("n=%d: side %d follows side %d %d times in a cycle, want %d", n, b, a, follows[[2]int{a, b}], want)
				}
			}
		}
	}
}

// Over many rounds, the pairs where one round ends and the next begins cover every ordered
// pair of sides about equally, rather than the same n pairs every cycle.
func TestBlockOrderVariesRoundBoundaries(t *testing.T) {
	const n, rounds = 4, 4000
	at := make(map[[2]int]int)
	prev := blockOrder(0, n)
	for r := 1; r < rounds; r++ {
		o := blockOrder(r, n)
		at[[2]int{prev[n-1], o[0]}]++
		prev = o
	}
	// Where one cycle ends and the next begins, the new labels may give one side two blocks
	// in a row (a quarter of those, with 4 sides).
	self := 0
	for a := range n {
		self += at[[2]int{a, a}]
	}
	if self > rounds/n/n*2 {
		t.Errorf("a side ran two blocks in a row at %d of %d round boundaries", self, rounds-1)
	}
	want := float64(rounds-1-self) / float64(n*(n-1))
	for a := range n {
		for b := range n {
			if got := float64(at[[2]int{a, b}]); a != b && (got < 0.75*want || got > 1.25*want) {
				t.Errorf("side %d begins a round after side %d ended one %v times in %d rounds, want about %.0f", b, a, got, rounds, want)
			}
		}
	}
}

// printCarryOver prints, for each side, its mean block rate after each other side's block
// relative to its mean over all its blocks: a side that slows whichever block follows it
// shows as a column below 1. It reads blockAfter, so it tells nothing of the first block.
func printCarryOver(sides []peSide, res []*peAcc) {
	fmt.Print("\nCarry-over: each side's mean block rate after each other side's block, over its mean\n\n| side |")
	for _, sd := range sides {
		fmt.Printf(" after %s |", sd.name)
	}
	fmt.Print("\n|---|" + strings.Repeat("---|", len(sides)) + "\n")
	for i, sd := range sides {
		a := res[i]
		sum, n := make([]float64, len(sides)), make([]int, len(sides))
		var all float64
		for k, r := range a.blockRates {
			all += r
			if p := a.blockAfter[k]; p >= 0 {
				sum[p] += r
				n[p]++
			}
		}
		mean := all / float64(max(len(a.blockRates), 1))
		fmt.Printf("| %s |", sd.name)
		for p := range sides {
			if n[p] == 0 || mean == 0 {
				fmt.Print(" |")
				continue
			}
			fmt.Printf(" %.3f (%d) |", sum[p]/float64(n[p])/mean, n[p])
		}
		fmt.Println()
	}
}
