# Region server groups (HBase 2.x's rsgroup endpoint): $G_1 and $G_2 are a side's groups, $MS
# one region server ("host:port", the same for every side: each side moves it back to the
# default group before the next side runs, and so must the end of this file).
create_namespace '$NS'
#java: ns-create $NS
create '$T', 'f'
#java: create $T f
create '$NS:t1', 'f'
#java: create $NS:t1 f
#out: Added rsgroup $G_1
add_rsgroup '$G_1'
#java: rsg-add $G_1
add_rsgroup '$G_2'
#java: rsg-add $G_2
#out: NAME                             SERVER / TABLE
#out:  $G_1
#out:  $G_2
#out: 2 row(s) in
list_rsgroups '$G'
#out: default
#out: 1 row(s) in
get_server_rsgroup '$MS'
#out: Moved server(s) $MS to rsgroup $G_1
move_servers_rsgroup '$G_1', ['$MS']
#java: rsg-move-servers $G_1 $MS
#out: $G_1
get_server_rsgroup '$MS'
move_tables_rsgroup '$G_1', ['$T']
#java: rsg-move-tables $G_1 $T
#out: $G_1
get_table_rsgroup '$T'
alter_namespace '$NS', {METHOD => 'set', 'hbase.rsgroup.name' => '$G_1'}
#java: ns-set $NS hbase.rsgroup.name:$G_1
#out: $G_1
get_namespace_rsgroup '$NS'
#out: Moved table(s) $NS:t1 to rsgroup $G_1
move_namespaces_rsgroup '$G_1', ['$NS']
#java: rsg-move-namespaces $G_1 $NS
#out: $G_1
get_table_rsgroup '$NS:t1'
#out: SERVERS
#out: $MS
#out: TABLES
#out: $NS:t1
#out: $T
#out: 3 row(s) in
get_rsgroup '$G_1'
#out:  $G_1
#out: server $MS
#out: table $NS:t1
#out: table $T
list_rsgroups
alter_rsgroup_config '$G_1', {METHOD => 'set', 'team' => 'search', 'weight' => 2}
#java: rsg-config $G_1 +team:search +weight:2
alter_rsgroup_config '$G_1', {METHOD => 'unset', NAME => 'weight'}, {METHOD => 'set', 'tier' => 'gold'}
#java: rsg-config $G_1 -weight +tier:gold
#out: KEY                              VALUE
#out:  team
#out: search
#out:  tier
#out: gold
#out: 2 row(s) in
show_rsgroup_config '$G_1'
#out: Updated the configuration of 1 live server(s) of rsgroup $G_1
update_rsgroup_config '$G_1'
#java: rsg-update-config $G_1
#out: Balancer
balance_rsgroup '$G_1'
#java: rsg-balance $G_1
move_tables_rsgroup 'default', '$T'
#java: rsg-move-tables default $T
alter_namespace '$NS', {METHOD => 'unset', NAME => 'hbase.rsgroup.name'}
#java: ns-unset $NS hbase.rsgroup.name
#out: 0 row(s) in
get_namespace_rsgroup '$NS'
#out: Renamed rsgroup $G_1 to $G_3
rename_rsgroup '$G_1', '$G_3'
#java: rsg-rename $G_1 $G_3
#out: $G_3
get_server_rsgroup '$MS'
#out: $G_3
get_table_rsgroup '$NS:t1'
move_tables_rsgroup 'default', ['$NS:t1']
#java: rsg-move-tables default $NS:t1
move_servers_rsgroup 'default', ['$MS']
#java: rsg-move-servers default $MS
#out: Moved server(s) $MS and table(s) $T to rsgroup $G_2
move_servers_tables_rsgroup '$G_2', ['$MS'], ['$T']
#java: rsg-move-both $G_2 $MS $T
#out: $G_2
get_table_rsgroup '$T'
move_servers_tables_rsgroup 'default', '$MS', '$T'
#java: rsg-move-both default $MS $T
#out: Moved server(s) $MS and table(s) $NS:t1 to rsgroup $G_2
move_servers_namespaces_rsgroup '$G_2', ['$MS'], ['$NS']
#java: rsg-move-both-ns $G_2 $MS $NS
#out: $G_2
get_server_rsgroup '$MS'
move_servers_namespaces_rsgroup 'default', ['$MS'], ['$NS']
#java: rsg-move-both-ns default $MS $NS
alter_rsgroup_config '$G_3', {METHOD => 'set', 'after' => 'rename'}
#java: rsg-config $G_3 +after:rename
#rsgroups: $G
#state: $T
#state: $NS:t1

#phase
# Removing: the groups, and a server the master no longer knows (it refuses live ones).
#out: Removed rsgroup $G_2
remove_rsgroup '$G_2'
#java: rsg-remove $G_2
remove_rsgroup '$G_3'
#java: rsg-remove $G_3
#out: Removed server(s) gone.invalid:16020 from their rsgroup
remove_servers_rsgroup ['gone.invalid:16020']
#java: rsg-remove-servers gone.invalid:16020
#out: 0 row(s) in
list_rsgroups '$G'
#out: default
get_server_rsgroup '$MS'
#rsgroups: $G
