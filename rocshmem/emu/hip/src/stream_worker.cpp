#include "stream_worker.hpp"

#include <cstdio>

namespace hip_emu {

StreamWorker::StreamWorker() : thread_([this] { run(); }) {}

StreamWorker::~StreamWorker() {
  stop();
}

uint64_t StreamWorker::submit(std::function<void()> task, std::vector<Dependency> dependencies) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_) return completed_;  // a destroyed stream accepts nothing; callers check first
  queue_.push_back(Task{std::move(task), std::move(dependencies)});
  ++submitted_;
  changed_.notify_all();
  return submitted_;
}

uint64_t StreamWorker::last_ticket() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return submitted_;
}

bool StreamWorker::is_complete(uint64_t ticket) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return completed_ >= ticket;
}

void StreamWorker::wait_for(uint64_t ticket) const {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return completed_ >= ticket; });
}

hipError_t StreamWorker::take_async_error() {
  std::lock_guard<std::mutex> lock(mutex_);
  hipError_t error = async_error_;
  async_error_ = hipSuccess;
  return error;
}

void StreamWorker::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    changed_.notify_all();
  }
  if (!thread_.joinable()) return;
  if (thread_.get_id() == std::this_thread::get_id()) {
    thread_.detach();  // last reference dropped by our own task: the loop ends by itself
  } else {
    thread_.join();
  }
}

void StreamWorker::run() {
  for (;;) {
    Task task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping and drained
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    for (const Dependency& dependency : task.dependencies) {
      dependency.worker->wait_for(dependency.ticket);
    }
    hipError_t failure = hipSuccess;
    try {
      task.body();
    } catch (...) {
      // Host functions are user code; an exception must not kill the process from a worker.
      std::fputs("hip_cpu_emu: a stream task threw an exception; reported as hipErrorLaunchFailure\n",
                 stderr);
      failure = hipErrorLaunchFailure;
    }
    task = Task{};  // release captured state (and dependency references) before completing
    std::lock_guard<std::mutex> lock(mutex_);
    if (failure != hipSuccess && async_error_ == hipSuccess) async_error_ = failure;
    ++completed_;
    changed_.notify_all();
  }
}

}  // namespace hip_emu
