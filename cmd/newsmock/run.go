package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/newssearch/newssearch-go/cmd/internal/buildinfo"
	"github.com/newssearch/newssearch-go/mockserver"
)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1 // the server could not start, or was cut short
	exitUsage = 2 // bad flags
)

// Limits of the HTTP server, so that no client can hold it: a request's
// header and body must arrive within readHeaderTimeout and readTimeout, and
// its answer must be written within writeTimeout of its header, which
// leaves room for the longest latency fault (mockserver.MaxFaultLatency)
// and 30 s more to send the answer.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = mockserver.MaxFaultLatency + 30*time.Second
	idleTimeout       = 2 * time.Minute
	maxHeaderBytes    = 64 << 10
)

// listenPrefix starts the line printed on stdout once the server listens.
const listenPrefix = "newsmock listening on "

// version is the release version, stamped by tools/dist/build with
// -ldflags "-X main.version=...". Empty in a plain go build or go install.
var version string

// run is the whole command: it serves until ctx is done, then drains, and
// returns the exit code. It writes only the listening line (or the version,
// the help, or the health) to stdout, and everything else to stderr. With
// "health" first in args it checks the health of a running newsmock instead.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	health := len(args) > 0 && args[0] == "health"
	if health {
		args = args[1:]
	}
	cfg, fs, err := parseFlags(args, os.Environ())
	switch {
	case errors.Is(err, flag.ErrHelp):
		printUsage(stdout, fs)
		return exitOK
	case err != nil:
		fmt.Fprintf(stderr, "newsmock: %v\nRun newsmock -h to list the flags.\n", err)
		return exitUsage
	case cfg.version:
		fmt.Fprintf(stdout, "newsmock %s (%s)\n", buildinfo.Version(version), runtime.Version())
		return exitOK
	case health:
		return checkHealth(ctx, cfg, stdout, stderr)
	}
	logger := cfg.logLevel.logger(stderr)
	if err := serve(ctx, cfg, logger, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "newsmock: %v\n", err)
		return exitError
	}
	return exitOK
}

// serve runs the server until ctx is done, then shuts it down gracefully.
func serve(ctx context.Context, cfg *config, logger *slog.Logger, stdout, stderr io.Writer) error {
	opts, err := cfg.options(logger)
	if err != nil {
		return err
	}
	mock, err := mockserver.Start(opts...)
	if err != nil {
		return err
	}
	defer mock.Close()

	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w; pass a free address to -addr, e.g. 127.0.0.1:0 for any free port", cfg.addr, err)
	}
	tcp, ok := ln.Addr().(*net.TCPAddr)
	remote := ok && !tcp.IP.IsLoopback()
	if remote && !cfg.allowRemote {
		ln.Close() // a host name that resolved beyond this machine; nothing was served
		return remoteAddrError(cfg.addr)
	}
	url := "http://" + dialAddr(ln.Addr())
	if cfg.urlFile != "" {
		if err := writeFileAtomic(cfg.urlFile, url+"\n"); err != nil {
			ln.Close()
			return fmt.Errorf("-url-file: %w; pass a path in a writable directory", err)
		}
		defer removeIfHolds(cfg.urlFile, url+"\n")
	}
	hs := newHTTPServer(mock.Handler(), logger)
	var fresh freshConns
	hs.ConnState = fresh.track
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()

	fmt.Fprintln(stdout, listenPrefix+url)
	if s := mock.RecordSummary(); s.Recording {
		defer func() { fmt.Fprintf(stderr, "newsmock: recording summary\n%s", mock.RecordSummary()) }()
	}
	logStart(logger, cfg, mock, url, remote)

	if cfg.exitWithParent {
		var stop context.CancelFunc
		ctx, stop = exitWithParent(ctx, os.Stdin, logger)
		defer stop()
	}
	select {
	case err := <-served: // Serve only returns early on an accept error
		return fmt.Errorf("serving stopped: %w", err)
	case <-ctx.Done():
	}
	logger.Info("newsmock: shutting down; waiting for requests in flight", "drain_timeout", cfg.drainTimeout)
	drainCtx, cancel := context.WithTimeout(context.Background(), cfg.drainTimeout)
	defer cancel()
	// Closing the mock ends the injected latencies at once (their requests
	// are answered); the requests in flight finish while hs drains.
	go mock.Close()
	shut := make(chan error, 1)
	go func() { shut <- hs.Shutdown(drainCtx) }()
	<-served // the listener is closed: no connection is added any more
	fresh.close()
	if err := <-shut; err != nil {
		hs.Close() // cut the requests still running
		return fmt.Errorf("requests still running after -drain-timeout %v were cut off; raise -drain-timeout to let them finish", cfg.drainTimeout)
	}
	logger.Info("newsmock: stopped")
	return nil
}

// freshConns holds the connections that have sent nothing yet. Shutdown
// closes idle keep-alive connections at once but leaves these alone for 5
// seconds, in case a request is on its way; a client that opened one for a
// request it then cancelled (as Node's fetch does) would hold the shutdown
// that long.
type freshConns struct {
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// track is the http.Server's ConnState hook.
func (f *freshConns) track(c net.Conn, state http.ConnState) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if state == http.StateNew {
		if f.conns == nil {
			f.conns = make(map[net.Conn]struct{})
		}
		f.conns[c] = struct{}{}
	} else {
		delete(f.conns, c)
	}
}

// close closes the connections that have still sent nothing.
func (f *freshConns) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.conns {
		c.Close()
	}
}

// logStart logs the configuration, without the keys, and warns when the
// server listens beyond this machine (remote).
func logStart(logger *slog.Logger, cfg *config, mock *mockserver.Server, url string, remote bool) {
	keys := "any non-empty key"
	if list, _ := cfg.keyList(); list != nil {
		keys = strconv.Itoa(len(list)) + " accepted"
	}
	if s := mock.RecordSummary(); s.Recording {
		logger.Info("newsmock: recording", "url", url, "upstream", s.Upstream, "corpus_file", s.CorpusFile,
			"headlines_file", s.HeadlinesFile, "articles_in_file", s.ArticlesInFile)
	} else {
		attrs := []any{"url", url, "articles", mock.Corpus().Len(), "keys", keys, "date_shift", mock.DateShift(), "fault_rules", len(cfg.faults)}
		if cfg.corpusPath == "" {
			attrs = append(attrs, "corpus", "built in memory at start")
		}
		logger.Info("newsmock: serving", attrs...)
	}
	if remote {
		logger.Warn("newsmock: listening beyond this machine (-allow-remote): anyone who can reach the port can use the mock and change it through /_mock/", "addr", cfg.addr)
	}
}

// newHTTPServer returns the server around h, with limits so that no slow
// client can hold it.
func newHTTPServer(h http.Handler, logger *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
}

// dialAddr is the address a client should dial for a listener's address:
// an unspecified IP (listening on every interface) becomes the loopback.
func dialAddr(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return a.String()
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(tcp.Port))
}

// removeIfHolds removes the file at path if it still holds content: another
// newsmock given the same -url-file since has replaced it with its own URL,
// which must stay.
func removeIfHolds(path, content string) {
	if b, err := os.ReadFile(path); err == nil && string(b) == content {
		os.Remove(path)
	}
}

// writeFileAtomic writes content to path through a temporary file and a
// rename, so that a reader never sees a partial URL.
func writeFileAtomic(path, content string) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".newsmock-url-*")
	if err != nil {
		return err
	}
	_, err = f.WriteString(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
