#include "completion.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

#include "api_include.hpp"

namespace rocshmem_emu {

namespace {

enum class OpKind : uint8_t { put, get, signal_set, signal_add };

struct PendingOp {
  OpKind kind;
  char* to;
  const char* from;
  size_t bytes;
  uint64_t value;  // signals
};

// One FIFO per PE process. head/tail count operations since init (never wrap in practice);
// they are atomics so that an empty queue is seen without taking the lock.
struct Queue {
  std::mutex mutex;
  std::condition_variable wake;  // only to stop the progress thread promptly
  std::unique_ptr<PendingOp[]> ops;
  std::unique_ptr<char[]> staging;
  size_t staging_used = 0;
  std::atomic<uint64_t> head{0}, tail{0};
  uint64_t fence_mark = 0;  // operations before this index precede the last fence
  bool stopping = false;
  std::thread progress;
};

Queue& g_queue = *new Queue();  // never destroyed: exit() must not destroy a joinable thread
CompletionMode g_mode = CompletionMode::immediate;
std::atomic<bool> g_deferred{false};

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

// Delivers operations [head, until) in order. Caller holds the lock.
void deliver_until(Queue& q, uint64_t until) {
  uint64_t head = q.head.load(std::memory_order_relaxed);
  if (head >= until) return;
  for (; head < until; head++) perform(q.ops[head % kPendingOps]);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  q.head.store(head, std::memory_order_release);
  if (head == q.tail.load(std::memory_order_relaxed)) q.staging_used = 0;
}

void deliver_all_locked(Queue& q) { deliver_until(q, q.tail.load(std::memory_order_relaxed)); }

void enqueue_locked(Queue& q, const PendingOp& op) {
  uint64_t tail = q.tail.load(std::memory_order_relaxed);
  if (tail - q.head.load(std::memory_order_relaxed) == kPendingOps) deliver_all_locked(q);
  q.ops[tail % kPendingOps] = op;
  q.tail.store(tail + 1, std::memory_order_release);
}

bool has_pending(const Queue& q) {
  return q.head.load(std::memory_order_acquire) != q.tail.load(std::memory_order_acquire);
}

// Every period, delivers what was already queued at the previous tick: an operation waits at
// most two periods, and never becomes visible inside the call that issued it.
void progress_loop(int period_ms) {
  Queue& q = g_queue;
  std::unique_lock<std::mutex> lock(q.mutex);
  uint64_t seen = q.tail.load(std::memory_order_relaxed);
  while (!q.stopping) {
    q.wake.wait_for(lock, std::chrono::milliseconds(period_ms), [&] { return q.stopping; });
    deliver_until(q, seen);
    seen = q.tail.load(std::memory_order_relaxed);
  }
}

}  // namespace

void completion_init(CompletionMode mode, int progress_ms) {
  Queue& q = g_queue;
  g_mode = mode;
  g_deferred.store(mode == CompletionMode::deferred, std::memory_order_release);
  if (mode != CompletionMode::deferred) return;
  if (!q.ops) {
    q.ops.reset(new PendingOp[kPendingOps]);
    q.staging.reset(new char[kStagingBytes]);
  }
  q.head.store(0);
  q.tail.store(0);
  q.fence_mark = 0;
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
}

bool completion_deferred() { return g_deferred.load(std::memory_order_acquire); }

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
  enqueue_locked(q, PendingOp{OpKind::put, target, copy, bytes, 0});
}

void deliver_put_nbi(char* target, const void* source, size_t bytes) {
  if (!completion_deferred()) return copy_bytes(target, static_cast<const char*>(source), bytes);
  Queue& q = g_queue;
  std::lock_guard<std::mutex> lock(q.mutex);
  enqueue_locked(q, PendingOp{OpKind::put, target, static_cast<const char*>(source), bytes, 0});
}

void deliver_get_nbi(void* dest, const char* origin, size_t bytes) {
  if (!completion_deferred()) return copy_bytes(static_cast<char*>(dest), origin, bytes);
  Queue& q = g_queue;
  std::lock_guard<std::mutex> lock(q.mutex);
  enqueue_locked(q, PendingOp{OpKind::get, static_cast<char*>(dest), origin, bytes, 0});
}

void deliver_signal(uint64_t* target, uint64_t value, int sig_op) {
  const OpKind kind = sig_op == rocshmem::ROCSHMEM_SIGNAL_ADD ? OpKind::signal_add : OpKind::signal_set;
  const PendingOp op{kind, reinterpret_cast<char*>(target), nullptr, sizeof(uint64_t), value};
  if (!completion_deferred()) return perform(op);
  Queue& q = g_queue;
  std::lock_guard<std::mutex> lock(q.mutex);
  enqueue_locked(q, op);
}

void complete_all() {
  Queue& q = g_queue;
  if (completion_deferred() && has_pending(q)) {
    std::lock_guard<std::mutex> lock(q.mutex);
    deliver_all_locked(q);
  }
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

void completion_fence() {
  Queue& q = g_queue;
  if (completion_deferred() && has_pending(q)) {
    std::lock_guard<std::mutex> lock(q.mutex);
    q.fence_mark = q.tail.load(std::memory_order_relaxed);
  }
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

void complete_fenced() {
  Queue& q = g_queue;
  if (!completion_deferred() || !has_pending(q)) return;
  std::lock_guard<std::mutex> lock(q.mutex);
  deliver_until(q, q.fence_mark);
}

void completion_progress() { complete_all(); }

}  // namespace rocshmem_emu
