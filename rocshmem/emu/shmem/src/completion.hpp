// When remote writes become visible. OpenSHMEM promises remote completion of puts only at quiet
// (or a barrier) and ordering only with fence; a GPU really delivers later. In the default
// `deferred` mode (ROCSHMEM_EMU_COMPLETION) the engine therefore queues every put, nbi get and
// put-with-signal of this PE in one FIFO and delivers it:
//   - at quiet / ctx_quiet, barrier, sync, every collective, ctx_destroy and finalize (everything);
//   - before an atomic, the operations issued before the last fence (fence orders puts and AMOs);
//   - while this PE waits in the library (wait_until, barriers: it is making progress anyway);
//   - through a progress thread, about ROCSHMEM_EMU_PROGRESS_MS after the call at the latest,
//     so a put nobody quiets still arrives, as on a GPU.
// Never before the call returns. Blocking puts copy their source into a staging area (the source
// may be reused at once); nbi puts read their source and nbi gets write their dest only at
// delivery, so touching them before quiet shows. Delivery is FIFO, hence fence ordering holds.
// `immediate` mode delivers inside the call (the emulator's old behaviour). Nothing allocates per
// call: the queue and staging area are sized at init (a blocking put larger than the staging
// area is delivered at once after everything queued before it).
#pragma once

#include <cstddef>
#include <cstdint>

namespace rocshmem_emu {

enum class CompletionMode { immediate, deferred };

constexpr size_t kPendingOps = 1024;               // queued operations per PE
constexpr size_t kStagingBytes = size_t(256) << 10;  // copies of blocking puts' sources per PE (cache-sized)

// Starts / stops the machinery for this PE (init after bootstrap, finalize before unmapping).
void completion_init(CompletionMode mode, int progress_ms);
void completion_finalize();
bool completion_deferred();

// Queue (or, in immediate mode, perform) one operation. `target` and `origin` are already
// validated local addresses (a peer mapping or this PE's memory).
void deliver_put(char* target, const void* source, size_t bytes);      // blocking put: source copied now
void deliver_put_nbi(char* target, const void* source, size_t bytes);  // source read at delivery
void deliver_get_nbi(void* dest, const char* origin, size_t bytes);    // dest written at delivery
// sig_op: ROCSHMEM_SIGNAL_SET or ROCSHMEM_SIGNAL_ADD; delivered after everything queued before it.
void deliver_signal(uint64_t* target, uint64_t value, int sig_op);

// Delivers everything queued (quiet and everything that implies it).
void complete_all();
// fence: later operations are delivered after earlier ones (FIFO); records the point atomics wait for.
void completion_fence();
// Before an atomic: delivers what was queued before the last fence.
void complete_fenced();
// Progress while this PE waits inside the library.
void completion_progress();

}  // namespace rocshmem_emu
