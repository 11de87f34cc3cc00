// Command usersvc is the second consumer module of .ci/modules consumer: a small HTTP service
// outside the tree whose unit tests run against package fakehbase (seeding with Server.Put,
// checking with CheckGet, faults with the typed Exception and Op constants, the call log), and
// which the script then runs against the standalone server cmd/fakehbase, as a developer
// would run it locally. Keep it to the documented API.
//
//	usersvc [-bootstrap host:port] -listen :8080   serve GET and PUT /users/{id}
//	usersvc [-bootstrap host:port] -get alice      print alice's email and exit
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/go-hbase/hbase"
	"github.com/go-hbase/hbase/hberr"
	"github.com/go-hbase/hbase/hrpc"
)

var (
	usersTable = "users"
	infoFamily = []byte("info")
	emailCol   = []byte("email")
)

// errNoUser: the user has no email.
var errNoUser = errors.New("no such user")

// store keeps users' email addresses in HBase.
type store struct{ c *hbase.Client }

func (s store) email(ctx context.Context, user string) (string, error) {
	g, err := hrpc.NewGet(usersTable, []byte(user), hrpc.Columns(infoFamily, emailCol))
	if err != nil {
		return "", err
	}
	res, err := s.c.Get(ctx, g)
	if err != nil {
		return "", err
	}
	if len(res.Cells) == 0 {
		return "", errNoUser
	}
	return string(res.Cells[0].Value), nil
}

func (s store) setEmail(ctx context.Context, user, email string) error {
	p, err := hrpc.NewPut(usersTable, []byte(user), hrpc.Value(infoFamily, emailCol, []byte(email)))
	if err != nil {
		return err
	}
	_, err = s.c.Put(ctx, p)
	return err
}

// handler serves GET and PUT /users/{id}: 404 for an unknown user, 503 when HBase fails.
func handler(s store) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /users/{id}", func(w http.ResponseWriter, r *http.Request) {
		email, err := s.email(r.Context(), r.PathValue("id"))
		switch {
		case errors.Is(err, errNoUser):
			http.Error(w, "no such user", http.StatusNotFound)
		case err != nil:
			http.Error(w, "storage: "+hberr.Class(err), http.StatusServiceUnavailable)
		default:
			fmt.Fprintln(w, email)
		}
	})
	mux.HandleFunc("PUT /users/{id}", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1024))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if err := s.setEmail(r.Context(), r.PathValue("id"), string(body)); err != nil {
			http.Error(w, "storage: "+hberr.Class(err), http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	return mux
}

func main() {
	bootstrap := flag.String("bootstrap", os.Getenv("HBASE_BOOTSTRAP"), "HBase bootstrap servers (default $HBASE_BOOTSTRAP, as cmd/fakehbase prints it)")
	listen := flag.String("listen", "", "serve HTTP on this address")
	get := flag.String("get", "", "print this user's email and exit")
	flag.Parse()
	c, err := hbase.NewClient("", hbase.WithBootstrapServers(*bootstrap))
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	s := store{c}
	if *get != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		email, err := s.email(ctx, *get)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(email)
		return
	}
	srv := &http.Server{Addr: *listen, Handler: handler(s), ReadHeaderTimeout: 5 * time.Second}
	log.Fatal(srv.ListenAndServe())
}
