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
// the total, articles, and the rate and time left of the windows this run
// searched (windows taken from a checkpoint count as done, but not in the
// rate).
type rangeBar struct {
	mu    sync.Mutex
	bar   *progressbar.ProgressBar
	w     io.Writer
	now   func() time.Time
	start time.Time
	total int
	saved int // windows done before this run
}

func (a *app) newRangeBar(total, done, articles int) *rangeBar {
	r := &rangeBar{w: a.env.stderr, now: a.env.clock, start: a.env.clock(), total: total, saved: done}
	if !a.showProgress() {
		return r
	}
	r.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(a.env.stderr),
		progressbar.OptionSetDescription(r.text(done, articles)),
		progressbar.OptionShowDescriptionAtLineEnd(),
		progressbar.OptionSetWidth(28),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(false), // text has the time left of this run's windows
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

// text describes the progress: "12/52 windows, 340 articles, 3.1
// windows/s, 13s left". The rate and the time left appear once this run
// has finished a window.
func (r *rangeBar) text(done, articles int) string {
	s := fmt.Sprintf("%d/%d windows, %s", done, r.total, articlesText(articles))
	ran, elapsed := done-r.saved, r.now().Sub(r.start)
	if ran <= 0 || elapsed <= 0 {
		return s
	}
	perSec := float64(ran) / elapsed.Seconds()
	switch {
	case perSec >= 1:
		s += fmt.Sprintf(", %.1f windows/s", perSec)
	case perSec*60 >= 1:
		s += fmt.Sprintf(", %.1f windows/min", perSec*60)
	default:
		s += fmt.Sprintf(", %.1f windows/h", perSec*3600)
	}
	if left := r.total - done; left > 0 {
		eta := time.Duration(float64(left) / perSec * float64(time.Second))
		s += ", " + eta.Round(time.Second).String() + " left"
	}
	return s
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
	r.bar.Describe(r.text(done, articles)) // before Set: a finished bar ends its line
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
