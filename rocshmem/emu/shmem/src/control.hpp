// Layout of the control segment: one POSIX shared-memory object per job, mapped by every PE.
// It holds what the PEs must agree on at run time: who is alive, barrier counters per team
// membership, and the global_exit request. Only lock-free std::atomic fields are shared, which
// are address-free and therefore valid across processes.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace rocshmem_emu {

constexpr uint64_t kControlMagic = 0x314d4553524d4552ULL;  // "REMRSEM1"
constexpr uint32_t kControlLayoutVersion = 1;
constexpr int kMaxPes = 4096;
constexpr int kMaxTeamSlots = 512;
constexpr size_t kShmNameLen = 64;

enum PeState : int32_t {
  kPeEmpty = 0,      // slot not yet claimed
  kPeJoined = 1,     // heap created and published, bootstrap still running
  kPeRunning = 2,    // init finished
  kPeFinalized = 3,  // rocshmem_finalize returned: alive process, but no longer a PE
  kPeExited = 4,     // process left without finalize (atexit) or called global_exit
};

// Sense-reversing central barrier: the last arriver resets the counter and bumps the generation.
// The two words live on separate cache lines so spinning readers do not slow down arrivals.
struct alignas(64) BarrierState {
  std::atomic<uint32_t> arrived;
  char pad0[60];
  std::atomic<uint32_t> generation;
  char pad1[60];
};

// One slot per distinct team membership (world PEs start + i*stride, i < size). Teams with the
// same members share a slot; slots are never released, so no cross-PE agreement is needed.
struct alignas(64) TeamSlot {
  std::atomic<uint32_t> ready;  // 0 free, 1 in use
  int32_t start;
  int32_t stride;
  int32_t size;
  BarrierState barrier;
};

struct alignas(64) PeSlot {
  std::atomic<int32_t> pid;
  std::atomic<int32_t> state;  // PeState
  uint64_t heap_size;
  char heap_name[kShmNameLen];
};

struct alignas(64) ControlSegment {
  std::atomic<uint64_t> magic;  // stored last (release) by the creator
  uint32_t layout_version;
  int32_t n_pes;
  uint64_t heap_size;
  uint8_t secret[16];
  int32_t creator_pid;
  std::atomic<int32_t> joined;          // PEs whose heap is published
  std::atomic<int32_t> mapped;          // PEs that mapped every heap
  std::atomic<int32_t> exit_requested;  // rocshmem_global_exit was called
  std::atomic<int32_t> exit_status;
  std::atomic<int32_t> exit_pe;
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
