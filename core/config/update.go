package config

import (
	"errors"
	"io/fs"
	"os"

	"toolscope/core/safefile"
)

// Update changes the config at path under a lock: it reads the file again
// (New when there is none and create is true), lets change edit it, and
// saves it. Two processes triaging at once both keep their entries, and
// an edit made meanwhile in an editor is kept too.
func Update(path string, create bool, change func(*Config) error) (*Config, error) {
	unlock, err := safefile.Lock(path)
	if err != nil {
		return nil, &Error{Path: path, Msg: "cannot lock: " + err.Error()}
	}
	defer unlock()
	if err := safefile.Check(path); err != nil {
		return nil, &Error{Path: path, Msg: "cannot write: " + errors.Unwrap(err).Error()}
	}
	var c *Config
	if _, serr := os.Lstat(path); errors.Is(serr, fs.ErrNotExist) && create {
		c = New(path)
	} else if c, err = Load(path); err != nil {
		return nil, err
	}
	if err := change(c); err != nil {
		return nil, err
	}
	if err := c.Save(); err != nil {
		return nil, err
	}
	return c, nil
}
