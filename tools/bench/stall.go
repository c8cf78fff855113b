package main

import (
	"fmt"
	"sync"
	"time"
)

// stallMonitor watches how late this process's timers fire: a goroutine
// sleeps stallTick again and again and records every wake-up later than
// stallMin. Long stalls mean the process was not running (the machine's
// other load, or this process's own busy goroutines): they explain
// outliers in wall-clock figures.
type stallMonitor struct {
	mu     sync.Mutex
	stalls []stall
	stop   chan struct{}
	done   chan struct{}
}

// stall is one late wake-up: it ended at end, over late.
type stall struct {
	end  time.Time
	over time.Duration
}

const (
	stallTick = 5 * time.Millisecond
	stallMin  = 20 * time.Millisecond
)

// startStallMonitor starts watching; call close to stop.
func startStallMonitor() *stallMonitor {
	m := &stallMonitor{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(m.done)
		t := time.NewTimer(stallTick)
		defer t.Stop()
		for {
			begin := time.Now()
			select {
			case <-m.stop:
				return
			case <-t.C:
			}
			if over := time.Since(begin) - stallTick; over >= stallMin {
				m.mu.Lock()
				m.stalls = append(m.stalls, stall{end: time.Now(), over: over})
				m.mu.Unlock()
			}
			t.Reset(stallTick)
		}
	}()
	return m
}

// close stops the monitor.
func (m *stallMonitor) close() {
	close(m.stop)
	<-m.done
}

// summary describes the stalls that ended within [from, to].
func (m *stallMonitor) summary(from, to time.Time) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var worst time.Duration
	n := 0
	for _, s := range m.stalls {
		if !s.end.Before(from) && !s.end.After(to) {
			n++
			worst = max(worst, s.over)
		}
	}
	if n == 0 {
		return fmt.Sprintf("this process's timers never fired more than %v late during the row", stallMin)
	}
	return fmt.Sprintf("this process's timers fired more than %v late %d times during the row, at worst %s late (the machine's other load or this process's own busy goroutines kept it from running)", stallMin, n, fmtMS(worst))
}
