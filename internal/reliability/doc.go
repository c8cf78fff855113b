// Package reliability holds no code of its own: its tests check, across the
// SDK (package newssearch) and the mock server (package mockserver), the
// reliability and security guarantees the two make together. Nothing is
// lost under injected faults, a job is never submitted twice, many clients
// load one server without errors or races, the server's memory stays
// bounded, no goroutine is left behind, and the API key never leaks.
// RELIABILITY.md at the repository root lists every scenario with its
// figures and the commands that reproduce them.
package reliability
