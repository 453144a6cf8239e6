package lifecycle

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/model"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// standIn is a loopback OpenAI-compatible /chat/completions server whose
// replies the test scripts, recording every request body.
type standIn struct {
	*httptest.Server
	mu       sync.Mutex
	replies  []func(w http.ResponseWriter, r *http.Request)
	requests []string
}

func newStandIn(t *testing.T) *standIn {
	s := &standIn{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.requests = append(s.requests, string(body))
		var h func(w http.ResponseWriter, r *http.Request)
		if len(s.replies) > 0 {
			h, s.replies = s.replies[0], s.replies[1:]
		}
		s.mu.Unlock()
		if r.URL.Path != "/v1/chat/completions" || h == nil {
			http.Error(w, "unscripted request "+r.URL.Path, http.StatusTeapot)
			return
		}
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// answer scripts the next reply's message content.
func (s *standIn) answer(content string) {
	s.script(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"role": "assistant", "content": content}}}})
	})
}

func (s *standIn) script(h func(w http.ResponseWriter, r *http.Request)) {
	s.mu.Lock()
	s.replies = append(s.replies, h)
	s.mu.Unlock()
}

func (s *standIn) sent() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.requests, "\n")
}

func (s *standIn) client(t *testing.T, timeout time.Duration) model.Client {
	c, err := model.New(model.Config{Provider: "local", Model: "m", BaseURL: s.URL + "/v1", Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// add writes a note with given fields and a created_at in order.
func add(t *testing.T, s *store.Store, typ, project, title, body string, created string, tags ...string) *note.Note {
	t.Helper()
	n := note.New(typ, title, body)
	n.ID, n.Project, n.CreatedAt, n.UpdatedAt = note.NewID(), project, created, created
	n.Tags = append([]string{}, tags...)
	if typ == note.Episodic {
		n.ProvSource = note.ProvSessionEnd
	}
	if err := s.Put(context.Background(), n); err != nil {
		t.Fatal(err)
	}
	return n
}

// tree is every file under the store's note trees with its bytes.
func tree(t *testing.T, s *store.Store) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, dir := range []string{s.MemoryDir(), s.LocalDir()} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
				b, _ := os.ReadFile(p)
				out[p] = string(b)
			}
			return nil
		})
	}
	return out
}

func sameTree(t *testing.T, before, after map[string]string) {
	t.Helper()
	if len(before) != len(after) {
		t.Errorf("files: %d before, %d after", len(before), len(after))
	}
	for p, b := range before {
		if after[p] != b {
			t.Errorf("%s changed", p)
		}
	}
}
