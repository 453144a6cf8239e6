package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
)

// syncInfo is the sync block of `status`.
type syncInfo struct {
	Initialized bool   `json:"initialized"`
	Remote      string `json:"remote"`
	Head        string `json:"head"`
	Dirty       bool   `json:"dirty"`
	Detail      string `json:"detail"`
}

func (s syncInfo) Line() string {
	return fmt.Sprintf("initialized=%v remote=%q head=%s dirty=%v (%s)", s.Initialized, s.Remote, s.Head, s.Dirty, s.Detail)
}

// syncStatus reports the memory repo's state; replaced by the sync package's State when it lands.
func syncStatus(ctx context.Context, cfg config.Config) syncInfo {
	_, err := os.Stat(filepath.Join(cfg.Home, "memory", ".git"))
	return syncInfo{Initialized: err == nil, Remote: cfg.Remote, Detail: "ok"}
}
