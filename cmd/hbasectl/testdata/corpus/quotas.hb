# Quotas: throttles of a user (alone, on a table, on a namespace), a table, a namespace and the
# region servers, the global bypass, space quotas, their listings and removal, the switches; then
# the request and balancer logs ($T: a large answer from it after the "#phase" lines). The quotas
# of each side's user $Q, table $U and namespace $NS are compared as Java's Admin lists them.
create '$U', 'f'
#java: create $U f
create_namespace '$NS'
#java: ns-create $NS
set_quota TYPE => THROTTLE, USER => '$Q', LIMIT => '10req/sec'
#java: quota throttle user=$Q REQUEST_NUMBER 10 SECONDS MACHINE
set_quota TYPE => THROTTLE, THROTTLE_TYPE => READ, USER => '$Q', LIMIT => '10M/sec'
#java: quota throttle user=$Q READ_SIZE 10485760 SECONDS MACHINE
set_quota TYPE => THROTTLE, THROTTLE_TYPE => WRITE, USER => '$Q', LIMIT => '5CU/min', SCOPE => CLUSTER
#java: quota throttle user=$Q WRITE_CAPACITY_UNIT 5 MINUTES CLUSTER
set_quota TYPE => THROTTLE, USER => '$Q', TABLE => '$U', LIMIT => '5K/min'
#java: quota throttle user=$Q,table=$U REQUEST_SIZE 5120 MINUTES MACHINE
set_quota TYPE => THROTTLE, USER => '$Q', NAMESPACE => '$NS', LIMIT => '100req/hour'
#java: quota throttle user=$Q,ns=$NS REQUEST_NUMBER 100 HOURS MACHINE
set_quota TYPE => THROTTLE, NAMESPACE => '$NS', LIMIT => '1000req/day', SCOPE => MACHINE
#java: quota throttle ns=$NS REQUEST_NUMBER 1000 DAYS MACHINE
set_quota TYPE => THROTTLE, TABLE => '$U', LIMIT => '10G/sec'
#java: quota throttle table=$U REQUEST_SIZE 10737418240 SECONDS MACHINE
set_quota TYPE => THROTTLE, THROTTLE_TYPE => WRITE, TABLE => '$U', LIMIT => '200req/sec'
#java: quota throttle table=$U WRITE_NUMBER 200 SECONDS MACHINE
set_quota USER => '$Q', GLOBAL_BYPASS => true
#java: quota bypass $Q true
set_quota TYPE => SPACE, TABLE => '$U', LIMIT => '1G', POLICY => NO_INSERTS
#java: quota space table=$U 1073741824 NO_INSERTS
set_quota TYPE => SPACE, NAMESPACE => '$NS', LIMIT => '50T', POLICY => NO_WRITES
#java: quota space ns=$NS 54975581388800 NO_WRITES
#out: OWNER
#out: USER => $Q
#out: TYPE => THROTTLE, THROTTLE_TYPE => REQUEST_NUMBER, LIMIT => 10req/sec, SCOPE => MACHINE
#out: USER => $Q
#out: THROTTLE_TYPE => READ_SIZE, LIMIT => 10.00M/sec, SCOPE => MACHINE
#out: THROTTLE_TYPE => WRITE_CAPACITY_UNIT, LIMIT => 5CU/min, SCOPE => CLUSTER
#out: GLOBAL_BYPASS => true
list_quotas USER => '$Q'
#out: USER => $Q, TABLE => $U
#out: THROTTLE_TYPE => REQUEST_SIZE, LIMIT => 5.00K/min
#out: 1 row(s) in
list_quotas USER => '$Q', TABLE => '$U'
#out: USER => $Q, NAMESPACE => $NS
#out: LIMIT => 100req/hour
#out: 1 row(s) in
list_quotas USER => 'sh_quotas_q_.*', NAMESPACE => '$NS', LIMIT => 1
#out: TABLE => $U
#out: LIMIT => 10.00G/sec
#out: THROTTLE_TYPE => WRITE_NUMBER, LIMIT => 200req/sec
#out: TYPE => SPACE, TABLE => $U, LIMIT => 1.00G, VIOLATION_POLICY => NO_INSERTS
#out: 3 row(s) in
list_quotas TABLE => '$U'
#out: NAMESPACE => $NS
#out: LIMIT => 1000req/day
#out: TYPE => SPACE, NAMESPACE => $NS, LIMIT => 50.00T, VIOLATION_POLICY => NO_WRITES
#out: 2 row(s) in
list_quotas NAMESPACE => '$NS'
#out: TABLE
#out: SIZE
list_quota_table_sizes
#out: IN_VIOLATION
list_quota_snapshots
#out: POLICY
list_quota_snapshots({TABLE => '$U'})
#out: USAGE
list_quota_snapshots({NAMESPACE => 'default'})
#out: LIMIT
list_quota_snapshots({REGIONSERVER => '$RS'})
#quotas: user $Q
#quotas: table $U
#quotas: namespace $NS
#phase
# Removals: one throttle type, a user's on a table, a table's, the space quotas, the bypass.
set_quota TYPE => THROTTLE, THROTTLE_TYPE => READ_SIZE, USER => '$Q', LIMIT => NONE
#java: quota unthrottle user=$Q READ_SIZE
set_quota TYPE => THROTTLE, USER => '$Q', TABLE => '$U', LIMIT => NONE
#java: quota unthrottle user=$Q,table=$U
set_quota TYPE => THROTTLE, THROTTLE_TYPE => WRITE_NUMBER, TABLE => '$U', LIMIT => NONE
#java: quota unthrottle table=$U WRITE_NUMBER
set_quota TYPE => THROTTLE, USER => '$Q', NAMESPACE => '$NS', LIMIT => NONE
#java: quota unthrottle user=$Q,ns=$NS
set_quota TYPE => THROTTLE, NAMESPACE => '$NS', LIMIT => NONE
#java: quota unthrottle ns=$NS
set_quota TYPE => SPACE, TABLE => '$U', LIMIT => NONE
#java: quota space-remove table=$U
set_quota TYPE => SPACE, NAMESPACE => '$NS', LIMIT => NONE
#java: quota space-remove ns=$NS
set_quota USER => '$Q', GLOBAL_BYPASS => false
#java: quota bypass $Q false
#out: 0 row(s) in
list_quotas USER => '$Q', TABLE => '$U'
#quotas: user $Q
#quotas: table $U
#quotas: namespace $NS
# The region servers' throttle (one target for every side: set and removed here) and switches.
set_quota TYPE => THROTTLE, REGIONSERVER => 'all', LIMIT => '30000req/sec'
#java: quota throttle rs=all REQUEST_NUMBER 30000 SECONDS MACHINE
set_quota TYPE => THROTTLE, REGIONSERVER => 'all', THROTTLE_TYPE => WRITE, LIMIT => '20000req/sec'
#java: quota throttle rs=all WRITE_NUMBER 20000 SECONDS MACHINE
#out: REGIONSERVER => all
#out: LIMIT => 20000req/sec
list_quotas
#out: Previous exceed throttle quota enabled :
#out: false
enable_exceed_throttle_quota
#java: quota exceed true
#out: true
disable_exceed_throttle_quota
#java: quota exceed false
set_quota TYPE => THROTTLE, REGIONSERVER => 'all', THROTTLE_TYPE => WRITE_NUMBER, LIMIT => NONE
#java: quota unthrottle rs=all WRITE_NUMBER
set_quota TYPE => THROTTLE, REGIONSERVER => 'all', LIMIT => NONE
#java: quota unthrottle rs=all
#out: Previous rpc throttle state :
#out: true
disable_rpc_throttle
#java: quota rpc false
#out: false
enable_rpc_throttle
#java: quota rpc true
# The logs: emptied, then nothing of $T in them (its answers are small so far).
create '$T', 'f'
#java: create $T f
put '$T', 'r1', 'f:q', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'
#java: put $T r1 f q xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
#out: Cleared Slowlog responses from 2/2 RegionServers
clear_slowlog_responses
#java: reqlog clear
#out: Cleared Slowlog responses from 1/1 RegionServers
clear_slowlog_responses ['$RS']
#out: Retrieved SlowLog Responses from RegionServers
get_slowlog_responses '*'
get_slowlog_responses '*', {'LIMIT' => 2}
get_slowlog_responses ['$RS'], {'TABLE_NAME' => '$T'}
get_slowlog_responses '*', {'REGION_NAME' => 'hbase:meta,,1', 'TABLE_NAME' => '$T'}
get_slowlog_responses '*', {'USER' => 'nobody', 'CLIENT_IP' => '192.0.2.1:60225', 'FILTER_BY_OP' => 'AND'}
#out: Retrieved LargeLog Responses from RegionServers
get_largelog_responses '*', {'TABLE_NAME' => '$T'}
#out: Retrieved BalancerDecision Responses
get_balancer_decisions
get_balancer_decisions {'LIMIT' => 10}
#out: Retrieved BalancerRejection Responses
get_balancer_rejections
get_balancer_rejections {'LIMIT' => 10}
#reqlog: large $T
#reqlog: slow $T
#phase
# A large answer from $T (over the cluster's 2 KB) is in the large log, as Java lists it.
#out: 1 row(s) in
scan '$T'
#java: reqlog scan $T
get_balancer_decisions
get_balancer_rejections
#out: Retrieved LargeLog Responses from RegionServers
#out: "methodName": "Scan"
get_largelog_responses '*', {'TABLE_NAME' => '$T', 'LIMIT' => 5}
#out: Retrieved LargeLog Responses from RegionServers
get_largelog_responses ['$RS'], {'TABLE_NAME' => '$T'}
#reqlog: large $T wait
#reqlog: slow $T
