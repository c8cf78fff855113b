package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// spinner shows a waiting job's state on a terminal stderr; without one it
// does nothing.
type spinner struct {
	mu      sync.Mutex
	bar     *progressbar.ProgressBar
	done    chan struct{} // closed by stop
	stopped bool
	wg      sync.WaitGroup
}

func (a *app) newSpinner(desc string) *spinner {
	s := &spinner{}
	if !a.showProgress() {
		return s
	}
	s.bar = progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(a.env.stderr),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString("ticks"),
		progressbar.OptionShowIts(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionEnableColorCodes(false),
	)
	done := make(chan struct{})
	s.done = done
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				s.mu.Lock()
				_ = s.bar.Add(1)
				s.mu.Unlock()
			}
		}
	}()
	return s
}

func (s *spinner) describe(desc string) {
	if s.bar == nil {
		return
	}
	s.mu.Lock()
	s.bar.Describe(desc)
	s.mu.Unlock()
}

// stop removes the spinner; it may be called more than once.
func (s *spinner) stop() {
	if s.bar == nil {
		return
	}
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return
	}
	s.stopped = true
	close(s.done)
	s.mu.Unlock()
	s.wg.Wait()
	s.mu.Lock()
	_ = s.bar.Finish()
	s.mu.Unlock()
}

// rangeBar shows a range's progress on a terminal stderr: windows done of
// the total, articles, the rate of windows and the time left.
type rangeBar struct {
	mu  sync.Mutex
	bar *progressbar.ProgressBar
	w   io.Writer
}

func (a *app) newRangeBar(total, done, articles int) *rangeBar {
	r := &rangeBar{w: a.env.stderr}
	if !a.showProgress() {
		return r
	}
	r.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(a.env.stderr),
		progressbar.OptionSetDescription(articlesText(articles)),
		progressbar.OptionSetWidth(28),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString("windows"),
		progressbar.OptionShowIts(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionThrottle(50*time.Millisecond),
		progressbar.OptionEnableColorCodes(false),
		progressbar.OptionSetRenderBlankState(done == 0),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(a.env.stderr) }),
	)
	if done > 0 {
		_ = r.bar.Set(done) // draws the bar with the windows a checkpoint held
	}
	return r
}

func articlesText(n int) string {
	if n == 1 {
		return "1 article"
	}
	return fmt.Sprintf("%d articles", n)
}

// update sets the windows done and the articles found.
func (r *rangeBar) update(done, articles int) {
	if r.bar == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.bar.Describe(articlesText(articles))
	_ = r.bar.Set(done)
}

// stop leaves the bar where it is and ends its line.
func (r *rangeBar) stop() {
	if r.bar == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.bar.IsFinished() {
		_ = r.bar.Exit()
		fmt.Fprintln(r.w)
	}
}
