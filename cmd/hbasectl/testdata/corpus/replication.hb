# Replication: peers to the corpus cluster's peer cluster ($KEY), what they ship, and the
# tables' replication switch ($T created on the peer cluster by enable_table_replication).
create '$T', 'f', 'g'
#java: create $T f g
create '$U', 'f'
#java: create $U f
create_namespace '$NS'
#java: ns-create $NS
add_peer '$P', CLUSTER_KEY => '$KEY', STATE => 'DISABLED', TABLE_CFS => {'$T' => ['f'], '$U' => []}, SERIAL => true, CONFIG => {'k1' => 'v1'}, DATA => {'d1' => 'x'}
#java: peer-add $P key=$KEY state=DISABLED all=false tcf=$T@f;$U serial=true conf=k1:v1 data=d1:x
#out: Added replication peer $P
add_peer '$Q', CLUSTER_KEY => '$KEY', ENDPOINT_CLASSNAME => 'org.apache.hadoop.hbase.replication.regionserver.HBaseInterClusterReplicationEndpoint'
#java: peer-add $Q key=$KEY endpoint=org.apache.hadoop.hbase.replication.regionserver.HBaseInterClusterReplicationEndpoint all=true
#peers: $P $Q
enable_peer '$P'
#java: peer-enable $P
disable_peer '$Q'
#java: peer-disable $Q
#out: PEER_ID
#out: $P
#out: $KEY
#out: ENABLED
#out: default.$T:f;default.$U
list_peers
#out: Cluster Key
#out: $KEY
#out: Table CFs
#out: default.$T:f;default.$U
#out: d1
#out: k1
get_peer_config '$P'
#out: PeerId
list_peer_configs
update_peer_config '$P', CONFIG => {'k2' => 'v2'}, DATA => {'d2' => 'y'}
#java: peer-set $P conf=k2:v2 data=d2:y
#peers: $P $Q
#phase
# What a peer ships: table CFs and namespaces.
set_peer_tableCFs '$P', {'$T' => ['f', 'g'], '$U' => []}
#java: peer-set $P tcf=$T@f,g;$U
append_peer_tableCFs '$P', {'$T' => ['h'], '$V' => []}
#java: peer-set $P tcf+=$T@h;$V
remove_peer_tableCFs '$P', {'$T' => ['g'], '$U' => []}
#java: peer-set $P tcf-=$T@g;$U
#out: default.$T:f,h;default.$V
show_peer_tableCFs '$P'
set_peer_namespaces '$P', ['$NS']
#java: peer-set $P ns=$NS
remove_peer_namespaces '$P', ['$NS']
#java: peer-set $P ns-=$NS
append_peer_namespaces '$P', ['$NS']
#java: peer-set $P ns+=$NS
set_peer_bandwidth '$P', 1048576
#java: peer-set $P bw=1048576
#peers: $P
set_peer_bandwidth '$P'
#java: peer-set $P bw=0
set_peer_serial '$P', false
#java: peer-set $P serial=false
#peers: $P
#phase
# What a replicate-all peer does not ship; then it ships only what it names.
set_peer_exclude_namespaces '$Q', ['$NS']
#java: peer-set $Q xns=$NS
append_peer_exclude_namespaces '$Q', ['default']
#java: peer-set $Q xns+=default
remove_peer_exclude_namespaces '$Q', ['default']
#java: peer-set $Q xns-=default
set_peer_exclude_tableCFs '$Q', {'$T' => ['g'], '$U' => []}
#java: peer-set $Q xtcf=$T@g;$U
append_peer_exclude_tableCFs '$Q', {'$T' => ['f'], '$V' => []}
#java: peer-set $Q xtcf+=$T@f;$V
remove_peer_exclude_tableCFs '$Q', {'$U' => [], '$T' => ['g']}
#java: peer-set $Q xtcf-=$U;$T@g
#out: !$NS
#out: !default.$T:f;default.$V
list_peers
#peers: $Q
set_peer_exclude_namespaces '$Q', []
#java: peer-set $Q xns=
set_peer_exclude_tableCFs '$Q', {}
#java: peer-set $Q xtcf=
set_peer_replicate_all '$Q', false
#java: peer-set $Q all=false
#peers: $Q
#phase
# The tables' replication switch: $T made on the peer cluster, its scopes set, then unset.
enable_table_replication '$T'
#java: peer-table-repl $T true
#state: $T
#peers: table:$T
#out: TABLE:COLUMNFAMILY
#out: $T:f
#out: $T:g
#out: 2 row(s) in
list_replicated_tables '$T'
#out: $T:f
list_replicated_tables
disable_table_replication '$T'
#java: peer-table-repl $T false
#state: $T
remove_peer '$Q'
#java: peer-remove $Q
remove_peer '$P'
#java: peer-remove $P
#peers: $P $Q table:$T
