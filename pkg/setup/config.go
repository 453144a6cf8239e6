package setup

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// storeConfig is what init reads from and writes to <home>/config.json. Other
// keys (reflection, inject, keys from newer versions) are kept as they are.
type storeConfig struct {
	MachineID string
	Remote    string
	Malformed error // the file exists but is not a JSON object
}

func parseStoreConfig(data []byte) storeConfig {
	var c storeConfig
	if len(bytes.TrimSpace(data)) == 0 {
		return c
	}
	var v struct {
		MachineID string `json:"machine_id"`
		Remote    string `json:"remote"`
	}
	if _, err := parseObject(data); err != nil {
		c.Malformed = err
		return c
	}
	if err := json.Unmarshal(data, &v); err != nil {
		c.Malformed = err
		return c
	}
	c.MachineID, c.Remote = v.MachineID, v.Remote
	return c
}

// editStoreConfig sets machine_id and remote (an empty remote removes the
// key) in a config.json document, keeping every other key in order. A
// malformed document is replaced.
func editStoreConfig(data []byte, machineID, remote string) ([]byte, error) {
	obj, err := parseObject(data)
	if err != nil || len(bytes.TrimSpace(data)) == 0 {
		obj = nil
	}
	set := func(name, value string) error {
		i := obj.index(name)
		if value == "" {
			if i >= 0 {
				obj = append(obj[:i:i], obj[i+1:]...)
			}
			return nil
		}
		v, err := marshalNoEscape(value)
		if err != nil {
			return err
		}
		if i >= 0 {
			obj[i].val = v
		} else {
			obj = append(obj, member{key: keyBytes(name), val: v})
		}
		return nil
	}
	if err := set("machine_id", machineID); err != nil {
		return nil, err
	}
	if err := set("remote", remote); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, obj.compact(), "", "  "); err != nil {
		return nil, fmt.Errorf("config.json: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}
