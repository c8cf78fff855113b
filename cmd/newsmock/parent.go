package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"runtime"
	"time"
)

// parentPoll is how often -exit-with-parent checks newsmock's parent
// process id.
const parentPoll = 200 * time.Millisecond

// startParent is the parent process id newsmock started with, read as
// early as the program allows, so that a parent that dies during start-up
// is still noticed.
var startParent = os.Getppid()

// exitWithParent returns a context that is also cancelled when the program
// that started newsmock goes (-exit-with-parent), with the reason as its
// cause, logged:
//   - standard input, when it is a pipe or a socket (what a program gives
//     its child), reaches its end or fails: the parent closed its end, or
//     died and the system closed it. Whatever arrives on it is ignored.
//   - on Unix, newsmock's parent process id changes (checked every
//     parentPoll): the parent died and newsmock was given to another
//     process (init or a subreaper), even if a process the parent forked
//     still holds the other end of standard input.
//
// On Windows only the first applies: a parent's death closes its end of
// the pipe, but the parent process id of a child never changes.
// The goroutine reading standard input ends only when standard input does.
func exitWithParent(ctx context.Context, stdin *os.File, logger *slog.Logger) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	gone := func(why string) {
		if ctx.Err() == nil {
			logger.Info("newsmock: the program that started it is gone; stopping", "reason", why)
		}
		cancel(errors.New(why))
	}
	watched := false
	if fi, err := stdin.Stat(); err == nil && fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) != 0 {
		watched = true
		go func() {
			_, err := io.Copy(io.Discard, stdin)
			if err == nil {
				gone("standard input closed")
			} else {
				gone("standard input failed: " + err.Error())
			}
		}()
	}
	if runtime.GOOS != "windows" {
		watched = true
		go func() {
			t := time.NewTicker(parentPoll)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					if os.Getppid() != startParent {
						gone("parent process exited")
						return
					}
				}
			}
		}()
	}
	if !watched {
		logger.Warn("newsmock: -exit-with-parent watches standard input on Windows, which is not a pipe here: " +
			"start newsmock with its standard input a pipe that the parent keeps open")
	}
	return ctx, func() { cancel(nil) }
}
