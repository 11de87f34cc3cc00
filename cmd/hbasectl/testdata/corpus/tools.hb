# Flushes, compactions, splits, merges, moves, (un)assignment, switches and the general
# group. The regions ($R0, $R1 ...: the encoded names of $T's regions in key order) are read
# after the part above "#phase".
create '$T', 'f'
#java: create $T f
put '$T', 'a', 'f:q', 'v', 10
put '$T', 'p', 'f:q', 'v', 10
put '$T', 'z', 'f:q', 'v', 10
#java: put $T a f q v 10
#java: put $T p f q v 10
#java: put $T z f q v 10
flush '$T'
compact '$T'
major_compact '$T'
#out: Split table $T at 'm'
split '$T', 'm'
#java: split $T m 2
split '$T', 't'
#java: split $T t 3
#phase
flush '$R0'
compact '$R1'
major_compact '$R1'
#out: Merged regions $R1, $R2
merge_region '$R1', '$R2'
#java: merge $T 1 2
move '$R0'
unassign '$R0'
assign '$R0'
#out: timestamp=10, value=v
get '$T', 'a'
#out: Previous state:
balance_switch false
#out: false
balancer_enabled
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
#out: waiting for the library call: quotas
help 'set_quota'
help
#state: $T
