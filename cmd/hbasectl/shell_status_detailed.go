package main

import (
	"fmt"
	"strconv"

	"github.com/go-hbase/hbase/hrpc"
)

// statusDetailed is status 'detailed' as the shell prints it: the version, regions in
// transition, the masters, each live server with its load and each of its regions with its
// figures (HBase's RegionMetrics names), and the dead servers.
func statusDetailed(cs *hrpc.ClusterStatus) []string {
	lines := []string{"version " + cs.Version, fmt.Sprintf("%d regionsInTransition", cs.RegionsInTransition),
		"active master:  " + shellServer(cs.Master), fmt.Sprintf("%d backup masters", len(cs.BackupMasters))}
	for _, b := range cs.BackupMasters {
		lines = append(lines, "    "+shellServer(b))
	}
	lines = append(lines, fmt.Sprintf("%d live servers", len(cs.LiveServers)))
	for _, s := range cs.LiveServers {
		lines = append(lines, "    "+shellServer(s.Server), "        "+serverLoadText(&s))
		for i := range s.Regions {
			r := &s.Regions[i]
			lines = append(lines, "        "+strconv.Quote(string(r.Name)), "            "+regionLoadText(r))
		}
	}
	lines = append(lines, fmt.Sprintf("%d dead servers", len(cs.DeadServers)))
	for _, d := range cs.DeadServers {
		lines = append(lines, "    "+d.String())
	}
	return lines
}

// shellServer is a server as the shell's status prints it: "host:port startcode".
func shellServer(s hrpc.ServerName) string {
	return s.Addr() + " " + strconv.FormatUint(s.StartCode, 10)
}

func serverLoadText(s *hrpc.ServerStatus) string {
	return fmt.Sprintf("requestsPerSecond=%d, numberOfOnlineRegions=%d, usedHeapMB=%d, maxHeapMB=%d, totalNumberOfRequests=%d, infoServerPort=%d, reportStartTime=%d, reportEndTime=%d",
		s.RequestsPerSec, len(s.Regions), s.UsedHeapMB, s.MaxHeapMB, s.TotalRequests, s.InfoPort, s.ReportStartTime, s.ReportEndTime)
}

func regionLoadText(r *hrpc.RegionLoad) string {
	return fmt.Sprintf("storeCount=%d, storeFileCount=%d, uncompressedStoreFileSize=%dMB, lastMajorCompactionTimestamp=%d, storeFileSize=%dMB, memStoreSize=%dMB, readRequestCount=%d, writeRequestCount=%d, filteredReadRequestCount=%d, storeFileIndexSize=%dKB, compactingCellCount=%d, compactedCellCount=%d, dataLocality=%g, blocksLocalWeight=%d, blocksTotalWeight=%d",
		r.Stores, r.StoreFiles, r.StoreUncompressedMB, r.LastMajorCompaction, r.StoreFileSizeMB, r.MemStoreSizeMB, r.ReadRequests, r.WriteRequests,
		r.FilteredReadRequests, r.StoreFileIndexSizeKB, r.CompactingKVs, r.CompactedKVs, r.DataLocality, r.BlocksLocalWeight, r.BlocksTotalWeight)
}
