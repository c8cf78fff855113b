// Package onewrite lets a net/http server send an answer's header and body
// in one system call.
//
// net/http writes an answer longer than its 4 KiB connection buffer in two:
// the buffer, holding the header and the body's first bytes, then the rest
// of the body. On loopback each write is a whole trip through the kernel's
// TCP stack, and for the mock server's usual answers (15 to 35 KB) the
// second write costs about a tenth of the request. A server whose listener
// is wrapped by Listener, with ConnContext as its hook, answers through
// Send: Send flushes the header into the connection, which holds it back,
// and the body's write then sends both with one writev.
//
// The mock server and the benchmark harness's reference server share it.
package onewrite

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// MinBody is the shortest body Send sends together with its header. net/http
// sends a shorter answer, header included, in one write anyway; a longer
// one reaches the connection in one write of its own once the buffer
// holding the header has been flushed.
const MinBody = 4 << 10

// Conn is a TCP connection accepted by Listener.
//
// net/http calls Write only from the goroutine serving the connection,
// which is also the one running the handler, so Conn's writes need no
// lock. Besides the writes (Write, ReadFrom), Conn has its own write
// deadline, which it sets lazily and can keep from one answer to the next
// (SetWriteDeadline, SetDeadline, ExtendWriteDeadline); every other method
// is *net.TCPConn's own (read deadlines, CloseWrite).
type Conn struct {
	*net.TCPConn
	holding bool      // Write keeps what it is given in held
	held    []byte    // bytes written while holding, sent before the next write
	bufs    [3][]byte // backs the net.Buffers of writev, so that it allocates nothing
	// tail, when tailOf is not nil, goes out right after the write of
	// exactly tailOf (SendParts); skip is how many of the next bytes
	// written were sent that way already and are dropped.
	tail, tailOf []byte
	skip         int
	// The write deadline, in Unix nanoseconds (0 for none): want is the
	// one callers asked for, armed the one set on the socket. Clearing the
	// deadline, which net/http does after every answer, clears want only:
	// the socket keeps armed until a write is made with no deadline wanted
	// (Write and ReadFrom clear it first), or ExtendWriteDeadline finds it
	// far enough away to keep. dl serializes the changes.
	want, armed atomic.Int64
	dl          sync.Mutex
}

// SetWriteDeadline is net.Conn's, except that a zero t (no deadline) is
// applied lazily: the deadline set before stays on the socket until the
// next write that has none, which clears it first. A write that is
// blocked when the deadline is cleared keeps the old one. net/http clears
// the deadline after every answer, and each change re-arms a runtime
// timer; this way a connection answering request after request with
// ExtendWriteDeadline does not touch its timer once an answer.
func (c *Conn) SetWriteDeadline(t time.Time) error {
	c.dl.Lock()
	defer c.dl.Unlock()
	return c.setWriteLocked(t)
}

func (c *Conn) setWriteLocked(t time.Time) error {
	if t.IsZero() {
		c.want.Store(0)
		return nil
	}
	at := t.UnixNano()
	c.want.Store(at)
	c.armed.Store(at)
	return c.TCPConn.SetWriteDeadline(t)
}

// SetDeadline is net.Conn's: SetReadDeadline and SetWriteDeadline.
func (c *Conn) SetDeadline(t time.Time) error {
	err := c.TCPConn.SetReadDeadline(t)
	if werr := c.SetWriteDeadline(t); err == nil {
		err = werr
	}
	return err
}

// ExtendWriteDeadline makes the write deadline now+d, unless the one on
// the socket is at least d/2 away: then it keeps that one. Whatever is
// written from now on has between d/2 and d to leave, and a connection
// answering request after request sets its deadline about once every d/2
// rather than once an answer (each setting re-arms a runtime timer, which
// cost about 1% of newsmock's CPU time per request under load).
func (c *Conn) ExtendWriteDeadline(now time.Time, d time.Duration) error {
	c.dl.Lock()
	defer c.dl.Unlock()
	if at := c.armed.Load(); at != 0 && at-now.UnixNano() >= int64(d/2) {
		c.want.Store(at)
		return nil
	}
	return c.setWriteLocked(now.Add(d))
}

// unwanted clears the socket's write deadline if it has one that nobody
// wants any more (see SetWriteDeadline), before a write.
func (c *Conn) unwanted() {
	if c.want.Load() != 0 || c.armed.Load() == 0 {
		return
	}
	c.dl.Lock()
	defer c.dl.Unlock()
	if c.want.Load() == 0 && c.armed.Load() != 0 {
		c.armed.Store(0)
		_ = c.TCPConn.SetWriteDeadline(time.Time{})
	}
}

// ReadFrom is *net.TCPConn's, after the write deadline is brought up to
// date (see SetWriteDeadline).
func (c *Conn) ReadFrom(r io.Reader) (int64, error) {
	c.unwanted()
	return c.TCPConn.ReadFrom(r)
}

// Write sends p, preceded by the held bytes if there are any (and followed
// by the tail SendParts gave for p), in one system call.
func (c *Conn) Write(p []byte) (int, error) {
	if c.skip > 0 { // bytes SendParts has sent already
		n := min(len(p), c.skip)
		c.skip -= n
		if n == len(p) {
			return n, nil
		}
		m, err := c.Write(p[n:])
		return n + m, err
	}
	if c.holding {
		c.held = append(c.held, p...)
		return len(p), nil
	}
	var tail []byte
	if c.tailOf != nil && len(p) == len(c.tailOf) && len(p) > 0 && &p[0] == &c.tailOf[0] {
		tail, c.tail, c.tailOf = c.tail, nil, nil
	}
	c.unwanted()
	if len(c.held) == 0 && tail == nil {
		return c.TCPConn.Write(p)
	}
	held := len(c.held)
	c.bufs[0], c.bufs[1], c.bufs[2] = c.held, p, tail
	v := net.Buffers(c.bufs[:])
	n, err := v.WriteTo(c.TCPConn)
	c.bufs = [3][]byte{}
	c.held = c.held[:0]
	if err != nil {
		return min(max(int(n)-held, 0), len(p)), err
	}
	if tail != nil {
		c.skip = len(tail) // net/http writes the tail too, after p
	}
	return len(p), nil
}

// Send writes status and body as the answer to a request that arrived on c,
// the header's fields already set, Content-Length among them. With c nil
// (the request came some other way), or a body of MinBody bytes or fewer,
// it is an ordinary WriteHeader and Write.
//
// Otherwise Send flushes the header into c, which holds it, and the body's
// write, which net/http passes straight to the connection, sends both. It
// flushes through http.ResponseController, so a ResponseWriter wrapping
// net/http's own works if it has an Unwrap method; one that can neither
// flush nor unwrap flushes nothing, and the answer takes net/http's two
// writes. If the body goes anywhere else (net/http drops the body of an
// answer to HEAD), the header is sent on its own before Send returns. A
// write error means the client went away: net/http closes the connection,
// and there is nothing more to do. It is SendParts with no head or tail.
func Send(w http.ResponseWriter, c *Conn, status int, body []byte) {
	SendParts(w, c, status, nil, body, nil)
}

// SendParts is Send for an answer made of a short head, a long body that is
// never copied (a cache's bytes) and a short tail. On c, with a body longer
// than MinBody, the header, head, body and tail leave in one system call
// (writev): the header and head are held, the body's write, which net/http
// passes straight to the connection, sends them with the tail, and c drops
// the tail when net/http writes it in turn (so that net/http counts every
// byte of the Content-Length). Written one after the other, the parts
// would take a copy of head and body into one buffer or more system
// calls. Otherwise, or if the body's write does not reach c whole, the
// parts are written in turn.
func SendParts(w http.ResponseWriter, c *Conn, status int, head, body, tail []byte) {
	w.WriteHeader(status)
	if c == nil || len(body) <= MinBody {
		writeNonEmpty(w, head)
		_, _ = w.Write(body)
		writeNonEmpty(w, tail)
		return
	}
	c.holding = true
	writeNonEmpty(w, head)                    // into net/http's buffer,
	_ = http.NewResponseController(w).Flush() // then with the header into c, which holds them (not supported: nothing is held)
	c.holding = false
	c.tail, c.tailOf = tail, body
	_, _ = w.Write(body)
	c.tail, c.tailOf = nil, nil // sent, or the body went elsewhere: the tail goes as usual
	writeNonEmpty(w, tail)
	if len(c.held) > 0 {
		_, _ = c.Write(nil)
	}
}

// writeNonEmpty writes p unless it is empty (Send has no head or tail).
func writeNonEmpty(w http.ResponseWriter, p []byte) {
	if len(p) > 0 {
		_, _ = w.Write(p)
	}
}

// Listener hands out the TCP connections of the listener it wraps as
// *Conn; any other connection is passed on as it is.
type Listener struct{ net.Listener }

// Accept waits for the next connection.
func (l Listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok && err == nil {
		return &Conn{TCPConn: tc}, nil
	}
	return c, err
}

// connKey is the context key under which ConnContext puts a request's *Conn.
type connKey struct{}

// ConnContext is an http.Server's ConnContext hook: it makes a *Conn
// available to the requests that arrive on it, through From.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	if oc, ok := c.(*Conn); ok {
		return context.WithValue(ctx, connKey{}, oc)
	}
	return ctx
}

// From returns the *Conn r arrived on, or nil if r came another way (a
// listener not wrapped by Listener, a server without ConnContext, or no
// socket at all). A w that wraps net/http's writer and knows the
// connection already (it has a method OnewriteConn() *Conn) answers for
// it, which spares a search of r's context.
func From(w http.ResponseWriter, r *http.Request) *Conn {
	if k, ok := w.(interface{ OnewriteConn() *Conn }); ok {
		return k.OnewriteConn()
	}
	c, _ := r.Context().Value(connKey{}).(*Conn)
	return c
}
