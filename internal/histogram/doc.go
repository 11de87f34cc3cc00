// Package histogram is a log-linear histogram of int64 values with a fixed range and
// precision, for latencies: the client's latency per server and operation
// (Client.ServerLatency), the adaptive hedge delay, and the percentiles of the tests and
// benchmarks. It uses the standard library only.
//
// It exists because the HDR histogram module the client used (hdrhistogram-go v1.4.0) and the
// modules its tests import were 19.6 of the 28.0 MB that `go mod tidy` downloaded in a
// program's module that only imports the client: tidy loads the tests of every package the
// program's build imports, and that module's tests import gonum (and its zip holds a 38 MB
// binary). The client needs a few percentiles of values in one range, not that library.
//
// # Buckets
//
// A histogram made for digits significant digits has H sub-buckets per power of two, H the
// smallest power of two with 1/(2H) at most 10^-digits: 8, 64 and 512 for 1, 2 and 3
// digits. Values below 2H have a bucket each. A value v of 2H or more, of bit length
// log2(H)+1+b, is counted in the bucket of width 2^b that starts at v rounded down to a
// multiple of 2^b; that start is at least H·2^b, so a bucket is at most 1/H of its values
// wide. The bucket's index is b·H + v>>b, found with one bits.Len64 and a shift, so Record
// is a few nanoseconds and allocates nothing. Values are clamped to 0..highest first.
//
// A percentile is the middle of the bucket that holds the order statistic (rank rounded to the nearest),
// clamped to the exact minimum and maximum: it is within 1/(2H) of the exact value, relatively
// (0.78% at 2 digits, 0.098% at 3). Count, Min, Max and Mean are exact (the sum is kept in
// 128 bits). The counters are the memory: 1,544 of 8 bytes (13.6 KB allocated with the
// struct) for 1 µs to 10 minutes in microseconds at 2 digits, about half of an HDR histogram
// of that precision (24.7 KB), which returns the top of a bucket half as wide rather than the
// middle of one. A percentile walks the counters up to its bucket, 8 at a time (about 0.1 µs
// for the 95th of latencies around 1 ms).
package histogram
