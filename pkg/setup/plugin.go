package setup

import (
	"encoding/json"
	"sort"
	"strings"
)

// PluginName is the Claude Code plugin the repository's marketplace lists
// (.claude-plugin/marketplace.json); installed, it is enabled in settings.json
// as "anamnesis@<marketplace>".
const PluginName = "anamnesis"

// EnabledPlugin returns the id ("anamnesis@marketplace") of an enabled
// Anamnesis plugin in settings, "" when there is none. init installs no
// hooks and no MCP server beside it: both would then run twice.
func EnabledPlugin(settings []byte) string {
	d, err := parseSettings(settings)
	if err != nil {
		return ""
	}
	i := d.top.index("enabledPlugins")
	if i < 0 {
		return ""
	}
	var enabled map[string]any
	if json.Unmarshal(d.top[i].val, &enabled) != nil {
		return ""
	}
	var ids []string
	for id, on := range enabled {
		if b, ok := on.(bool); ok && b && strings.HasPrefix(id, PluginName+"@") {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	if len(ids) == 0 {
		return ""
	}
	return ids[0]
}
