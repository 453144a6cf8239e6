package gitsync

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// blackhole accepts connections and never answers: a remote on a network
// that has gone silent. accepted reports how many connections it took.
func blackhole(t *testing.T) (url string, accepted func() int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return "http://" + ln.Addr().String() + "/notes.git", func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(conns)
	}
}

// commitNote writes a note and commits just it, as capture does, timing the commit.
func commitNote(t *testing.T, h *home, title string) (*note.Note, string, time.Duration) {
	t.Helper()
	n := h.write(note.Episodic, title, "captured while a sync was on the network")
	start := time.Now()
	hash, err := CommitPaths(context.Background(), h.dir, h.machine, "capture "+title, 3*time.Second, "episodic/"+n.ID+".md")
	d := time.Since(start)
	if err != nil || hash == "" {
		t.Fatalf("commit during the sync's network step: %q %v after %s", hash, err, d)
	}
	return n, hash, d
}

// A sync stuck on a remote that never answers holds the sync lock, not
// the commit lock: a capture's local commit goes through at once and the
// sync, when it gives up, leaves that commit alone.
func TestCommitDoesNotWaitForAHangingFetch(t *testing.T) {
	needGit(t)
	isolateGit(t)
	url, accepted := blackhole(t)
	h := newHome(t, "alpha", url)
	h.write(note.Semantic, "first", "x")
	if _, err := Commit(context.Background(), h.dir, "alpha", "", 0); err != nil {
		t.Fatal(err)
	}
	o := h.opts()
	o.Timeout = 4 * time.Second
	done := make(chan error, 1)
	go func() {
		_, err := Sync(context.Background(), o)
		done <- err
	}()
	// Wait until the sync's fetch has reached the remote.
	deadline := time.Now().Add(3 * time.Second)
	for accepted() == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if accepted() == 0 {
		<-done
		t.Fatal("the sync's fetch never reached the remote")
	}
	n, hash, d := commitNote(t, h, "during fetch")
	if d > time.Second {
		t.Errorf("the local commit waited %s for a sync stuck on the network", d)
	}
	if err := <-done; err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("sync against a blackhole: %v", err)
	}
	if head := h.head(); !strings.HasPrefix(head, hash) {
		t.Errorf("the capture's commit %s is no longer main (%s)", hash, head)
	}
	if log := gitIn(t, filepath.Join(h.dir, "memory"), "log", "--name-only", "--format=%s"); !strings.Contains(log, n.ID) {
		t.Errorf("note not in history:\n%s", log)
	}
	h.assertClean()
}

// A commit made while a push is on the wire is not recorded as pushed: the
// sync pushes it too, and origin/main is exactly what the remote holds.
func TestCommitDuringPushIsPushedToo(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	// A remote slow to accept a push: the receive hook waits for a file.
	hooks := filepath.Join(t.TempDir(), "hooks")
	os.MkdirAll(hooks, 0o755)
	gate := filepath.Join(t.TempDir(), "gate")
	entered := filepath.Join(t.TempDir(), "entered")
	os.WriteFile(filepath.Join(hooks, "pre-receive"), []byte("#!/bin/sh\ncat >/dev/null\ntouch '"+entered+"'\nwhile [ ! -e '"+gate+"' ]; do sleep 0.05; done\nexit 0\n"), 0o755)
	gitIn(t, remote, "config", "core.hooksPath", hooks)
	h := newHome(t, "alpha", remote)
	h.write(note.Semantic, "first", "x")
	done := make(chan Result, 1)
	go func() {
		r, err := Sync(context.Background(), h.opts())
		if err != nil {
			t.Errorf("sync: %v (%s)", err, r.Line())
		}
		done <- r
	}()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(entered); err == nil {
			break
		}
		if time.Now().After(deadline) {
			os.WriteFile(gate, nil, 0o644)
			<-done
			t.Fatal("the push never reached the remote")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The push stays on the wire until the gate opens. A commit that waited
	// for it would finish only when the timer opens the gate.
	opened := time.AfterFunc(60*time.Second, func() { os.WriteFile(gate, nil, 0o644) })
	n, hash, _ := commitNote(t, h, "during push")
	if !opened.Stop() {
		t.Errorf("the local commit waited for the push")
	}
	os.WriteFile(gate, nil, 0o644)
	r := <-done
	if !r.Pushed {
		t.Fatalf("not pushed: %s", r.Line())
	}
	remoteHead := gitIn(t, remote, "rev-parse", "refs/heads/main")
	if !strings.HasPrefix(remoteHead, hash) {
		t.Errorf("remote main %s is not the commit made during the push (%s)", remoteHead, hash)
	}
	if tracked := gitIn(t, filepath.Join(h.dir, "memory"), "rev-parse", "refs/remotes/origin/main"); tracked != remoteHead {
		t.Errorf("origin/main %s, remote holds %s", tracked, remoteHead)
	}
	if names := gitIn(t, remote, "log", "--name-only", "--format="); !strings.Contains(names, n.ID) {
		t.Errorf("the note committed during the push is not on the remote")
	}
	h.assertClean()
}
