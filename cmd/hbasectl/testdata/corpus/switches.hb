# The master's switches and chores. Both hbasectl runs (text, then -json) flip the same
# switches; "#switches:" checks them as the Java Admin reads them after each part, and the
# last part sets each back to its start value (the files after this one expect them).
create_namespace '$NS'
create '$T', 'f'
create '$NS:$U', 'f'
#out: true
splitormerge_enabled 'SPLIT'
#out: Previous state:
#out: true
splitormerge_switch 'SPLIT', false
#out: false
splitormerge_enabled 'SPLIT'
#out: Previous state:
#out: true
splitormerge_switch 'MERGE', false
#out: false
splitormerge_enabled 'MERGE'
#out: true
catalogjanitor_enabled
#out: Previous state:
#out: true
catalogjanitor_switch false
#out: false
catalogjanitor_enabled
#out: Catalog janitor ran:
catalogjanitor_run
#out: true
cleaner_chore_enabled
#out: Previous state:
#out: true
cleaner_chore_switch false
#out: false
cleaner_chore_enabled
cleaner_chore_run
#out: true
snapshot_cleanup_enabled
#out: Previous state:
#out: true
snapshot_cleanup_switch false
#out: false
snapshot_cleanup_enabled
#out: false
is_in_maintenance_mode
#out: Previous state:
#out: true
normalizer_switch true
#out: true
normalize
normalize TABLE_NAMES => ['$T', '$NS:$U']
normalize REGEX => '$T.*'
normalize NAMESPACE => '$NS'
normalize NAMESPACE => '$NS', REGEX => '.*'
#switches: split=false merge=false catalogJanitor=false cleanerChore=false snapshotCleanup=false normalizer=true
#phase
#out: Previous state:
#out: false
splitormerge_switch 'SPLIT', true
#out: Previous state:
#out: false
splitormerge_switch 'MERGE', true
#out: Previous state:
#out: false
catalogjanitor_switch true
#out: Previous state:
#out: false
cleaner_chore_switch true
#out: Previous state:
#out: false
snapshot_cleanup_switch true
#out: Previous state:
#out: true
normalizer_switch false
#out: false
normalize
#out: Previous state:
#out: false
normalizer_switch true
#switches: split=true merge=true catalogJanitor=true cleanerChore=true snapshotCleanup=true normalizer=true
