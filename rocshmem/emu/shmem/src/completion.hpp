// When remote writes become visible. OpenSHMEM promises remote completion of puts only at quiet
// (or a barrier) and ordering only with fence; a GPU really delivers later, and rocSHMEM's network
// backends reorder. In the deferred modes (ROCSHMEM_EMU_COMPLETION) the engine therefore queues
// every put, nbi get and put-with-signal of this PE and delivers it:
//   - at quiet / ctx_quiet, barrier, sync, every collective, ctx_destroy and finalize (everything);
//   - before an atomic, the operations issued before the last fence (fence orders puts and AMOs);
//   - before a get, g, atomic, wait or test of this PE on bytes it has put and not yet completed:
//     the overlapping puts (and everything before the fence they follow), so a PE reads its own
//     writes while other PEs still see them only when OpenSHMEM says;
//   - in progress steps: while this PE waits in the library, and through a progress thread every
//     ROCSHMEM_EMU_PROGRESS_MS, so a put nobody quiets still arrives, as on a GPU.
// Never before the call returns. Blocking puts copy their source into a staging area (the source
// may be reused at once); nbi puts read their source and nbi gets write their dest only at
// delivery, so touching them before quiet shows.
//
// Ordering: operations between two ordering points (fence, quiet, an atomic's fence, a get or a
// signal, which are delivered alone and in order) form an epoch; epochs are delivered in order.
// `deferred` (the default): a progress step holds back, seeded-randomly (3 in 4 times, at most
// kMaxHolds steps), each put that a later put of its epoch can then overtake; writes to the same bytes
// keep their order. A flag put after its data without fence is therefore seen first in most rounds, as on
// a reordering network. Ordering points deliver in issue order. `fifo` never holds back; `immediate`
// delivers inside the call. The seed (ROCSHMEM_EMU_DELIVERY_SEED, else random per job) is printed when a
// PE ends with an error.
// Nothing allocates per call: the queue and staging area are sized at init (a blocking put larger
// than the staging area is delivered at once after everything queued before it).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace rocshmem_emu {

enum class CompletionMode { immediate, fifo, deferred };

constexpr size_t kPendingOps = 1024;               // queued operations per PE
constexpr size_t kStagingBytes = size_t(256) << 10;  // copies of blocking puts' sources per PE (cache-sized)
constexpr int kMaxHolds = 4;                        // progress steps a put may be held back

// Starts / stops the machinery for this PE (init after bootstrap, finalize before unmapping).
// seed: the job's delivery-order seed (every PE gets the same; each mixes in its PE number).
void completion_init(CompletionMode mode, int progress_ms, uint64_t seed, int my_pe);
void completion_finalize();
bool completion_deferred();
// The job's delivery-order seed when puts are reordered (for failure messages); false otherwise.
bool completion_seed(uint64_t* seed);

// Queue (or, in immediate mode, perform) one operation. `target` and `origin` are already
// validated local addresses (a peer mapping or this PE's memory).
void deliver_put(char* target, const void* source, size_t bytes);      // blocking put: source copied now
void deliver_put_nbi(char* target, const void* source, size_t bytes);  // source read at delivery
void deliver_get_nbi(void* dest, const char* origin, size_t bytes);    // dest written at delivery
// sig_op: ROCSHMEM_SIGNAL_SET or ROCSHMEM_SIGNAL_ADD; delivered after everything queued before it.
void deliver_signal(uint64_t* target, uint64_t value, int sig_op);

// The queue's ends (operations issued / delivered since init). Equal whenever nothing is queued: always in
// immediate mode and before init or after finalize. Read inline so that the ordering points below cost two
// loads and no call when nothing is queued (a barrier, an atomic or a g of a PE without puts in flight).
struct CompletionQueueEnds {
  std::atomic<uint64_t> head{0}, tail{0};
};
extern CompletionQueueEnds g_completion_ends;

inline bool completion_pending() {
  return g_completion_ends.head.load(std::memory_order_acquire) !=
         g_completion_ends.tail.load(std::memory_order_acquire);
}

void complete_all_queued();
void complete_fenced_queued();
void complete_overlapping_queued(const char* target, size_t bytes);
void completion_progress_queued();

// Delivers everything queued (quiet and everything that implies it).
inline void complete_all() {
  if (completion_pending()) complete_all_queued();
  std::atomic_thread_fence(std::memory_order_seq_cst);
}
// fence: later operations are delivered after earlier ones (a new epoch).
void completion_fence();
// Before an atomic: delivers what was queued before the last fence.
inline void complete_fenced() {
  if (completion_pending()) complete_fenced_queued();
}
// Read-your-own-writes: before this PE reads [target, target+bytes) of a peer mapping (or its own
// heap through peer_base[my_pe]), delivers its queued puts to those bytes. Lock-free when nothing is queued.
inline void complete_overlapping(const char* target, size_t bytes) {
  if (completion_pending()) complete_overlapping_queued(target, bytes);
}
// Progress while this PE waits inside the library (a progress step; everything in fifo mode).
inline void completion_progress() {
  if (completion_pending()) completion_progress_queued();
}

}  // namespace rocshmem_emu
