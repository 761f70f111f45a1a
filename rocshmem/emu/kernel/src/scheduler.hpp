// The scheduler's state: a launch, its resident blocks, their waves and work-items.
// See scheduler.cpp for the execution model.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <utility>
#include <vector>

#include "../../common/backoff.hpp"
#include "hip_emu_kernel.hpp"
#include "watchdog.hpp"

namespace hip_emu::kernel {

struct Block;
struct Wave;
struct WorkItem;

// A place where work-items of one block (or one wave) wait for each other.
struct Meeting {
  enum Kind : uint8_t { idle, barrier, group, wave_op } kind = idle;
  const char* name = nullptr;  // for messages; a group call's name identifies it
  int op = 0;                  // wave_op: ROCSHMEM_EMU_WI_SHUFFLE or _BALLOT
  unsigned arrived = 0;
  bool leader_working = false;  // group: everyone arrived, the leader does the work
  std::vector<WorkItem*> waiters;
};

class Launch;

// The runnable work-items, first to run first: a ring of pointers that grows by doubling. A
// meeting of a block pushes and pops each of its work-items once; std::deque costs several times
// more per operation.
class RunQueue {
 public:
  bool empty() const { return head_ == tail_; }
  size_t size() const { return tail_ - head_; }
  WorkItem* front() const { return at(0); }
  void pop_front() { ++head_; }
  void push_back(WorkItem* item) {
    if (size() == ring_.size()) grow();
    ring_[tail_++ & mask_] = item;
  }
  // Makes `item` the position-th to run (0: next; position <= size()); the work-item that was there
  // goes to the back. O(1): shifting the ones behind it cost more than the rest of a rocSHMEM device
  // call with a thousand work-items resident.
  void insert_swapping(size_t position, WorkItem* item) {
    push_back(item);
    std::swap(at(position), at(size() - 1));
  }

 private:
  WorkItem*& at(size_t i) { return ring_[(head_ + i) & mask_]; }
  WorkItem* at(size_t i) const { return ring_[(head_ + i) & mask_]; }
  void grow() {
    const size_t n = size();
    std::vector<WorkItem*> bigger(ring_.empty() ? 256 : 2 * ring_.size());
    for (size_t i = 0; i < n; ++i) bigger[i] = at(i);
    ring_.swap(bigger);
    mask_ = ring_.size() - 1;
    head_ = 0;
    tail_ = n;
  }
  std::vector<WorkItem*> ring_;
  size_t mask_ = 0;
  size_t head_ = 0;  // counts up (wrapping); the slot is head_ & mask_
  size_t tail_ = 0;
};

struct WorkItem {
  void* stack_pointer = nullptr;  // saved by rocshmem_emu_fiber_switch
  Launch* launch = nullptr;
  Block* block = nullptr;
  Wave* wave = nullptr;
  rocshmem_emu_wi_id_set_t ids{};
  unsigned flat = 0;
  unsigned lane = 0;
  enum State : uint8_t { ready, waiting, done } state = ready;
  const char* where = nullptr;  // the meeting it waits in (messages)
  char* guard = nullptr;        // the guard page below its stack
  // Spin detection (Launch::spin_point): the addresses of its last atomics with the values they
  // returned (a spin may poll several, e.g. a queue's head and tail), and how many scheduling
  // points in a row showed no progress.
  static constexpr unsigned kSpinAddresses = 4;
  const volatile void* spin_address[kSpinAddresses] = {};
  uint64_t spin_value[kSpinAddresses] = {};
  unsigned spin_next = 0;
  unsigned spins = 0;
};

struct Wave {
  unsigned first = 0;  // flat id of lane 0
  unsigned size = 0;   // lanes (the last wave of a block may be partial)
  unsigned live = 0;   // lanes that have not finished
  Meeting meeting;
  uint64_t present = 0;  // lanes that arrived at the open exchange
  uint64_t values[kMaxWaveSize];
  int sources[kMaxWaveSize];
  uint64_t results[kMaxWaveSize];
  unsigned char group_value[ROCSHMEM_EMU_WI_GROUP_VALUE_BYTES];  // a wave-scope group call's result
};

struct Block {
  rocshmem_emu_wi_dim_t id{};
  unsigned size = 0;
  unsigned live = 0;
  unsigned finished = 0;
  Meeting meeting;
  std::vector<Wave> waves;
  WorkItem* items = nullptr;
  std::vector<unsigned char> shared;  // this block's __shared__ image while another block runs
  // A block-scope group call's result, from the leader to the others. Rewritten only when the
  // next group call completes, which needs every member, so each has read it by then.
  unsigned char group_value[ROCSHMEM_EMU_WI_GROUP_VALUE_BYTES];
};

class Launch {
 public:
  Launch(const KernelInfo& kernel, const LaunchShape& shape, const PackedArgs& args);
  ~Launch();
  Launch(const Launch&) = delete;
  Launch& operator=(const Launch&) = delete;

  void run();

  const KernelInfo& kernel() const { return kernel_; }
  unsigned wave_size() const { return wave_size_; }

  // Called by the running work-item `item` (on its own stack).
  void yield(WorkItem* item);
  // An atomic (kind ROCSHMEM_EMU_WI_SPIN_ATOMIC, with its address and result), a fence or a sleep:
  // a switch once the work-item repeats them without progress (see scheduler.cpp).
  // Inline: every atomic of a kernel comes here; only a switch leaves the fast path.
  void spin_point(WorkItem* item, int kind, const volatile void* address, uint64_t observed) {
    if (kind == ROCSHMEM_EMU_WI_SPIN_ATOMIC) {
      // Progress: an address it has not polled lately, or one that now returns another value.
      unsigned slot = WorkItem::kSpinAddresses;
      for (unsigned i = 0; i < WorkItem::kSpinAddresses; ++i) {
        if (item->spin_address[i] == address) slot = i;
      }
      if (slot == WorkItem::kSpinAddresses) {
        slot = item->spin_next++ % WorkItem::kSpinAddresses;
        item->spin_address[slot] = address;
        item->spin_value[slot] = observed;
        item->spins = 0;
        return;
      }
      if (item->spin_value[slot] != observed) {
        item->spin_value[slot] = observed;
        item->spins = 0;
        return;
      }
    }
    if (kind != ROCSHMEM_EMU_WI_SPIN_SLEEP && ++item->spins < kSpinLimit) return;
    spin_switch(item);
  }
  // Scheduling points in a row without progress before a spinning work-item switches out: a
  // spin iteration costs tens of nanoseconds, a switch a few, so 16 keeps a spin's wait for its
  // writer short and a burst of unchanged atomics (a max that holds) almost free.
  static constexpr unsigned kSpinLimit = 16;
  // The end of a rocSHMEM device call: in the random schedule, a seeded chance to switch.
  void call_boundary(WorkItem* item, bool poll);
  void syncthreads(WorkItem* item);
  uint64_t wave_exchange(WorkItem* item, int op, uint64_t value, int src_lane);
  int group_enter(WorkItem* item, int scope, const char* call);
  void group_leave(WorkItem* item, int scope, void* value, size_t bytes);

 private:
  // A resident block's storage: its work-items and their stacks (one mapping, guard pages).
  struct Slot {
    char* region = nullptr;
    size_t region_bytes = 0;
    std::unique_ptr<WorkItem[]> items;
    Block block;
    bool busy = false;
  };

  static void fiber_main();
  void prepare_slot(Slot& slot);
  void admit_blocks();
  void start_block(Slot& slot, uint64_t linear);
  void release_block(Block& block);
  void resume(WorkItem* item);
  void switch_out(WorkItem* item);
  void requeue(WorkItem* item, bool anywhere);
  void spin_switch(WorkItem* item);
  void grow_residency();
  uint64_t next_random();
  void wait(WorkItem* item, const char* where);
  void wake(WorkItem* item);
  void release_waiters(Meeting& meeting, WorkItem* self);
  void join(Meeting& meeting, Meeting::Kind kind, const char* name, int op, WorkItem* item,
            const char* scope);
  void complete_wave_exchange(Wave& wave, WorkItem* self);
  void finish(WorkItem* item);
  // One more switch for the watchdog (only this thread writes the count: no locked add).
  void count_switch() {
    progress_.switches.store(progress_.switches.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  [[noreturn]] void report_deadlock();

  const KernelInfo& kernel_;
  LaunchShape shape_;
  std::vector<void*> arg_pointers_;
  unsigned block_size_ = 0;
  unsigned waves_per_block_ = 0;
  uint64_t total_blocks_ = 0;
  uint64_t next_block_ = 0;
  unsigned resident_blocks_ = 0;
  size_t stride_ = 0;  // guard page + stack, per work-item
  std::deque<Slot> slots_;  // a deque: blocks are referenced by address while slots are added
  RunQueue ready_;
  void* main_stack_pointer_ = nullptr;  // the stream thread's, while a work-item runs
  unsigned char* shared_base_ = nullptr;  // this thread's TLS block of the kernel's module
  size_t shared_size_ = 0;
  std::vector<std::pair<size_t, size_t>> shared_segments_;  // (offset, bytes) swapped per block
  size_t shared_saved_bytes_ = 0;
  emu_common::Backoff lonely_;  // yields with nothing else runnable wait like every emulator loop
  unsigned wave_size_ = kMaxWaveSize;
  bool random_order_ = false;    // ROCSHMEM_EMU_KERNEL_SCHEDULE=random
  uint64_t random_state_ = 0;
  bool spin_switch_ = false;           // the work-item just switched out spinning
  uint64_t spin_switches_in_row_ = 0;  // ... and so did every one before it since the last progress
  size_t max_resident_items_ = 0;      // residency may grow to this when every resident work-item spins
  LaunchProgress progress_;
  Block* loaded_ = nullptr;  // whose shared memory is in the TLS block now
  WorkItem* current_ = nullptr;  // the running work-item
};

extern "C" __thread int rocshmem_emu_wi_warp_size;  // warpSize (workitem_abi.cpp)
extern "C" int rocshmem_emu_wi_launches_running;    // (workitem_abi.cpp)
extern __thread Launch* tl_launch;  // __thread: no TLS wrapper calls on the hot paths
// Records that a launch ran in the random schedule (the seed is then printed at a failing exit).
void note_random_schedule(bool random);
const char* random_schedule_seed_line();  // that line, or nullptr
extern __thread WorkItem* tl_item;

}  // namespace hip_emu::kernel
