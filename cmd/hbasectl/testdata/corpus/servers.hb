# Region servers and what they hold: compactions of a server and their switch,
# decommissioning, the block cache, WAL rolls, configuration reloads, flushes and compactions
# of one family, a region's info and truncation. $RS is the first live region server; the
# compaction switch is on and no server decommissioned at the end.
create '$T', 'f', 'g', SPLITS => ['m']
#java: create $T f g splits=m
put '$T', 'a', 'f:q', 'v', 10
put '$T', 'a', 'g:q', 'v', 10
put '$T', 'p', 'f:q', 'v', 10
#java: put $T a f q v 10
#java: put $T a g q v 10
#java: put $T p f q v 10
#out: Flushed every region of region server $RS
flush '$RS'
#out: Flushed family 'f' of $T
flush '$T', 'f'
#out: Queued a minor compaction of family 'f' of $T
compact '$T', 'f'
#out: Queued a major compaction of family 'g' of $T
major_compact '$T', 'g'
#out: Queued a minor compaction of the regions of $RS
compact_rs '$RS'
#out: Queued a major compaction of the regions of $RS
compact_rs '$RS', true
#out: CacheEvictionStats{evictedBlocks=
clear_block_cache '$T'
#out: Rolled the WALs of $RS
wal_roll '$RS'
#out: Updated the configuration of $RS
update_config '$RS'
#out: Updated the configuration of every server
update_all_config
#out: PREV_STATE
#out: $RS
#out: true
compaction_switch false
#out: $RS
#out: false
compaction_switch true, ['$RS']
compaction_switch true
#out: Decommissioned $RS
decommission_regionservers '$RS'
#out: DECOMMISSIONED REGION SERVERS
#out: $RS
list_decommissioned_regionservers
#admin-state: decommissioned=$RS
#phase
decommission_regionservers ['$RS'], false
#out: Recommissioned $RS
recommission_regionserver '$RS', ['$R0']
#out: DECOMMISSIONED REGION SERVERS
#out: 0 row(s)
list_decommissioned_regionservers
#admin-state: decommissioned=
#out: Flushed family 'g' of $R0
flush '$R0', 'g'
#out: Queued a minor compaction of family 'f' of $R0
compact '$R0', 'f'
#out: Queued a major compaction of family 'g' of $R1
major_compact '$R1', 'g'
compaction_state '$T'
compaction_state '$R0'
#out: {ENCODED => $R0, NAME => '$T,,
#out: STARTKEY => '', ENDKEY => 'm'}
regioninfo '$R0'
#out: Truncated region $R1
truncate_region '$R1'
#java: truncate-region $T 1
#out: timestamp=10, value=v
get '$T', 'a'
#state: $T
