package cipher_test

import (
	"fmt"

	"github.com/go-hbase/hbase/cipher"
)

func Example() {
	// In a real connection the keys come from the server's CryptoCipherMeta.
	keys := cipher.Keys{
		InKey: make([]byte, 16), InIV: make([]byte, 16),
		OutKey: []byte("0123456789abcdef"), OutIV: []byte("fedcba9876543210"),
	}
	client, err := cipher.New(cipher.Transformation, keys)
	if err != nil {
		fmt.Println(err)
		return
	}
	server, err := cipher.New(cipher.Transformation, keys.Swapped())
	if err != nil {
		fmt.Println(err)
		return
	}
	frame, _ := client.Wrap(nil, []byte("row-1"))
	plain, err := server.Unwrap(nil, frame)
	fmt.Println(len(frame), string(plain), err)

	// The same frame again is a replay: refused, and the layer is dead from then on.
	_, err = server.Unwrap(nil, frame)
	fmt.Println(err != nil)
	// Output:
	// 19 row-1 <nil>
	// true
}
