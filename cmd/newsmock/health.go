package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"time"
)

// healthTimeout is how long newsmock health waits for the answer.
const healthTimeout = 5 * time.Second

// checkHealth is newsmock health: it asks the newsmock listening on
// cfg.addr for GET /_mock/health and returns exitOK if it answers 200, else
// exitError; exitUsage if cfg.addr has no port to ask (port 0).
func checkHealth(ctx context.Context, cfg *config, stdout, stderr io.Writer) int {
	host, port, _ := net.SplitHostPort(cfg.addr) // addrValue has checked it
	if port == "0" {
		fmt.Fprintf(stderr, "newsmock health: -addr %s has port 0, so there is no port to ask; "+
			"give the port the server listens on with -addr or NEWSMOCK_ADDR\n", cfg.addr)
		return exitUsage
	}
	if ip, err := netip.ParseAddr(host); host == "" || err == nil && ip.IsUnspecified() {
		host = "127.0.0.1" // the server listens on every interface
		if err == nil && ip.Is6() {
			host = "::1"
		}
	}
	url := "http://" + net.JoinHostPort(host, port) + "/_mock/health"
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		fmt.Fprintf(stderr, "newsmock health: %v\n", err)
		return exitUsage
	}
	client := &http.Client{Transport: &http.Transport{}} // no proxy from the environment
	resp, err := client.Do(req)
	if err != nil {
		fmt.Fprintf(stderr, "newsmock health: no answer from %s: %v\n", url, err)
		return exitError
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintf(stderr, "newsmock health: %s answered %s: %s\n", url, resp.Status, body)
		return exitError
	}
	fmt.Fprintf(stdout, "newsmock health: %s answered 200: %s\n", url, body)
	return exitOK
}
