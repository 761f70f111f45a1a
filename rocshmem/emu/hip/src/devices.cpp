#include "devices.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "hip_emu_kernel.hpp"

namespace hip_emu {
namespace {

int parse_device_count() {
  // The kernel engine's settings are HIP's too: a bad one is refused like a bad device count.
  std::string kernel_error;
  if (!hip_emu::kernel::validate_kernel_settings(&kernel_error)) {
    std::fprintf(stderr, "hip_cpu_emu: %s; running with no devices (HIP calls return hipErrorNoDevice)\n",
                 kernel_error.c_str());
    return 0;
  }
  const char* text = std::getenv("ROCSHMEM_EMU_DEVICES");
  if (text == nullptr || *text == '\0') return 1;
  char* end = nullptr;
  errno = 0;
  long value = std::strtol(text, &end, 10);
  if (errno != 0 || *end != '\0' || value < 0 || value > kMaxDevices) {
    std::fprintf(stderr,
                 "hip_cpu_emu: ROCSHMEM_EMU_DEVICES='%s' is not an integer in [0, %d]; "
                 "running with no devices (HIP calls return hipErrorNoDevice)\n",
                 text, kMaxDevices);
    return 0;
  }
  return static_cast<int>(value);
}

// State of one virtual device. `streams` holds every live stream except the null stream.
struct Device {
  std::mutex mutex;
  std::unique_ptr<ihipStream_t> null_stream;
  std::set<ihipStream_t*> streams;
};

// Never destroyed: worker threads may still run while static destructors execute at exit.
struct Registry {
  std::vector<std::unique_ptr<Device>> devices;
  std::mutex user_streams_mutex;
  std::set<ihipStream_t*> user_streams;  // handles the application may pass back to us
};

Registry& registry() {
  static Registry* instance = [] {
    auto* created = new Registry;
    int count = parse_device_count();
    for (int i = 0; i < count; ++i) created->devices.push_back(std::make_unique<Device>());
    return created;
  }();
  return *instance;
}

Device& device_state(int device) { return *registry().devices.at(device); }

std::unique_ptr<ihipStream_t> make_stream(int device, unsigned int flags, int priority,
                                          ihipStream_t::Kind kind) {
  auto stream = std::make_unique<ihipStream_t>();
  stream->device = device;
  stream->flags = flags;
  stream->priority = priority;
  stream->kind = kind;
  stream->worker = std::make_shared<StreamWorker>();
  return stream;
}

ihipStream_t* null_stream(int device) {
  Device& state = device_state(device);
  std::lock_guard<std::mutex> lock(state.mutex);
  if (!state.null_stream) {
    state.null_stream = make_stream(device, hipStreamDefault, 0, ihipStream_t::Kind::null_stream);
  }
  return state.null_stream.get();
}

void remove_stream(ihipStream_t* stream) {
  // Drain while still listed, so null-stream work keeps waiting for this stream's tail.
  stream->worker->wait_for(stream->worker->last_ticket());
  {
    std::lock_guard<std::mutex> lock(device_state(stream->device).mutex);
    device_state(stream->device).streams.erase(stream);
  }
  stream->worker->stop();  // ends (and joins) the drained thread
  delete stream;
}

// The per-thread default streams of this host thread, destroyed (after draining) at thread exit.
struct PerThreadStreams {
  std::map<int, ihipStream_t*> by_device;
  ~PerThreadStreams() {
    for (auto& entry : by_device) remove_stream(entry.second);
  }
};
thread_local PerThreadStreams per_thread_streams;

ihipStream_t* per_thread_stream(int device) {
  ihipStream_t*& slot = per_thread_streams.by_device[device];
  if (slot == nullptr) {
    slot = make_stream(device, hipStreamDefault, 0, ihipStream_t::Kind::per_thread).release();
    std::lock_guard<std::mutex> lock(device_state(device).mutex);
    device_state(device).streams.insert(slot);
  }
  return slot;
}

bool is_blocking(const ihipStream_t* stream) { return !(stream->flags & hipStreamNonBlocking); }

void add_if_pending(std::vector<Dependency>& dependencies, const ihipStream_t* stream) {
  uint64_t ticket = stream->worker->last_ticket();
  if (!stream->worker->is_complete(ticket)) dependencies.push_back({stream->worker, ticket});
}

// What a null-stream operation must wait for: itself plus every blocking stream's current tail.
std::vector<Dependency> null_stream_frontier(int device) {
  ihipStream_t* legacy = null_stream(device);
  Device& state = device_state(device);
  std::vector<Dependency> frontier{{legacy->worker, legacy->worker->last_ticket()}};
  std::lock_guard<std::mutex> lock(state.mutex);
  for (ihipStream_t* stream : state.streams) {
    if (is_blocking(stream)) frontier.push_back({stream->worker, stream->worker->last_ticket()});
  }
  return frontier;
}

hipError_t wait_and_collect_errors(const std::vector<Dependency>& dependencies) {
  hipError_t first_error = hipSuccess;
  for (const Dependency& dependency : dependencies) {
    dependency.worker->wait_for(dependency.ticket);
    hipError_t error = dependency.worker->take_async_error();
    if (first_error == hipSuccess) first_error = error;
  }
  return first_error;
}

}  // namespace

int device_count() { return static_cast<int>(registry().devices.size()); }

bool is_valid_device(int device) { return device >= 0 && device < device_count(); }

int& current_device() {
  thread_local int device = 0;
  return device;
}

hipError_t check_current_device() {
  if (device_count() == 0) return hipErrorNoDevice;
  return is_valid_device(current_device()) ? hipSuccess : hipErrorInvalidDevice;
}

ihipStream_t* resolve_stream(hipStream_t handle) {
  if (check_current_device() != hipSuccess) return nullptr;
  if (handle == nullptr || handle == hipStreamLegacy) return null_stream(current_device());
  if (handle == hipStreamPerThread) return per_thread_stream(current_device());
  Registry& all = registry();
  std::lock_guard<std::mutex> lock(all.user_streams_mutex);
  return all.user_streams.count(handle) ? handle : nullptr;
}

uint64_t submit(ihipStream_t* stream, std::function<void()> task, std::vector<Dependency> extra) {
  Device& state = device_state(stream->device);
  ihipStream_t* legacy = null_stream(stream->device);
  // One lock per device makes "capture the other streams' tails, then enqueue" atomic, so two
  // submissions can never wait on each other.
  std::lock_guard<std::mutex> lock(state.mutex);
  if (stream == legacy) {
    for (ihipStream_t* other : state.streams) {
      if (is_blocking(other)) add_if_pending(extra, other);
    }
  } else if (is_blocking(stream)) {
    add_if_pending(extra, legacy);
  }
  return stream->worker->submit(std::move(task), std::move(extra));
}

hipError_t synchronize_stream(ihipStream_t* stream) {
  if (stream->kind == ihipStream_t::Kind::null_stream) {
    return wait_and_collect_errors(null_stream_frontier(stream->device));
  }
  return wait_and_collect_errors({{stream->worker, stream->worker->last_ticket()}});
}

bool stream_has_pending_work(ihipStream_t* stream) {
  if (stream->kind != ihipStream_t::Kind::null_stream) return stream->worker->has_pending_work();
  for (const Dependency& dependency : null_stream_frontier(stream->device)) {
    if (!dependency.worker->is_complete(dependency.ticket)) return true;
  }
  return false;
}

hipError_t synchronize_device(int device) {
  std::vector<Dependency> all = null_stream_frontier(device);
  {
    Device& state = device_state(device);
    std::lock_guard<std::mutex> lock(state.mutex);
    for (ihipStream_t* stream : state.streams) {
      if (!is_blocking(stream)) all.push_back({stream->worker, stream->worker->last_ticket()});
    }
  }
  return wait_and_collect_errors(all);
}

ihipStream_t* create_stream(int device, unsigned int flags, int priority) {
  if (priority < kGreatestStreamPriority) priority = kGreatestStreamPriority;
  if (priority > kLeastStreamPriority) priority = kLeastStreamPriority;
  ihipStream_t* stream = make_stream(device, flags, priority, ihipStream_t::Kind::user).release();
  {
    std::lock_guard<std::mutex> lock(device_state(device).mutex);
    device_state(device).streams.insert(stream);
  }
  Registry& all = registry();
  std::lock_guard<std::mutex> lock(all.user_streams_mutex);
  all.user_streams.insert(stream);
  return stream;
}

bool destroy_stream(hipStream_t handle) {
  Registry& all = registry();
  {
    std::lock_guard<std::mutex> lock(all.user_streams_mutex);
    if (all.user_streams.erase(handle) == 0) return false;
  }
  remove_stream(handle);
  return true;
}

void destroy_user_streams(int device) {
  std::vector<ihipStream_t*> doomed;
  {
    Registry& all = registry();
    std::lock_guard<std::mutex> lock(all.user_streams_mutex);
    for (auto it = all.user_streams.begin(); it != all.user_streams.end();) {
      if ((*it)->device == device) {
        doomed.push_back(*it);
        it = all.user_streams.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (ihipStream_t* stream : doomed) remove_stream(stream);
}

}  // namespace hip_emu
