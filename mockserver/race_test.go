//go:build race

package mockserver

// raceEnabled is true in a test binary built with -race, whose detector
// keeps shadow memory that resident sizes count.
const raceEnabled = true
