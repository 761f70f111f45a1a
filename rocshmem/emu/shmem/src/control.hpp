// Layout of the control segment: one shared-memory object per job, mapped by every PE.
// It holds what the PEs must agree on at run time: who is alive, barrier counters and the
// collective-matching tag per team, and the job-abort request (global_exit or a
// collective mismatch). Only lock-free std::atomic fields are shared across processes (they are
// address-free); plain fields are written before a release store that publishes them.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace rocshmem_emu {

constexpr uint64_t kControlMagic = 0x314d4553524d4552ULL;  // "REMRSEM1"
constexpr uint32_t kControlLayoutVersion = 4;
constexpr int kMaxPes = 4096;
constexpr int kMaxTeamSlots = 1024;
constexpr size_t kShmNameLen = 128;  // object names carry pid namespace, pid and a random part
constexpr size_t kCollectiveNameLen = 56;

enum PeState : int32_t {
  kPeEmpty = 0,      // slot not yet claimed
  kPeJoined = 1,     // heap created and published, bootstrap still running
  kPeRunning = 2,    // init finished
  kPeFinalized = 3,  // rocshmem_finalize returned: alive process, but no longer a PE
  kPeExited = 4,     // process left without finalize (atexit) or called global_exit
};

// Sense-reversing central barrier: the last arriver resets the counter and bumps the generation.
// The two words live on separate cache lines so spinning readers do not slow down arrivals.
enum ExitReason : int32_t {
  kExitGlobalExit = 0,          // rocshmem_global_exit(status)
  kExitCollectiveMismatch = 1,  // PEs entered different collectives (teams.cpp)
  kExitAbandoned = 2,           // a PE's program ended abnormally without finalize (rocshmem_emu_abandon_job)
};

struct alignas(64) BarrierState {
  std::atomic<uint32_t> arrived;
  char pad0[60];
  std::atomic<uint32_t> generation;
  char pad1[60];
};

// Which collective the PEs of one barrier generation are in (see teams.cpp, "collective
// matching"). The first PE to arrive claims `owner`, then publishes what it entered; every later
// PE compares its own call with that and aborts the job on a difference.
struct alignas(64) CollectiveTag {
  std::atomic<uint32_t> owner;      // world PE + 1 of the first arriver; 0 = nobody yet
  std::atomic<uint32_t> published;  // barrier generation + 1 whose fields below are complete
  uint32_t seq;                     // the owner's per-team sequence number of this collective
  uint32_t pad;
  uint64_t team_id;                 // identity of the owner's team (teams with equal members differ)
  uint64_t args[2];                 // arguments that must agree (size, offset, root...)
  char name[kCollectiveNameLen];    // API function, NUL-terminated (truncated if longer)
};

// One slot per team (identity id and members: world PEs start + i*stride, i < size), so two teams
// with the same members have their own barriers. Every member PE attaches once when it creates its
// team object and detaches when it destroys it; the last one frees the slot (under team_lock).
// WORLD's slot and the OpenSHMEM 1.4 active sets' slots are pinned (never freed).
struct alignas(64) TeamSlot {
  std::atomic<uint32_t> ready;  // 0 free, 1 in use
  int32_t start;
  int32_t stride;
  int32_t size;
  uint64_t team_id;
  int32_t users;   // PEs attached (under team_lock)
  int32_t pinned;  // never freed
  BarrierState barrier;
  CollectiveTag tag;
};

// The collective a PE is blocked in (after arriving), so a PE waiting in another team's
// collective can tell that they wait for each other (teams.cpp, "cross-team waits").
// A PE may be blocked in several collectives at once (one per work-group of a kernel, one per host
// thread), each on its own team: one entry per blocked caller.
struct BlockedIn {
  std::atomic<uint32_t> claimed;  // 1 while a caller owns the entry
  std::atomic<uint32_t> slot;     // team slot index + 1; 0 = not (yet) published
  uint32_t generation;            // the slot's barrier generation it arrived in
  uint32_t seq;
  uint32_t exclusive;             // the caller is the PE's only possible entrant (host thread or 1-block kernel)
  uint32_t pad;
  uint64_t team_id;
  char name[kCollectiveNameLen];
};
constexpr int kMaxBlockedPerPe = 64;

struct alignas(64) PeSlot {
  std::atomic<int32_t> pid;
  std::atomic<int32_t> state;  // PeState
  uint64_t heap_size;
  char heap_name[kShmNameLen];
  std::atomic<int32_t> blocked_count;  // entries claimed
  BlockedIn blocked[kMaxBlockedPerPe];
};

struct alignas(64) ControlSegment {
  std::atomic<uint64_t> magic;  // stored last (release) by the creator
  uint32_t layout_version;
  int32_t n_pes;
  uint64_t heap_size;
  uint8_t secret[16];
  int32_t creator_pid;
  uint64_t delivery_seed;  // the job's delivery-order seed (completion.hpp), chosen by the creator
  std::atomic<int32_t> joined;          // PEs whose heap is published
  std::atomic<int32_t> mapped;          // PEs that mapped every heap
  std::atomic<int32_t> exit_requested;  // the job is over: global_exit or a collective mismatch
  std::atomic<int32_t> exit_status;
  std::atomic<int32_t> exit_pe;
  std::atomic<int32_t> exit_reason;  // ExitReason
  std::atomic<int32_t> team_lock;  // pid of the holder, 0 when free
  TeamSlot teams[kMaxTeamSlots];
  // followed by PeSlot[n_pes]
};

inline size_t control_segment_bytes(int n_pes) {
  return sizeof(ControlSegment) + sizeof(PeSlot) * static_cast<size_t>(n_pes);
}

inline PeSlot* pe_slots(ControlSegment* c) {
  return reinterpret_cast<PeSlot*>(reinterpret_cast<char*>(c) + sizeof(ControlSegment));
}

}  // namespace rocshmem_emu
