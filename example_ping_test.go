package hbase_test

import (
	"context"
	"log"
	"net/http"
	"time"

	"github.com/go-hbase/hbase"
)

// A readiness probe: the service is ready when the cluster answers. Ping fails at once with
// the reason when the client's settings cannot work (a wrong address, a TLS or Kerberos
// mismatch), and names the last failure when the cluster does not answer in time.
func ExampleClient_Ping() {
	client, err := hbase.NewClient("zk1:2181,zk2:2181")
	if err != nil {
		log.Fatal(err) // an address that is not host:port: hberr.ErrConfiguration
	}
	defer client.Close()
	http.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := client.Ping(ctx); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ok\n"))
	})
}
