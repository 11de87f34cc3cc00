# Namespaces: create with properties, alter set and unset, describe, list, tables.
create_namespace '$NS', {'hbase.namespace.quota.maxtables' => '5', 'team' => 'search'}
#java: ns-create $NS hbase.namespace.quota.maxtables:5 team:search
alter_namespace '$NS', {METHOD => 'set', 'hbase.namespace.quota.maxregions' => 100}
#java: ns-set $NS hbase.namespace.quota.maxregions:100
alter_namespace '$NS', {METHOD => 'unset', NAME => 'team'}
#java: ns-unset $NS team
#out: {NAME => '$NS', 'hbase.namespace.quota.maxregions' => '100', 'hbase.namespace.quota.maxtables' => '5'}
describe_namespace '$NS'
#ns-state: $NS
#out: $NS
list_namespace '$NS.*'
create '$NS:t1', 'f'
#java: create $NS:t1 f
#out: t1
#out: 1 row(s) in
list_namespace_tables '$NS'
#state: $NS:t1

#phase
# Dropping: the namespace's table, then the namespace.
disable '$NS:t1'
drop '$NS:t1'
#java: drop $NS:t1
#out: Dropped namespace $NS
drop_namespace '$NS'
#java: ns-drop $NS
#out: 0 row(s) in
list_namespace '$NS.*'
