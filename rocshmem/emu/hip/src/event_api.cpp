// Event API. An event remembers its most recent record: the stream worker and ticket of the
// stamping task, and the time the stream reached it. Never-recorded events count as complete
// for query/synchronize/wait (as in HIP and CUDA) but cannot be timed.
#include <chrono>
#include <memory>
#include <mutex>
#include <set>

#include "devices.hpp"
#include "emu_errors.hpp"
#include "events.hpp"

using hip_emu::report;
using Clock = std::chrono::steady_clock;

struct ihipEvent_t {
  unsigned int flags;
  std::mutex mutex;
  std::shared_ptr<hip_emu::StreamWorker> worker;  // null until the first record
  uint64_t ticket = 0;
  // Written by the stamping task only; shared so a task never holds the event or its worker.
  std::shared_ptr<Clock::time_point> stamp;
};

namespace {

struct LastRecord {
  std::shared_ptr<hip_emu::StreamWorker> worker;
  uint64_t ticket;
  std::shared_ptr<Clock::time_point> stamp;
  unsigned int flags;
};

// Leaked on purpose, like the stream registry (see devices.cpp).
struct EventRegistry {
  std::mutex mutex;
  std::set<hipEvent_t> live;
};
EventRegistry& events() {
  static EventRegistry* instance = new EventRegistry;
  return *instance;
}

bool is_live(hipEvent_t event) {
  std::lock_guard<std::mutex> lock(events().mutex);
  return events().live.count(event) != 0;
}

// Snapshot of the last record; false when `event` is not a live event.
bool last_record(hipEvent_t event, LastRecord* out) {
  if (event == nullptr || !is_live(event)) return false;
  std::lock_guard<std::mutex> lock(event->mutex);
  *out = LastRecord{event->worker, event->ticket, event->stamp, event->flags};
  return true;
}

hipError_t record(hipEvent_t event, hipStream_t handle) {
  if (event == nullptr || !is_live(event)) return hipErrorInvalidHandle;
  hipError_t status = hip_emu::check_current_device();
  if (status != hipSuccess) return status;
  ihipStream_t* stream = hip_emu::resolve_stream(handle);
  if (stream == nullptr) return hipErrorInvalidHandle;
  auto stamp = std::make_shared<Clock::time_point>();
  std::lock_guard<std::mutex> lock(event->mutex);  // keeps concurrent records of one event ordered
  uint64_t ticket = hip_emu::submit(stream, [stamp] { *stamp = Clock::now(); });
  event->worker = stream->worker;
  event->ticket = ticket;
  event->stamp = stamp;
  return hipSuccess;
}

}  // namespace

namespace hip_emu {

bool event_dependency(hipEvent_t event, std::optional<Dependency>* recorded) {
  LastRecord last;
  if (!last_record(event, &last)) return false;
  if (last.worker) *recorded = Dependency{last.worker, last.ticket};
  return true;
}

}  // namespace hip_emu

HIP_EMU_API hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags) {
  constexpr unsigned kKnownFlags = hipEventBlockingSync | hipEventDisableTiming |
                                   hipEventInterprocess | hipEventDisableSystemFence |
                                   hipEventReleaseToDevice | hipEventReleaseToSystem;
  if (event == nullptr || (flags & ~kKnownFlags)) return report(hipErrorInvalidValue);
  if ((flags & hipEventInterprocess) && !(flags & hipEventDisableTiming)) {
    return report(hipErrorInvalidValue);  // interprocess events must disable timing
  }
  auto* created = new ihipEvent_t;
  created->flags = flags;
  std::lock_guard<std::mutex> lock(events().mutex);
  events().live.insert(created);
  *event = created;
  return hipSuccess;
}

HIP_EMU_API hipError_t hipEventCreate(hipEvent_t* event) {
  return hipEventCreateWithFlags(event, hipEventDefault);
}

HIP_EMU_API hipError_t hipEventDestroy(hipEvent_t event) {
  {
    std::lock_guard<std::mutex> lock(events().mutex);
    if (event == nullptr || events().live.erase(event) == 0) return report(hipErrorInvalidHandle);
  }
  delete event;  // a pending stamping task only holds the shared stamp, not the event
  return hipSuccess;
}

HIP_EMU_API hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
  return report(record(event, stream));
}

HIP_EMU_API hipError_t hipEventRecordWithFlags(hipEvent_t event, hipStream_t stream,
                                              unsigned int flags) {
  if (flags != hipEventRecordDefault && flags != hipEventRecordExternal) {
    return report(hipErrorInvalidValue);
  }
  return report(record(event, stream));
}

HIP_EMU_API hipError_t hipEventRecord_spt(hipEvent_t event, hipStream_t stream) {
  return report(record(event, stream == nullptr ? hipStreamPerThread : stream));
}

HIP_EMU_API hipError_t hipEventQuery(hipEvent_t event) {
  LastRecord last;
  if (!last_record(event, &last)) return report(hipErrorInvalidHandle);
  if (!last.worker || last.worker->is_complete(last.ticket)) return hipSuccess;
  return report(hipErrorNotReady);
}

HIP_EMU_API hipError_t hipEventSynchronize(hipEvent_t event) {
  LastRecord last;
  if (!last_record(event, &last)) return report(hipErrorInvalidHandle);
  if (last.worker) last.worker->wait_for(last.ticket);
  return hipSuccess;
}

HIP_EMU_API hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) {
  if (ms == nullptr) return report(hipErrorInvalidValue);
  LastRecord first, second;
  if (!last_record(start, &first) || !last_record(stop, &second)) {
    return report(hipErrorInvalidHandle);
  }
  if ((first.flags | second.flags) & hipEventDisableTiming) return report(hipErrorInvalidHandle);
  if (!first.worker || !second.worker) return report(hipErrorInvalidHandle);  // never recorded
  if (!first.worker->is_complete(first.ticket) || !second.worker->is_complete(second.ticket)) {
    return report(hipErrorNotReady);
  }
  *ms = std::chrono::duration<float, std::milli>(*second.stamp - *first.stamp).count();
  return hipSuccess;
}
