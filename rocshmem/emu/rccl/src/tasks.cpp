#include "tasks.hpp"

#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <memory>
#include <string>

#include "engine.hpp"
#include "errors.hpp"

namespace rccl_emu {
namespace {

struct Task {
  CommPtr comm;
  std::vector<Operation> ops;
  uint64_t ticket = 0;
  int joins_expected = 0;  // other streams of the group whose earlier work must finish first
  int joins_arrived = 0;
  bool finished = false;
};

using TaskRef = std::shared_ptr<Task>;

void run_task(void* arg) {
  std::unique_ptr<TaskRef> holder(static_cast<TaskRef*>(arg));
  Task& task = **holder;
  CommState& c = *task.comm;
  {
    std::unique_lock<std::mutex> lock(c.mutex);
    ++c.running;
    c.changed.wait(lock, [&] {
      return c.aborted.load() || (task.joins_arrived >= task.joins_expected && c.completed + 1 == task.ticket);
    });
  }
  if (!c.aborted.load() && c.async_error.load() == ncclSuccess) execute(c, task.ops);
  std::lock_guard<std::mutex> lock(c.mutex);
  c.completed = std::max(c.completed, task.ticket);
  task.finished = true;
  --c.running;
  --c.outstanding;
  c.changed.notify_all();
}

// On a group's other streams: lets the task start once this stream got here, then holds the
// stream until the task is done.
void join_task(void* arg) {
  std::unique_ptr<TaskRef> holder(static_cast<TaskRef*>(arg));
  Task& task = **holder;
  CommState& c = *task.comm;
  std::unique_lock<std::mutex> lock(c.mutex);
  ++task.joins_arrived;
  c.changed.notify_all();
  c.changed.wait(lock, [&] { return task.finished; });
}

}  // namespace

ncclResult_t submit(const CommPtr& comm, std::vector<Operation> ops) {
  std::vector<hipStream_t> streams;
  for (const Operation& op : ops) {
    if (std::find(streams.begin(), streams.end(), op.stream) == streams.end()) streams.push_back(op.stream);
  }
  auto task = std::make_shared<Task>();
  task->comm = comm;
  task->ops = std::move(ops);
  CommState& c = *comm;
  // The lock is held while queueing, so a task cannot look at its ticket before it is final.
  std::lock_guard<std::mutex> lock(c.mutex);
  task->ticket = c.submitted + 1;
  task->joins_expected = static_cast<int>(streams.size()) - 1;
  auto* holder = new TaskRef(task);
  hipError_t status = hipLaunchHostFunc(streams[0], run_task, holder);
  if (status != hipSuccess) {
    delete holder;
    return fail(ncclUnhandledCudaError, std::string("hipLaunchHostFunc on the operation's stream failed: ") +
                                            hipGetErrorString(status));
  }
  c.submitted = task->ticket;
  ++c.outstanding;
  ncclResult_t result = ncclSuccess;
  for (size_t i = 1; i < streams.size(); ++i) {
    auto* join = new TaskRef(task);
    status = hipLaunchHostFunc(streams[i], join_task, join);
    if (status != hipSuccess) {
      delete join;
      --task->joins_expected;  // this stream cannot be joined; the task must not wait for it
      result = fail(ncclUnhandledCudaError, std::string("hipLaunchHostFunc on a group stream failed: ") +
                                                hipGetErrorString(status));
    }
  }
  c.changed.notify_all();
  return result;
}

bool wait_until_idle(CommState& c) {
  std::unique_lock<std::mutex> lock(c.mutex);
  c.changed.wait(lock, [&] { return c.outstanding == 0 || c.aborted.load(); });
  return c.outstanding == 0;
}

void abort_tasks(CommState& c) {
  std::unique_lock<std::mutex> lock(c.mutex);
  c.aborted.store(true);
  c.changed.notify_all();
  c.changed.wait(lock, [&] { return c.running == 0; });
}

}  // namespace rccl_emu
