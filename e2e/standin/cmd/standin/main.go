// Command standin serves the scripted Messages API stand-in by hand, for
// debugging the end-to-end test: it prints its base URL and records every
// request as a JSON line.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/anamnesis-dev/anamnesis/e2e/standin"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address (loopback)")
	script := flag.String("script", "", "JSON array of turns")
	record := flag.String("record", "requests.jsonl", "file to append each request to")
	flag.Parse()
	f, err := os.OpenFile(*record, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		log.Fatal(err)
	}
	s := standin.New(f)
	if *script != "" {
		turns, err := standin.LoadScript(*script)
		if err != nil {
			log.Fatal(err)
		}
		s.SetScript(turns)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("http://%s\n", ln.Addr())
	log.Fatal(http.Serve(ln, s))
}
