package hbasetest

import (
	"slices"
	"strings"
	"testing"
)

func TestSecurityOptions(t *testing.T) {
	for _, tc := range []struct {
		o    Options
		want string // "" for valid
	}{
		{Options{Secure: true, AccessControl: true, Visibility: true, UserGroups: map[string][]string{"guest": {"a", "b"}, "x": nil}}, ""},
		{Options{AccessControl: true}, "need Secure"},
		{Options{Visibility: true}, "need Secure"},
		{Options{UserGroups: map[string][]string{"guest": {"a"}}}, "need Secure"},
		{Options{Secure: true, UserGroups: map[string][]string{"a=b": {"g"}}}, "bad user name"},
		{Options{Secure: true, UserGroups: map[string][]string{"guest": {"g;x=y"}}}, "bad group name"},
		{Options{Secure: true, UserGroups: map[string][]string{"guest": {"@g"}}}, "bad group name"},
	} {
		o := tc.o.withDefaults()
		err := validate(&o)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v", tc.o, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: %v; want an error saying %q", tc.o, err, tc.want)
		}
	}
	c := &Cluster{opts: Options{Secure: true, AccessControl: true, Visibility: true,
		UserGroups: map[string][]string{"guest": {"a", "b"}, "bob": nil}}}
	want := []string{"--access-control", "--visibility", "--user-groups", "bob=;guest=a,b"}
	if got := c.securityArgs(); !slices.Equal(got, want) {
		t.Errorf("securityArgs = %q; want %q", got, want)
	}
}
