#include "stream_ops.hpp"

namespace rocshmem_emu {

namespace {
void run_and_delete(void* arg) {
  auto* work = static_cast<std::function<void()>*>(arg);
  (*work)();
  delete work;
}
}  // namespace

bool enqueue_on_stream(hipStream_t stream, const char* fn, std::function<void()> work) {
  if (!require_initialized(fn)) return false;
  auto* heap_work = new std::function<void()>(std::move(work));
  hipError_t err = hipLaunchHostFunc(stream, run_and_delete, heap_work);
  if (err != hipSuccess) {
    delete heap_work;
    report_error("%s: hipLaunchHostFunc failed with HIP error %d; operation not queued", fn, static_cast<int>(err));
    count(Stat::errors);
    return false;
  }
  count(Stat::stream_enqueued);
  return true;
}

}  // namespace rocshmem_emu
