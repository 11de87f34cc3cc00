package visibility_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/go-hbase/hbase/fakehbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/visibility"
)

// Defining labels and authorizing a user. fakehbase has no visibility labels, so the calls fail
// as on a cluster without the VisibilityController; a label HBase's syntax refuses fails before
// anything is sent, on any cluster.
func ExampleAddLabels() {
	srv, err := fakehbase.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	err = visibility.AddLabels(ctx, client, "top secret")
	var le *hberr.LabelError
	if errors.As(err, &le) && errors.Is(err, hberr.ErrInvalidLabel) {
		fmt.Printf("label %q refused\n", le.Label)
	}

	if err := visibility.AddLabels(ctx, client, "secret"); errors.Is(err, hberr.ErrNotSupported) {
		fmt.Println("no visibility labels on this cluster")
	} else if err != nil {
		log.Fatal(err)
	}
	if err := visibility.SetAuths(ctx, client, "alice", "secret"); errors.Is(err, hberr.ErrNotSupported) {
		fmt.Println("no visibility labels on this cluster")
	} else if err != nil {
		log.Fatal(err)
	}
	// Output:
	// label "top secret" refused
	// no visibility labels on this cluster
	// no visibility labels on this cluster
}
