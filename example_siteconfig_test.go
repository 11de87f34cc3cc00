package hbase_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/go-hbase/hbase"
)

func ExampleLoadSiteConfig() {
	// The hbase-site.xml a Java client of the cluster uses (here written on the spot).
	dir, err := os.MkdirTemp("", "conf")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	site := filepath.Join(dir, "hbase-site.xml")
	err = os.WriteFile(site, []byte(`<configuration>
  <property><name>hbase.zookeeper.quorum</name><value>zk1,zk2,zk3</value></property>
  <property><name>hbase.zookeeper.property.clientPort</name><value>2181</value></property>
  <property><name>zookeeper.znode.parent</name><value>/hbase-unsecure</value></property>
</configuration>`), 0o600)
	if err != nil {
		log.Fatal(err)
	}

	cfg, err := hbase.LoadSiteConfig(site) // core-site.xml first when there is one
	if err != nil {
		log.Fatal(err)
	}
	quorum, err := cfg.ZKQuorum()
	if err != nil {
		log.Fatal(err)
	}
	parent, _ := cfg.Get("zookeeper.znode.parent")
	// Connecting, with options that override the files:
	//	client, err := hbase.NewClientFromConfig(cfg, hbase.WithLogger(logger))

	fmt.Println(quorum, parent)
	// Output: zk1:2181,zk2:2181,zk3:2181 /hbase-unsecure
}
