package config

import "testing"

// A team being joined needs a name Windows can make teams/NAME of: no
// device name, no trailing '.'; a name only this rule refuses is still
// read from config.json (and so can be left).
func TestCheckNewTeamName(t *testing.T) {
	for name, ok := range map[string]bool{
		"platform": true, "con-team": true, "com10": true, "lpt0": true, "nulls": true, "v1.2": true,
		"con": false, "nul": false, "aux.team": false, "prn": false, "com1": false, "lpt9.x": false, "plat.": false,
	} {
		if err := CheckNewTeamName(name); (err == nil) != ok {
			t.Errorf("CheckNewTeamName(%q) = %v, want ok %v", name, err, ok)
		}
		if !ValidTeamName(name) {
			t.Errorf("%q is no longer read from config.json", name)
		}
	}
}
