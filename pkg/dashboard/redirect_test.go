package dashboard

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// Browsers drop tabs and newlines from a Location (WHATWG URL parsing), so
// "/\t/evil.example" is followed as "//evil.example": another site.
func TestBackRefusesControlCharacters(t *testing.T) {
	for _, ref := range []string{
		"http://" + testAddr + "/%09/evil.example/x",
		"http://" + testAddr + "/%0a/evil.example/x",
		"http://" + testAddr + "/%7f/evil.example/x",
	} {
		r := httptest.NewRequest(http.MethodPost, "/reindex", nil)
		r.Host = testAddr
		r.Header.Set("Referer", ref)
		if got := back(r); got != "/" {
			t.Errorf("back(%q) = %q, want it refused", ref, got)
		}
	}
}
