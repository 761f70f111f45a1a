// A FIFO of host tasks executed in order by one dedicated thread: the engine behind every stream.
//
// Each submitted task gets a ticket (1, 2, 3, ...); "ticket t is complete" means tasks 1..t ran.
// A task may depend on tickets of other workers; the worker waits for those before running it.
// Dependencies only ever point at work submitted earlier, so waits cannot form a cycle.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <hip/hip_runtime_api.h>

namespace hip_emu {

class StreamWorker;

struct Dependency {
  std::shared_ptr<StreamWorker> worker;
  uint64_t ticket;
};

class StreamWorker {
 public:
  StreamWorker();
  ~StreamWorker();
  StreamWorker(const StreamWorker&) = delete;
  StreamWorker& operator=(const StreamWorker&) = delete;

  // Enqueues `task`, to run after `dependencies` completed; returns its ticket.
  uint64_t submit(std::function<void()> task, std::vector<Dependency> dependencies);

  uint64_t last_ticket() const;
  bool is_complete(uint64_t ticket) const;
  void wait_for(uint64_t ticket) const;
  bool has_pending_work() const { return !is_complete(last_ticket()); }

  // Returns (and clears) the first failure of a task since the last call: a task that threw.
  hipError_t take_async_error();

  // Runs all queued tasks, then ends the thread. Later submissions are dropped.
  void stop();

 private:
  struct Task {
    std::function<void()> body;
    std::vector<Dependency> dependencies;
  };

  void run();

  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;  // signalled on submit, completion and stop
  std::deque<Task> queue_;
  uint64_t submitted_ = 0;
  uint64_t completed_ = 0;
  bool stopping_ = false;
  hipError_t async_error_ = hipSuccess;
  std::thread thread_;
};

}  // namespace hip_emu
