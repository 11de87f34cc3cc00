# Flushes, compactions, splits, merges, moves, (un)assignment, switches and the general
# group. The regions ($R0, $R1 ...: the encoded names of $T's regions in key order) are read
# after the part above "#phase".
create '$T', 'f', SPLITS => ['m', 't']
#java: create $T f splits=m,t
put '$T', 'a', 'f:q', 'v', 10
put '$T', 'p', 'f:q', 'v', 10
put '$T', 'z', 'f:q', 'v', 10
#java: put $T a f q v 10
#java: put $T p f q v 10
#java: put $T z f q v 10
flush '$T'
compact '$T'
major_compact '$T'
#out: Split table $T at 'c'
split '$T', 'c'
#java: split $T c 4
#phase
flush '$R0'
compact '$R1'
major_compact '$R1'
#out: Merged regions $R2, $R3
merge_region '$R2', '$R3'
#java: merge $T 2 3
move '$R0'
unassign '$R0'
assign '$R0'
#out: timestamp=10, value=v
get '$T', 'a'
balance_switch true
#out: true
balancer_enabled
#out: Previous state:
#out: true
balance_switch false
#out: false
balancer
normalizer_switch false
#out: false
normalizer_enabled
#out: active master
status 'simple'
#out: 2 servers, 0 dead
status
#out: HBase 2.
version
#out: (simple authentication)
whoami
table_help
#out: SERVERNAME
list_deadservers
#out: get (group dml)
help 'get'
#out: waiting for the library call: the snapshot sizes
help 'list_snapshot_sizes'
#out: SIMPLE_AUTHENTICATION
list_security_capabilities
help
#state: $T
