// The work-item scheduler: every work-item of a launch is a fiber run by the launching stream's
// thread.
//
// Why fibers: a GPU runs the work-items of a launch concurrently, and correct kernels rely on
// that (blocks that wait on each other, lanes that meet in a shuffle). One OS thread per
// work-item would cost 1024 threads per block on a 2-core machine; fibers cost a stack each and
// switch only where a work-item cannot go on: at a meeting (__syncthreads, a wave
// intrinsic, a group call) or when it yields (rocshmem_emu_wi_yield, called by every blocking
// rocSHMEM device call). The switch is a few instructions (fiber_switch.cpp): glibc's ucontext
// makes a system call per switch, which made a 1024-work-item launch cost milliseconds.
//
// Execution model:
//  - Blocks become resident in grid order, at most max(1, resident_work_items / block size) at a
//    time (like a GPU's occupancy; ROCSHMEM_EMU_RESIDENT_WORK_ITEMS, default 8192). Resident
//    blocks make progress together; a block starts when a resident one has finished.
//  - One FIFO of runnable work-items: a work-item runs until it meets, yields or finishes. It
//    then switches straight to the next one (switch_out) unless the loop in run() has work
//    between the two (a spin to account for, another block's shared memory, a finished block).
//  - Spins: HIP atomics (atomicAdd... and __hip_atomic_*), __threadfence* and the sleep intrinsics
//    are scheduling points (spin_point). A work-item switches out once it has made kSpinLimit of
//    them in a row without progress: an atomic that returns what the previous one returned at the
//    same address, a fence, a sleep (a sleep switches at once). An atomic that sees a change resets
//    the count. So a spin on an atomic flag lets the writer run, a counter or a work queue never
//    switches. When every runnable work-item has switched out spinning twice over and blocks wait
//    to start, one more block becomes resident (up to kMaxGrownWorkItems): a GPU holds far more
//    blocks than the emulator's default residency, and a spin may wait for one of them.
//  - Schedule fuzzing (ROCSHMEM_EMU_KERNEL_SCHEDULE=random, the default): at the end of every
//    rocSHMEM device call the work-item switches out with probability 1/4 and goes to a random
//    place in the queue, drawn from ROCSHMEM_EMU_KERNEL_SEED and the launch's number. `fifo`
//    switches only where a work-item cannot go on (the deterministic order, for debugging).
//  - __syncthreads completes when every live (not finished) work-item of the block arrived (on
//    AMD, waves that ended do not take part in a barrier). Wave exchanges complete when every live
//    lane of the wave arrived. Group calls need every work-item of the block / wave.
//  - A meeting of a different kind while one is open in the same block (or wave), or a group call
//    that a finished work-item can never join, ends the PE at once with a message. When nothing
//    is runnable but work-items are left, the launch can never complete (a GPU would hang): the
//    PE ends with a message naming the kernel, the block and where its work-items wait.
//  - A spin on plain memory (no atomic, fence or sleep in the loop) never lets the others run: it
//    hangs as the writer is never scheduled (documented in README.md; watchdog.cpp names it).
//
// __shared__ variables are thread_local (see rocshmem_emu_kernel.hpp): the module's TLS block on
// this thread holds the running block's shared memory. The scheduler swaps it when it switches
// to a work-item of another block, so each block sees its own copy at the same addresses.
#include "scheduler.hpp"

#include <dlfcn.h>
#include <link.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <memory>
#include <mutex>
#include <string>

#include "fault.hpp"
#include "fiber_switch.hpp"
#include "settings.hpp"

extern "C" void* __tls_get_addr(void*);  // x86-64 psABI: {module id, offset} -> this thread's address

namespace hip_emu::kernel {

__thread Launch* tl_launch = nullptr;
__thread WorkItem* tl_item = nullptr;

namespace {

size_t page_size() {
  static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

size_t stack_bytes() { return kernel_settings().stack_bytes; }
size_t resident_work_items() { return kernel_settings().resident_work_items; }

// Residency grows for spinning kernels up to this many work-items (each stack's guard page is a
// mapping; Linux allows 65530 per process by default).
constexpr size_t kMaxGrownWorkItems = 16384;

// Launches of this process, numbering each one's random schedule.
std::atomic<uint64_t> g_launches{0};

uint64_t splitmix64(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The PT_TLS segment of the module that holds a kernel: where its __shared__ variables live.
struct TlsImage {
  size_t module_id = 0;
  size_t size = 0;
};

TlsImage find_tls_image(const void* address) {
  struct Query {
    uintptr_t address;
    TlsImage image;
  } query{reinterpret_cast<uintptr_t>(address), {}};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* q = static_cast<Query*>(data);
        bool holds = false;
        size_t tls_size = 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          uintptr_t start = info->dlpi_addr + ph.p_vaddr;
          if (ph.p_type == PT_LOAD && q->address >= start && q->address < start + ph.p_memsz) holds = true;
          if (ph.p_type == PT_TLS) tls_size = ph.p_memsz;
        }
        if (!holds) return 0;
        q->image = TlsImage{tls_size ? info->dlpi_tls_modid : 0, tls_size};
        return 1;
      },
      &query);
  return query.image;
}

}  // namespace

uint64_t max_resident_blocks(unsigned block_size) {
  const uint64_t blocks = block_size == 0 ? 1 : resident_work_items() / block_size;
  return blocks == 0 ? 1 : blocks;
}

// Not cached: a code object may be unloaded and another loaded at the same address, and the
// lookup costs a few microseconds per launch.
size_t static_shared_bytes(const KernelInfo& kernel) {
  size_t image = find_tls_image(kernel.address).size;
  return image > kernel.dynamic_shared_capacity ? image - kernel.dynamic_shared_capacity : 0;
}

// ---- one launch --------------------------------------------------------------------------------

Launch::Launch(const KernelInfo& kernel, const LaunchShape& shape, const PackedArgs& args)
    : kernel_(kernel), shape_(shape) {
  for (size_t offset : args.offsets) {
    arg_pointers_.push_back(const_cast<unsigned char*>(args.bytes.data()) + offset);
  }
  TlsImage image = find_tls_image(kernel.address);
  if (image.size != 0) {
    struct {
      size_t module;
      size_t offset;
    } index{image.module_id, 0};
    shared_base_ = static_cast<unsigned char*>(__tls_get_addr(&index));
    shared_size_ = image.size;
    // What a block switch saves and restores: the whole image but the unused tail of the
    // dynamic shared buffer (64 KiB in every object with extern __shared__ arrays).
    size_t dynamic_offset = shared_size_, dynamic_capacity = 0;
    if (kernel.dynamic_shared != nullptr) {
      auto* buffer = static_cast<unsigned char*>(kernel.dynamic_shared());
      if (buffer >= shared_base_ && buffer + kernel.dynamic_shared_capacity <= shared_base_ + shared_size_) {
        dynamic_offset = static_cast<size_t>(buffer - shared_base_);
        dynamic_capacity = kernel.dynamic_shared_capacity;
      }
    }
    const size_t used_end = dynamic_offset + std::min(shape.dynamic_shared, dynamic_capacity);
    shared_segments_.push_back({0, used_end});
    if (dynamic_offset + dynamic_capacity < shared_size_) {
      shared_segments_.push_back({dynamic_offset + dynamic_capacity, shared_size_ - dynamic_offset - dynamic_capacity});
    }
    shared_saved_bytes_ = 0;
    for (const auto& segment : shared_segments_) shared_saved_bytes_ += segment.second;
  }
  block_size_ = shape.block.x * shape.block.y * shape.block.z;
  total_blocks_ = uint64_t(shape.grid.x) * shape.grid.y * shape.grid.z;
  const KernelSettings& settings = kernel_settings();
  wave_size_ = kernel.wave_size != 0 ? kernel.wave_size : settings.wave_size;
  waves_per_block_ = (block_size_ + wave_size_ - 1) / wave_size_;
  uint64_t resident = std::min(max_resident_blocks(block_size_), total_blocks_);
  slots_.resize(resident);
  max_resident_items_ = std::max(resident_work_items(), kMaxGrownWorkItems);
  stride_ = stack_bytes() + page_size();
  random_order_ = settings.schedule == ScheduleMode::random;
  random_state_ = settings.seed ^ (g_launches.fetch_add(1, std::memory_order_relaxed) * 0xD1B54A32D192ED03ull);
  note_random_schedule(random_order_);
}

namespace {

// Stack regions of finished launches, kept for the next launches: mapping, guarding and first-touch
// faulting 1024 stacks costs milliseconds, and launches usually repeat their shape. One cache for
// the process (stream threads share it), holding at most resident_work_items() stacks: each
// guard page splits the mapping, and a process has a limited number of mappings
// (vm.max_map_count, 65530 by default).
struct StackRegion {
  char* base;
  size_t bytes;
  size_t stride;
};

class StackCache {
 public:
  char* take(size_t bytes, size_t stride) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = 0; i < regions_.size(); ++i) {
      if (regions_[i].bytes == bytes && regions_[i].stride == stride) {
        char* base = regions_[i].base;
        cached_stacks_ -= bytes / stride;
        regions_.erase(regions_.begin() + static_cast<long>(i));
        return base;
      }
    }
    return nullptr;
  }
  void give(char* base, size_t bytes, size_t stride) {
    std::lock_guard<std::mutex> lock(mutex_);
    const size_t stacks = bytes / stride;
    while (!regions_.empty() && cached_stacks_ + stacks > resident_work_items()) {
      munmap(regions_.front().base, regions_.front().bytes);  // the oldest goes first
      cached_stacks_ -= regions_.front().bytes / regions_.front().stride;
      regions_.erase(regions_.begin());
    }
    if (stacks > resident_work_items()) {
      munmap(base, bytes);
      return;
    }
    regions_.push_back({base, bytes, stride});
    cached_stacks_ += stacks;
  }

 private:
  std::mutex mutex_;
  std::vector<StackRegion> regions_;
  size_t cached_stacks_ = 0;
};

StackCache& stack_cache() {
  static StackCache* cache = new StackCache;  // leaked: stream threads may launch during exit
  return *cache;
}

}  // namespace

Launch::~Launch() {
  for (Slot& slot : slots_) {
    if (slot.region != nullptr) stack_cache().give(slot.region, slot.region_bytes, stride_);
  }
}

void Launch::prepare_slot(Slot& slot) {
  if (slot.region != nullptr) return;
  slot.region_bytes = stride_ * block_size_;
  slot.region = stack_cache().take(slot.region_bytes, stride_);
  if (slot.region == nullptr) {
    void* region = mmap(nullptr, slot.region_bytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (region == MAP_FAILED) {
      die_in_launch(kernel_.name.c_str(), "cannot map %zu KiB of work-item stacks for a block",
                    slot.region_bytes >> 10);
    }
    slot.region = static_cast<char*>(region);
    for (unsigned i = 0; i < block_size_; ++i) {
      // The lowest page of each stack is a guard: an overflow faults there (named by fault.cpp).
      mprotect(slot.region + i * stride_, page_size(), PROT_NONE);
    }
  }
  slot.items.reset(new WorkItem[block_size_]);
  slot.block.waves.resize(waves_per_block_);
}

void Launch::admit_blocks() {
  for (Slot& slot : slots_) {
    if (next_block_ == total_blocks_) return;
    if (slot.busy) continue;
    prepare_slot(slot);
    start_block(slot, next_block_++);
  }
}

void Launch::start_block(Slot& slot, uint64_t linear) {
  Block& block = slot.block;
  block.id.x = static_cast<unsigned>(linear % shape_.grid.x);
  block.id.y = static_cast<unsigned>(linear / shape_.grid.x % shape_.grid.y);
  block.id.z = static_cast<unsigned>(linear / (uint64_t(shape_.grid.x) * shape_.grid.y));
  block.size = block_size_;
  block.live = block_size_;
  block.finished = 0;
  block.meeting = Meeting{};
  block.items = slot.items.get();
  block.shared.assign(shared_saved_bytes_, 0);  // each block starts from zeroed shared memory
  for (unsigned w = 0; w < waves_per_block_; ++w) {
    Wave& wave = block.waves[w];
    wave = Wave{};
    wave.first = w * wave_size_;
    wave.size = std::min(wave_size_, block_size_ - wave.first);
    wave.live = wave.size;
  }
  slot.busy = true;
  ++resident_blocks_;
  const unsigned bx = shape_.block.x, by = shape_.block.y;
  for (unsigned i = 0; i < block_size_; ++i) {
    WorkItem& item = slot.items[i];
    item = WorkItem{};
    item.block = &block;
    item.wave = &block.waves[i / wave_size_];
    item.flat = i;
    item.lane = i % wave_size_;
    item.ids.thread_idx = {i % bx, i / bx % by, i / (bx * by)};
    item.ids.block_idx = block.id;
    item.ids.block_dim = shape_.block;
    item.ids.grid_dim = shape_.grid;
    item.guard = slot.region + i * stride_;
    item.launch = this;
    item.stack_pointer = prepare_fiber_stack(item.guard + page_size(), stack_bytes(), &Launch::fiber_main);
    ready_.push_back(&item);
  }
}

void Launch::fiber_main() {
  Launch* launch = tl_launch;
  WorkItem* item = tl_item;
  try {
    launch->kernel_.entry(launch->kernel_.address, launch->arg_pointers_.data());
  } catch (...) {
    die_in_work_item("threw a C++ exception out of the kernel (device code cannot throw)");
  }
  launch->finish(item);
}

void Launch::run() {
  tl_launch = this;
  __atomic_fetch_add(&rocshmem_emu_wi_launches_running, 1, __ATOMIC_RELAXED);
  const int outer_warp_size = rocshmem_emu_wi_warp_size;
  rocshmem_emu_wi_warp_size = static_cast<int>(wave_size_);  // warpSize in the kernel's code
  progress_.kernel = kernel_.name.c_str();
  watch_launch(&progress_);
  admit_blocks();
  while (resident_blocks_ > 0) {
    if (ready_.empty()) report_deadlock();
    WorkItem* item = ready_.front();
    ready_.pop_front();
    progress_.waiting_to_run.store(ready_.size(), std::memory_order_relaxed);
    progress_.running.store(item, std::memory_order_relaxed);
    spin_switch_ = false;
    resume(item);
    // The work-item that switched back: work-items hand over to each other (switch_out), so it
    // may not be the one resumed.
    item = current_;
    progress_.running.store(nullptr, std::memory_order_relaxed);
    count_switch();
    Block& block = *item->block;
    if (block.live == 0 && block.finished == block.size) release_block(block);
    if (!spin_switch_) {
      spin_switches_in_row_ = 0;
    } else if (++spin_switches_in_row_ > 2 * (ready_.size() + 1) && next_block_ < total_blocks_) {
      grow_residency();
    }
  }
  unwatch_launch(&progress_);
  rocshmem_emu_wi_warp_size = outer_warp_size;
  __atomic_fetch_sub(&rocshmem_emu_wi_launches_running, 1, __ATOMIC_RELAXED);
  tl_launch = nullptr;
}

// Every runnable work-item spins: the one they wait for may be a block that is not resident yet
// (a GPU holds many more). Admit one more, within kMaxGrownWorkItems.
void Launch::grow_residency() {
  spin_switches_in_row_ = 0;
  if ((slots_.size() + 1) * block_size_ > max_resident_items_) return;
  slots_.emplace_back();
  admit_blocks();
}

void Launch::resume(WorkItem* item) {
  Block* block = item->block;
  if (shared_size_ != 0 && loaded_ != block) {
    if (loaded_ != nullptr) {
      unsigned char* saved = loaded_->shared.data();
      for (const auto& segment : shared_segments_) {
        memcpy(saved, shared_base_ + segment.first, segment.second);
        saved += segment.second;
      }
    }
    const unsigned char* restored = block->shared.data();
    for (const auto& segment : shared_segments_) {
      memcpy(shared_base_ + segment.first, restored, segment.second);
      restored += segment.second;
    }
    loaded_ = block;
  }
  current_ = item;
  tl_item = item;
  rocshmem_emu_fiber_switch(&main_stack_pointer_, item->stack_pointer);
  tl_item = nullptr;
}

void Launch::release_block(Block& block) {
  for (Slot& slot : slots_) {
    if (&slot.block != &block || !slot.busy) continue;
    slot.busy = false;
    --resident_blocks_;
    if (loaded_ == &block) loaded_ = nullptr;
    block.finished = 0;  // not released twice
    admit_blocks();
    return;
  }
}

// The running work-item stops. When nothing of the loop in run() is due before the next one runs
// (no spin to account, no block to swap shared memory for or to release), it hands over directly:
// one fiber switch instead of two and a pass through the loop, which is most of what a meeting of
// a block costs. The order is the loop's: the front of the queue (the seeded schedule unchanged).
void Launch::switch_out(WorkItem* item) {
  if (!spin_switch_ && !ready_.empty()) {
    WorkItem* next = ready_.front();
    if (shared_size_ == 0 || next->block == loaded_) {
      ready_.pop_front();
      spin_switches_in_row_ = 0;
      count_switch();
      if (next == item) return;  // requeued with nobody else runnable: it goes on
      progress_.waiting_to_run.store(ready_.size(), std::memory_order_relaxed);
      progress_.running.store(next, std::memory_order_relaxed);
      current_ = next;
      tl_item = next;
      rocshmem_emu_fiber_switch(&item->stack_pointer, next->stack_pointer);
      return;
    }
  }
  rocshmem_emu_fiber_switch(&item->stack_pointer, main_stack_pointer_);
}

// A yield with no other runnable work-item (everyone else waits for a meeting, or the launch has
// one work-item left) comes from a wait on something outside the launch: another PE, the host.
// Spinning through the scheduler would burn a core of a shared machine, so such yields back off
// like the rocSHMEM emulator's waits: a few rounds at once, then sched_yield, then short naps.
// An explicit yield (every blocking rocSHMEM call) is a wait without progress too: when every
// runnable work-item waits so, residency may grow like for spins.
void Launch::yield(WorkItem* item) {
  spin_switch_ = true;
  requeue(item, false);
  switch_out(item);
}

void Launch::requeue(WorkItem* item, bool anywhere) {
  if (ready_.empty()) {
    lonely_.pause();
  } else {
    lonely_.reset();
  }
  if (anywhere && !ready_.empty()) {
    ready_.insert_swapping(static_cast<size_t>(next_random() % (ready_.size() + 1)), item);
  } else {
    ready_.push_back(item);
  }
}

uint64_t Launch::next_random() { return splitmix64(&random_state_); }

void Launch::spin_switch(WorkItem* item) {
  // The address the watchdog names: the last one this work-item polled.
  progress_.last_address.store(
      const_cast<const void*>(item->spin_address[(item->spin_next + WorkItem::kSpinAddresses - 1) %
                                                 WorkItem::kSpinAddresses]),
      std::memory_order_relaxed);
  item->spins = 0;
  spin_switch_ = true;
  requeue(item, false);
  switch_out(item);
}

// A rocSHMEM call's end: in the random schedule a seeded chance to switch; a call that only reads
// counts like a fence (a loop of rocshmem_int_g on a flag that another work-item of the PE sets is
// a spin too), one that writes is progress.
void Launch::call_boundary(WorkItem* item, bool poll) {
  if (random_order_ && !ready_.empty() && (next_random() & 3) == 0) {
    item->spins = 0;
    requeue(item, true);
    switch_out(item);
  } else if (poll) {
    spin_point(item, ROCSHMEM_EMU_WI_SPIN_FENCE, nullptr, 0);
  } else {
    item->spins = 0;
  }
}

void Launch::wait(WorkItem* item, const char* where) {
  item->state = WorkItem::waiting;
  item->where = where;
  switch_out(item);
}

void Launch::wake(WorkItem* item) {
  item->state = WorkItem::ready;
  item->where = nullptr;
  ready_.push_back(item);
  // Progress: the next wait outside the launch starts its back-off afresh. Without this a
  // work-item that waits alone after every meeting (a _wg call's leader waiting for the other PEs
  // while its block waits for it) would carry one wait's back-off into the next and nap per yield.
  lonely_.reset();
}

void Launch::release_waiters(Meeting& meeting, WorkItem* self) {
  for (WorkItem* waiter : meeting.waiters) {
    if (waiter != self) wake(waiter);
  }
  // Closed, keeping the waiters' storage: a block meets thousands of times per launch.
  meeting.kind = Meeting::idle;
  meeting.name = nullptr;
  meeting.op = 0;
  meeting.arrived = 0;
  meeting.leader_working = false;
  meeting.waiters.clear();
}

// ---- meetings ----------------------------------------------------------------------------------

static bool same_meeting(const Meeting& open, Meeting::Kind kind, const char* name, int op) {
  if (open.kind != kind || open.leader_working) return false;
  // The same call passes the same name literal; the text decides only when they differ.
  if (kind == Meeting::group) return open.name == name || strcmp(open.name, name) == 0;
  if (kind == Meeting::wave_op) return open.op == op;
  return true;
}

// Out of line and cold: the message is built only when a meeting fails.
[[noreturn, gnu::cold, gnu::noinline]] static void meeting_mismatch(const Meeting& meeting, const char* name,
                                                                  const WorkItem* item, const char* scope) {
  const Block& block = *item->block;
  const unsigned members = strcmp(scope, "block") == 0 ? block.size : item->wave->size;
  die_in_work_item(
      "entered %s while %u of the %u work-items of its %s wait in %s%s: the %s can never complete",
      name, meeting.arrived, members, scope, meeting.name,
      meeting.leader_working ? " (for their leader to leave it)" : "", scope);
}

inline void Launch::join(Meeting& meeting, Meeting::Kind kind, const char* name, int op, WorkItem* item,
                         const char* scope) {
  if (meeting.kind != Meeting::idle && !same_meeting(meeting, kind, name, op)) {
    meeting_mismatch(meeting, name, item, scope);
  }
  if (meeting.kind == Meeting::idle) {
    meeting.kind = kind;
    meeting.name = name;
    meeting.op = op;
  }
  meeting.arrived++;
  meeting.waiters.push_back(item);
}

void Launch::syncthreads(WorkItem* item) {
  Block& block = *item->block;
  join(block.meeting, Meeting::barrier, "__syncthreads", 0, item, "block");
  if (block.meeting.arrived == block.live) {
    release_waiters(block.meeting, item);
    return;
  }
  wait(item, "__syncthreads");
}

uint64_t Launch::wave_exchange(WorkItem* item, int op, uint64_t value, int src_lane) {
  Wave& wave = *item->wave;
  const char* name = op == ROCSHMEM_EMU_WI_SHUFFLE ? "a wavefront shuffle (__shfl*)"
                                                   : "a wavefront vote (__ballot/__any/__all/__activemask)";
  join(wave.meeting, Meeting::wave_op, name, op, item, "wavefront");
  const unsigned lane = item->lane;
  wave.values[lane] = value;
  wave.sources[lane] = src_lane;
  wave.present |= uint64_t(1) << lane;
  if (wave.meeting.arrived == wave.live) {
    complete_wave_exchange(wave, item);
  } else {
    wait(item, name);
  }
  return wave.results[lane];
}

void Launch::complete_wave_exchange(Wave& wave, WorkItem* self) {
  const uint64_t present = wave.present;
  if (wave.meeting.op == ROCSHMEM_EMU_WI_BALLOT) {
    uint64_t mask = 0;
    for (unsigned lane = 0; lane < wave.size; ++lane) {
      if ((present >> lane & 1) && wave.values[lane] != 0) mask |= uint64_t(1) << lane;
    }
    for (unsigned lane = 0; lane < wave.size; ++lane) wave.results[lane] = mask;
  } else {
    for (unsigned lane = 0; lane < wave.size; ++lane) {
      if (!(present >> lane & 1)) continue;
      unsigned source = static_cast<unsigned>(wave.sources[lane]) % wave_size_;  // ds_bpermute wraps
      wave.results[lane] = (present >> source & 1) ? wave.values[source] : wave.values[lane];
    }
  }
  wave.present = 0;
  release_waiters(wave.meeting, self);
}

int Launch::group_enter(WorkItem* item, int scope, const char* call) {
  const bool block_scope = scope != ROCSHMEM_EMU_WI_WAVE;
  Block& block = *item->block;
  Wave& wave = *item->wave;
  Meeting& meeting = block_scope ? block.meeting : wave.meeting;
  const char* scope_name = block_scope ? "block" : "wavefront";
  const unsigned members = block_scope ? block.size : wave.size;
  const unsigned live = block_scope ? block.live : wave.live;
  if (live != members) {
    die_in_work_item("called %s, which every work-item of its %s must call, but %u of the %u "
                     "already finished the kernel: the call can never complete",
                     call, scope_name, members - live, members);
  }
  join(meeting, Meeting::group, call, 0, item, scope_name);
  WorkItem* leader = block_scope ? &block.items[0] : &block.items[wave.first];
  if (meeting.arrived == members) {
    meeting.leader_working = true;
    if (item == leader) return 1;
    wake(leader);
  }
  wait(item, call);
  return item == leader ? 1 : 0;  // the others are woken by the leader's group_leave
}

void Launch::group_leave(WorkItem* item, int scope, void* value, size_t bytes) {
  const bool block_scope = scope != ROCSHMEM_EMU_WI_WAVE;
  Block& block = *item->block;
  Wave& wave = *item->wave;
  Meeting& meeting = block_scope ? block.meeting : wave.meeting;
  WorkItem* leader = block_scope ? &block.items[0] : &block.items[wave.first];
  unsigned char* result = block_scope ? block.group_value : wave.group_value;
  bytes = std::min(bytes, sizeof block.group_value);
  if (item != leader) {
    // Woken by the leader's leave: its result is there.
    if (value != nullptr && bytes != 0) memcpy(value, result, bytes);
    return;
  }
  if (meeting.kind != Meeting::group || !meeting.leader_working) return;
  if (value != nullptr && bytes != 0) memcpy(result, value, bytes);
  release_waiters(meeting, item);
}

void Launch::finish(WorkItem* item) {
  item->state = WorkItem::done;
  Block& block = *item->block;
  Wave& wave = *item->wave;
  block.live--;
  block.finished++;
  wave.live--;
  if (block.meeting.kind == Meeting::group || wave.meeting.kind == Meeting::group) {
    const Meeting& open = block.meeting.kind == Meeting::group ? block.meeting : wave.meeting;
    const bool block_scope = &open == &block.meeting;
    die_in_work_item("finished the kernel while %u of the %u work-items of its %s wait in %s, which "
                     "every work-item must call: the call can never complete",
                     open.arrived, block_scope ? block.size : wave.size, block_scope ? "block" : "wavefront",
                     open.name);
  }
  if (block.meeting.kind == Meeting::barrier && block.meeting.arrived == block.live) {
    release_waiters(block.meeting, item);
  }
  if (wave.meeting.kind == Meeting::wave_op && wave.meeting.arrived == wave.live) {
    complete_wave_exchange(wave, item);
  }
  rocshmem_emu_fiber_switch(&item->stack_pointer, main_stack_pointer_);  // never resumed; run() may release the block
}

void Launch::report_deadlock() {
  const Block* stuck = nullptr;
  unsigned stuck_blocks = 0;
  for (const Slot& slot : slots_) {
    if (!slot.busy) continue;
    ++stuck_blocks;
    if (stuck == nullptr) stuck = &slot.block;
  }
  std::string detail;
  if (stuck != nullptr) {
    // Where the work-items of the first stuck block are, in order of first appearance.
    std::vector<std::pair<const char*, unsigned>> places;
    for (unsigned i = 0; i < stuck->size; ++i) {
      const WorkItem& item = stuck->items[i];
      const char* where = item.state == WorkItem::done ? "finished" : item.where ? item.where : "?";
      bool counted = false;
      for (auto& place : places) {
        if (strcmp(place.first, where) == 0) place.second++, counted = true;
      }
      if (!counted) places.emplace_back(where, 1);
    }
    for (const auto& place : places) {
      if (!detail.empty()) detail += ", ";
      detail += std::to_string(place.second) + (strcmp(place.first, "finished") == 0 ? " " : " in ");
      detail += place.first;
    }
    die_in_launch(kernel_.name.c_str(),
                  "can never complete: every live work-item waits; block (%u,%u,%u) of %u "
                  "work-items: %s (%u resident block(s) stuck, %llu not started)",
                  stuck->id.x, stuck->id.y, stuck->id.z, stuck->size, detail.c_str(), stuck_blocks,
                  static_cast<unsigned long long>(total_blocks_ - next_block_));
  }
  die_in_launch(kernel_.name.c_str(), "can never complete (no runnable work-item)");
}

// ---- entry points ------------------------------------------------------------------------------

void run_launch(const KernelInfo& kernel, const LaunchShape& shape, const PackedArgs& args) {
  install_fault_handlers();
  if (tl_launch != nullptr) {
    die_in_launch(kernel.name.c_str(), "was launched synchronously from inside a kernel");
  }
  Launch launch(kernel, shape, args);
  launch.run();
  fflush(stdout);  // device printf output appears when the kernel completed, as on a GPU
}

}  // namespace hip_emu::kernel
