#include "completion.hpp"

#include <atomic>
#include <climits>
#include <cstdint>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "api_include.hpp"

namespace rocshmem_emu {

CompletionQueueEnds g_completion_ends;

namespace {

enum class OpKind : uint8_t { put, get, signal_set, signal_add };

struct PendingOp {
  OpKind kind;
  uint8_t done;    // delivered ahead of its turn; the head passes it later
  uint8_t holds;   // progress steps that held it back
  uint32_t epoch;  // operations between two ordering points share one
  char* to;
  const char* from;
  size_t bytes;
  uint64_t value;  // signals
};

// One queue per PE process. head/tail count operations since init (never wrap in practice);
// they are atomics so that an empty queue is seen without taking the lock.
struct Queue {
  std::mutex mutex;
  std::condition_variable wake;  // only to stop the progress thread promptly
  std::unique_ptr<PendingOp[]> ops;
  std::unique_ptr<char[]> staging;
  size_t staging_used = 0;
  std::atomic<uint64_t>& head = g_completion_ends.head;  // (inline readers: completion.hpp)
  std::atomic<uint64_t>& tail = g_completion_ends.tail;
  uint64_t fence_mark = 0;  // operations before this index precede the last fence
  uint32_t epoch = 0;       // epoch of the next put
  uint64_t rng = 0;         // delivery-order random state (this PE's stream of the job's seed)
  bool stopping = false;
  std::thread progress;
};

Queue& g_queue = *new Queue();  // never destroyed: exit() must not destroy a joinable thread
CompletionMode g_mode = CompletionMode::immediate;
std::atomic<bool> g_deferred{false};
std::atomic<bool> g_reordering{false};
uint64_t g_seed = 0;
int g_my_pe = -1;

uint64_t next_random(Queue& q) {  // splitmix64
  uint64_t z = (q.rng += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Writes that fit one naturally aligned word are stored atomically, so a wait_until on the
// target never sees a torn value.
template <class W>
bool store_word(char* to, const char* from) {
  if (reinterpret_cast<uintptr_t>(to) % sizeof(W) != 0) return false;
  W w;
  memcpy(&w, from, sizeof w);
  __atomic_store_n(reinterpret_cast<W*>(to), w, __ATOMIC_RELEASE);
  return true;
}

void copy_bytes(char* to, const char* from, size_t bytes) {
  switch (bytes) {
    case 1: if (store_word<uint8_t>(to, from)) return; break;
    case 2: if (store_word<uint16_t>(to, from)) return; break;
    case 4: if (store_word<uint32_t>(to, from)) return; break;
    case 8: if (store_word<uint64_t>(to, from)) return; break;
    default: break;
  }
  memmove(to, from, bytes);
}

void perform(const PendingOp& op) {
  switch (op.kind) {
    case OpKind::put:
    case OpKind::get: copy_bytes(op.to, op.from, op.bytes); break;
    case OpKind::signal_set:
      std::atomic_thread_fence(std::memory_order_seq_cst);  // the data before the signal
      __atomic_store_n(reinterpret_cast<uint64_t*>(op.to), op.value, __ATOMIC_SEQ_CST);
      break;
    case OpKind::signal_add:
      std::atomic_thread_fence(std::memory_order_seq_cst);
      __atomic_fetch_add(reinterpret_cast<uint64_t*>(op.to), op.value, __ATOMIC_SEQ_CST);
      break;
  }
}

PendingOp& at(Queue& q, uint64_t i) { return q.ops[i % kPendingOps]; }

// Moves the head to `head` (operations before it are delivered) and past operations delivered ahead of
// their turn. Caller holds the lock.
void advance_head(Queue& q, uint64_t head) {
  const uint64_t tail = q.tail.load(std::memory_order_relaxed);
  while (head < tail && at(q, head).done) head++;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  q.head.store(head, std::memory_order_release);
  if (head == tail) q.staging_used = 0;
}

void advance_head(Queue& q) { advance_head(q, q.head.load(std::memory_order_relaxed)); }

bool same_bytes(const PendingOp& a, const PendingOp& b) {
  return a.to < b.to + b.bytes && b.to < a.to + a.bytes;
}

// Delivers operations [head, until) in issue order, epoch by epoch. A progress step (`step`) of the
// reordering mode first decides, seeded-randomly, to hold back (3 in 4 times, at most kMaxHolds steps)
// each put that a later put of its epoch can overtake; a put of the same bytes as a held one is held too
// (one thread's writes to one address stay in order, as on every GPU). Then no later epoch is delivered.
// At most kMaxHeldPerStep puts are held per step (beyond that the step stops), so a step costs O(n).
// Caller holds the lock.
void deliver_range(Queue& q, uint64_t until, bool step) {
  constexpr int kMaxHeldPerStep = 16;
  const bool reorder = step && g_reordering.load(std::memory_order_relaxed);
  const uint64_t tail = q.tail.load(std::memory_order_relaxed);
  uint64_t i = q.head.load(std::memory_order_relaxed);
  if (!reorder) {  // nothing held back: the epochs in order are the operations in order
    for (; i < until; i++) {
      PendingOp& op = at(q, i);
      if (op.done) continue;
      perform(op);
      op.done = 1;
    }
    advance_head(q, i);
    return;
  }
  while (i < until) {
    const uint32_t epoch = at(q, i).epoch;
    uint64_t j = i;
    while (j < until && at(q, j).epoch == epoch) j++;
    uint64_t epoch_end = j;  // the epoch may go on past `until`
    while (epoch_end < tail && at(q, epoch_end).epoch == epoch) epoch_end++;
    uint64_t held[kMaxHeldPerStep];
    int n_held = 0;
    bool stopped = false;
    for (uint64_t k = i; k < j; k++) {
      PendingOp& op = at(q, k);
      if (op.done) continue;
      if (reorder) {
        bool blocked = false;
        for (int h = 0; h < n_held && !blocked; h++) blocked = same_bytes(at(q, held[h]), op);
        const bool overtakable = k + 1 < epoch_end;
        if (blocked || (overtakable && op.holds < kMaxHolds && next_random(q) % 4 != 0)) {
          if (n_held == kMaxHeldPerStep) {
            stopped = true;
            break;
          }
          held[n_held++] = k;
          if (op.holds < UINT8_MAX) op.holds++;
          continue;
        }
      }
      perform(op);
      op.done = 1;
    }
    if (n_held > 0 || stopped) break;  // later epochs wait for this one
    i = j;
  }
  advance_head(q);
}

void deliver_all_locked(Queue& q) { deliver_range(q, q.tail.load(std::memory_order_relaxed), false); }

void enqueue_locked(Queue& q, PendingOp op) {
  uint64_t tail = q.tail.load(std::memory_order_relaxed);
  if (tail - q.head.load(std::memory_order_relaxed) == kPendingOps) {
    deliver_all_locked(q);
    tail = q.tail.load(std::memory_order_relaxed);
  }
  op.done = 0;
  op.holds = 0;
  if (op.kind == OpKind::put) {
    op.epoch = q.epoch;
  } else {  // gets and signals are ordering points of their own
    op.epoch = ++q.epoch;
    ++q.epoch;
  }
  at(q, tail) = op;
  q.tail.store(tail + 1, std::memory_order_release);
}

bool has_pending(const Queue& q) {
  return q.head.load(std::memory_order_acquire) != q.tail.load(std::memory_order_acquire);
}

// Every period, a progress step over what was already queued at the previous tick: an operation
// is never visible inside the call that issued it, and arrives within kMaxHolds + 2 periods.
void progress_loop(int period_ms) {
  Queue& q = g_queue;
  std::unique_lock<std::mutex> lock(q.mutex);
  uint64_t seen = q.tail.load(std::memory_order_relaxed);
  while (!q.stopping) {
    q.wake.wait_for(lock, std::chrono::milliseconds(period_ms), [&] { return q.stopping; });
    deliver_range(q, seen, true);
    seen = q.tail.load(std::memory_order_relaxed);
  }
}

bool overlaps(const PendingOp& op, const char* target, size_t bytes) {
  return op.kind == OpKind::put && !op.done && op.to < target + bytes && target < op.to + op.bytes;
}

void print_seed_on_failure(int status, void*) {
  uint64_t seed;
  if (status != 0 && completion_seed(&seed))
    fprintf(stderr,
            "rocSHMEM emulator: PE %d: exit status %d; puts were delivered in a seeded order: "
            "ROCSHMEM_EMU_DELIVERY_SEED=%llu reproduces its choices\n",
            g_my_pe, status, static_cast<unsigned long long>(seed));
}

}  // namespace

void completion_init(CompletionMode mode, int progress_ms, uint64_t seed, int my_pe) {
  Queue& q = g_queue;
  g_mode = mode;
  g_seed = seed;
  g_my_pe = my_pe;
  g_reordering.store(mode == CompletionMode::deferred, std::memory_order_relaxed);
  g_deferred.store(mode != CompletionMode::immediate, std::memory_order_release);
  if (mode == CompletionMode::immediate) return;
  if (!q.ops) {
    q.ops.reset(new PendingOp[kPendingOps]);
    q.staging.reset(new char[kStagingBytes]);
    static const bool registered = on_exit(print_seed_on_failure, nullptr) == 0;
    (void)registered;
  }
  q.head.store(0);
  q.tail.store(0);
  q.fence_mark = 0;
  q.epoch = 0;
  q.rng = seed ^ (0x632be59bd9b4e019ULL * uint64_t(my_pe + 1));
  q.staging_used = 0;
  q.stopping = false;
  q.progress = std::thread(progress_loop, progress_ms);
}

void completion_finalize() {
  Queue& q = g_queue;
  if (!q.progress.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(q.mutex);
    deliver_all_locked(q);
    q.stopping = true;
  }
  q.wake.notify_all();
  q.progress.join();
  g_deferred.store(false, std::memory_order_release);
  g_reordering.store(false, std::memory_order_relaxed);
}

bool completion_deferred() { return g_deferred.load(std::memory_order_acquire); }

bool completion_seed(uint64_t* seed) {
  if (!g_reordering.load(std::memory_order_relaxed)) return false;
  *seed = g_seed;
  return true;
}

void deliver_put(char* target, const void* source, size_t bytes) {
  if (!completion_deferred()) return copy_bytes(target, static_cast<const char*>(source), bytes);
  Queue& q = g_queue;
  std::lock_guard<std::mutex> lock(q.mutex);
  if (bytes > kStagingBytes) {  // too big to stage: in order, but at once
    deliver_all_locked(q);
    copy_bytes(target, static_cast<const char*>(source), bytes);
    return;
  }
  // Room for the record and the copy first: delivering everything also frees the staging area.
  const bool queue_full = q.tail.load(std::memory_order_relaxed) - q.head.load(std::memory_order_relaxed) == kPendingOps;
  if (queue_full || kStagingBytes - q.staging_used < bytes) deliver_all_locked(q);
  char* copy = q.staging.get() + q.staging_used;
  memcpy(copy, source, bytes);
  q.staging_used += bytes + (-bytes & 7);  // keep copies 8-byte aligned
  if (q.staging_used > kStagingBytes) q.staging_used = kStagingBytes;
  enqueue_locked(q, PendingOp{OpKind::put, 0, 0, 0, target, copy, bytes, 0});
}

void deliver_put_nbi(char* target, const void* source, size_t bytes) {
  if (!completion_deferred()) return copy_bytes(target, static_cast<const char*>(source), bytes);
  Queue& q = g_queue;
  std::lock_guard<std::mutex> lock(q.mutex);
  enqueue_locked(q, PendingOp{OpKind::put, 0, 0, 0, target, static_cast<const char*>(source), bytes, 0});
}

void deliver_get_nbi(void* dest, const char* origin, size_t bytes) {
  if (!completion_deferred()) return copy_bytes(static_cast<char*>(dest), origin, bytes);
  Queue& q = g_queue;
  std::lock_guard<std::mutex> lock(q.mutex);
  enqueue_locked(q, PendingOp{OpKind::get, 0, 0, 0, static_cast<char*>(dest), origin, bytes, 0});
}

void deliver_signal(uint64_t* target, uint64_t value, int sig_op) {
  const OpKind kind = sig_op == rocshmem::ROCSHMEM_SIGNAL_ADD ? OpKind::signal_add : OpKind::signal_set;
  const PendingOp op{kind, 0, 0, 0, reinterpret_cast<char*>(target), nullptr, sizeof(uint64_t), value};
  if (!completion_deferred()) return perform(op);
  Queue& q = g_queue;
  std::lock_guard<std::mutex> lock(q.mutex);
  enqueue_locked(q, op);
}

void complete_all_queued() {
  Queue& q = g_queue;
  if (completion_deferred() && has_pending(q)) {
    std::lock_guard<std::mutex> lock(q.mutex);
    deliver_all_locked(q);
  }
}

void completion_fence() {
  Queue& q = g_queue;
  if (completion_deferred() && has_pending(q)) {
    std::lock_guard<std::mutex> lock(q.mutex);
    q.fence_mark = q.tail.load(std::memory_order_relaxed);
    ++q.epoch;
  }
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

void complete_fenced_queued() {
  Queue& q = g_queue;
  if (!completion_deferred() || !has_pending(q)) return;
  std::lock_guard<std::mutex> lock(q.mutex);
  deliver_range(q, q.fence_mark, false);
}

void complete_overlapping_queued(const char* target, size_t bytes) {
  Queue& q = g_queue;
  if (!completion_deferred() || !has_pending(q)) return;
  std::lock_guard<std::mutex> lock(q.mutex);
  const uint64_t head = q.head.load(std::memory_order_relaxed);
  uint64_t last = q.tail.load(std::memory_order_relaxed);
  while (last > head && !overlaps(at(q, last - 1), target, bytes)) last--;
  if (last == head) return;  // none of this PE's queued puts writes these bytes
  // Earlier epochs first (fence order holds for every observer), then the overlapping puts of the
  // last one's epoch, in issue order.
  uint64_t first = last - 1;
  const uint32_t epoch = at(q, first).epoch;
  while (first > head && at(q, first - 1).epoch == epoch) first--;
  deliver_range(q, first, false);
  for (uint64_t k = first; k < last; k++) {
    PendingOp& op = at(q, k);
    if (!overlaps(op, target, bytes)) continue;
    perform(op);
    op.done = 1;
  }
  advance_head(q);
}

void completion_progress_queued() {
  Queue& q = g_queue;
  if (!completion_deferred() || !has_pending(q)) return;
  if (!g_reordering.load(std::memory_order_relaxed)) return complete_all();
  std::lock_guard<std::mutex> lock(q.mutex);
  deliver_range(q, q.tail.load(std::memory_order_relaxed), true);
}

}  // namespace rocshmem_emu
