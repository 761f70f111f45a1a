// Stream API. The ordering rules live in devices.hpp; this file validates and forwards.
#include "devices.hpp"
#include "emu_errors.hpp"
#include "events.hpp"

using hip_emu::report;

namespace {

bool is_pseudo_handle(hipStream_t stream) {
  return stream == nullptr || stream == hipStreamLegacy || stream == hipStreamPerThread;
}

// Resolves `handle` for the current device; `status` explains a null result.
ihipStream_t* lookup(hipStream_t handle, hipError_t* status) {
  *status = hip_emu::check_current_device();
  if (*status != hipSuccess) return nullptr;
  ihipStream_t* stream = hip_emu::resolve_stream(handle);
  if (stream == nullptr) *status = hipErrorInvalidHandle;
  return stream;
}

hipError_t create(hipStream_t* stream, unsigned int flags, int priority) {
  if (stream == nullptr) return hipErrorInvalidValue;
  if (flags != hipStreamDefault && flags != hipStreamNonBlocking) return hipErrorInvalidValue;
  hipError_t status = hip_emu::check_current_device();
  if (status != hipSuccess) return status;
  *stream = hip_emu::create_stream(hip_emu::current_device(), flags, priority);
  return hipSuccess;
}

hipError_t wait_event_on(hipStream_t handle, hipEvent_t event, unsigned int flags) {
  if (flags != hipEventWaitDefault && flags != hipEventWaitExternal) return hipErrorInvalidValue;
  hipError_t status;
  ihipStream_t* stream = lookup(handle, &status);
  if (stream == nullptr) return status;
  std::optional<hip_emu::Dependency> recorded;
  if (!hip_emu::event_dependency(event, &recorded)) return hipErrorInvalidHandle;
  if (recorded) hip_emu::submit(stream, [] {}, {*recorded});  // never-recorded: nothing to wait for
  return hipSuccess;
}

}  // namespace

HIP_EMU_API hipError_t hipStreamCreate(hipStream_t* stream) {
  return report(create(stream, hipStreamDefault, 0));
}

HIP_EMU_API hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags) {
  return report(create(stream, flags, 0));
}

HIP_EMU_API hipError_t hipStreamCreateWithPriority(hipStream_t* stream, unsigned int flags,
                                                  int priority) {
  return report(create(stream, flags, priority));  // clamped to the supported range
}

HIP_EMU_API hipError_t hipDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
  if (leastPriority) *leastPriority = hip_emu::kLeastStreamPriority;
  if (greatestPriority) *greatestPriority = hip_emu::kGreatestStreamPriority;
  return hipSuccess;
}

// Drains the stream before returning (the real runtime lets queued work finish too).
HIP_EMU_API hipError_t hipStreamDestroy(hipStream_t stream) {
  if (is_pseudo_handle(stream)) return report(hipErrorInvalidHandle);
  return report(hip_emu::destroy_stream(stream) ? hipSuccess : hipErrorInvalidHandle);
}

HIP_EMU_API hipError_t hipStreamSynchronize(hipStream_t stream) {
  hipError_t status;
  ihipStream_t* resolved = lookup(stream, &status);
  if (resolved == nullptr) return report(status);
  return report(hip_emu::synchronize_stream(resolved));
}

HIP_EMU_API hipError_t hipStreamQuery(hipStream_t stream) {
  hipError_t status;
  ihipStream_t* resolved = lookup(stream, &status);
  if (resolved == nullptr) return report(status);
  return report(hip_emu::stream_has_pending_work(resolved) ? hipErrorNotReady : hipSuccess);
}

// Shared by the hipStreamGet* queries: validates the out-parameter and the stream, then reads.
template <typename T, typename Read>
static hipError_t read_stream(hipStream_t stream, T* out, Read read) {
  if (out == nullptr) return report(hipErrorInvalidValue);
  hipError_t status;
  ihipStream_t* resolved = lookup(stream, &status);
  if (resolved == nullptr) return report(status);
  *out = read(*resolved);
  return hipSuccess;
}

HIP_EMU_API hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int* flags) {
  return read_stream(stream, flags, [](const ihipStream_t& s) { return s.flags; });
}

HIP_EMU_API hipError_t hipStreamGetPriority(hipStream_t stream, int* priority) {
  return read_stream(stream, priority, [](const ihipStream_t& s) { return s.priority; });
}

HIP_EMU_API hipError_t hipStreamGetDevice(hipStream_t stream, hipDevice_t* device) {
  return read_stream(stream, device, [](const ihipStream_t& s) { return s.device; });
}

// Runs fn(userData) on the stream's worker thread, in stream order.
HIP_EMU_API hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void* userData) {
  if (fn == nullptr) return report(hipErrorInvalidValue);
  hipError_t status;
  ihipStream_t* resolved = lookup(stream, &status);
  if (resolved == nullptr) return report(status);
  hip_emu::submit(resolved, [fn, userData] { fn(userData); });
  return hipSuccess;
}

// The callback receives the handle exactly as the caller passed it, and hipSuccess.
HIP_EMU_API hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback,
                                           void* userData, unsigned int flags) {
  if (callback == nullptr || flags != 0) return report(hipErrorInvalidValue);
  hipError_t status;
  ihipStream_t* resolved = lookup(stream, &status);
  if (resolved == nullptr) return report(status);
  hip_emu::submit(resolved, [callback, stream, userData] { callback(stream, hipSuccess, userData); });
  return hipSuccess;
}

HIP_EMU_API hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags) {
  return report(wait_event_on(stream, event, flags));
}

// ---- per-thread-default-stream variants: a null stream argument means hipStreamPerThread ------

namespace {
hipStream_t per_thread_if_null(hipStream_t stream) {
  return stream == nullptr ? hipStreamPerThread : stream;
}
}  // namespace

HIP_EMU_API hipError_t hipStreamSynchronize_spt(hipStream_t stream) {
  return hipStreamSynchronize(per_thread_if_null(stream));
}

HIP_EMU_API hipError_t hipStreamQuery_spt(hipStream_t stream) {
  return hipStreamQuery(per_thread_if_null(stream));
}

HIP_EMU_API hipError_t hipStreamGetFlags_spt(hipStream_t stream, unsigned int* flags) {
  return hipStreamGetFlags(per_thread_if_null(stream), flags);
}

HIP_EMU_API hipError_t hipStreamGetPriority_spt(hipStream_t stream, int* priority) {
  return hipStreamGetPriority(per_thread_if_null(stream), priority);
}

HIP_EMU_API hipError_t hipStreamWaitEvent_spt(hipStream_t stream, hipEvent_t event,
                                             unsigned int flags) {
  return hipStreamWaitEvent(per_thread_if_null(stream), event, flags);
}

HIP_EMU_API hipError_t hipLaunchHostFunc_spt(hipStream_t stream, hipHostFn_t fn, void* userData) {
  return hipLaunchHostFunc(per_thread_if_null(stream), fn, userData);
}

HIP_EMU_API hipError_t hipStreamAddCallback_spt(hipStream_t stream, hipStreamCallback_t callback,
                                               void* userData, unsigned int flags) {
  return hipStreamAddCallback(per_thread_if_null(stream), callback, userData, flags);
}
