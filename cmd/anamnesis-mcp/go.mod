module github.com/anamnesis-dev/anamnesis/cmd/anamnesis-mcp

go 1.26.0

require github.com/anamnesis-dev/anamnesis v0.0.0

require github.com/mark3labs/mcp-go v1.2.1 // indirect

replace github.com/anamnesis-dev/anamnesis => ../..
