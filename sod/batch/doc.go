// Package batch runs many independent jobs: progress reporting, shards k/N
// and a worker pool. It knows nothing of matrix sensing (of package sod it
// uses only the error values); the long runs of the workbench use it: the
// experiments' studies (sod/experiments, RunStudy and RunStudyShard) and
// the escape benchmark (sod/escapebench, RunSuite).
//
// # Concepts → API (one file each)
//
//   - progress.go — Progress (Done of Total jobs, optionally weighted by
//     their cost: Work of TotalWork, for an honest ETA), ProgressFunc (a nil
//     one means no reporting) and TextProgress, a one-line terminal bar.
//   - shard.go — a run split into N shards that run independently (on N
//     machines: a Kubernetes Indexed Job, a Slurm job array) and are merged:
//     shard k of N holds the jobs with global index j ≡ k (mod N), round
//     robin (Shard, InShard, MaxShards).
//   - pool.go — ForEach runs jobs 0 … count−1 on a pool of goroutines
//     (Pool.Workers), reports progress from the calling goroutine and
//     stops at the first error or at the context's cancellation. Each job
//     writes only its own output slot, so results never depend on the
//     number of workers or on scheduling.
package batch
