package hbase

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/go-hbase/hbase/hberr"
)

// SiteConfig is an HBase client configuration read from Hadoop-style XML files
// (hbase-site.xml, core-site.xml), for services that already have the files their Java
// clients use. LoadSiteConfig reads it; NewClientFromConfig connects with it. Only the keys of
// the table in NewClientFromConfig's documentation are used; every other key is ignored.
type SiteConfig struct {
	props map[string]siteProp
}

type siteProp struct {
	value string
	file  string
	final bool
}

// LoadSiteConfig reads the given configuration files in order; a later file overrides an
// earlier one, except for properties an earlier file marks <final>true</final>, as in Hadoop.
// Pass core-site.xml before hbase-site.xml, as HBase reads them. Values may refer to other
// properties as ${name} and to environment variables as ${env.NAME}.
func LoadSiteConfig(paths ...string) (*SiteConfig, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("hbase: LoadSiteConfig: no file given: %w", hberr.ErrConfiguration)
	}
	c := &SiteConfig{props: make(map[string]siteProp)}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, fmt.Errorf("hbase: LoadSiteConfig: %w", err)
		}
		err = c.read(f, p)
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	return c, nil
}

// xmlConfiguration is the <configuration> document Hadoop's Configuration reads.
type xmlConfiguration struct {
	XMLName    xml.Name `xml:"configuration"`
	Properties []struct {
		Name  string `xml:"name"`
		Value string `xml:"value"`
		Final string `xml:"final"`
	} `xml:"property"`
}

func (c *SiteConfig) read(r io.Reader, file string) error {
	var doc xmlConfiguration
	if err := xml.NewDecoder(r).Decode(&doc); err != nil {
		return fmt.Errorf("hbase: %s: not a Hadoop configuration file: %w (%w)", file, err, hberr.ErrConfiguration)
	}
	for _, p := range doc.Properties {
		name := strings.TrimSpace(p.Name)
		if name == "" {
			continue
		}
		if old, ok := c.props[name]; ok && old.final {
			continue
		}
		c.props[name] = siteProp{value: strings.TrimSpace(p.Value), file: file, final: strings.TrimSpace(p.Final) == "true"}
	}
	return nil
}

// maxExpansions bounds ${...} substitution, so that a property referring to itself is an error
// rather than a loop (Hadoop's limit is 20 as well).
const maxExpansions = 20

var errExpansion = errors.New("too many ${...} substitutions (a property refers to itself?)")

// Get returns the value of key with ${name} and ${env.NAME} substituted, and whether the files
// set it. A reference to an unset property or variable is left as it is, as in Hadoop.
func (c *SiteConfig) Get(key string) (string, bool) {
	v, ok, _ := c.get(key)
	return v, ok
}

func (c *SiteConfig) get(key string) (string, bool, error) {
	p, ok := c.props[key]
	if !ok {
		return "", false, nil
	}
	v := p.value
	for range maxExpansions {
		i := strings.Index(v, "${")
		if i < 0 {
			return v, true, nil
		}
		j := strings.IndexByte(v[i:], '}')
		if j < 0 {
			return v, true, nil
		}
		ref := v[i+2 : i+j]
		var sub string
		var found bool
		if name, isEnv := strings.CutPrefix(ref, "env."); isEnv {
			sub, found = os.LookupEnv(name)
		} else if rp, ok := c.props[ref]; ok {
			sub, found = rp.value, true
		}
		if !found {
			return v, true, nil
		}
		v = v[:i] + sub + v[i+j+1:]
	}
	return "", true, &hberr.SiteConfigError{File: p.file, Key: key, Value: p.value, Err: errExpansion}
}

// fileOf names the file key came from, for errors.
func (c *SiteConfig) fileOf(key string) string { return c.props[key].file }
