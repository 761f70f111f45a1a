#include "group.hpp"

#include <utility>
#include <vector>

#include <array>

#include "errors.hpp"
#include "tasks.hpp"

namespace rccl_emu {
namespace {

// Assumed link speed of the cost model behind ncclGroupSimulateEnd (bytes per microsecond).
constexpr double kModelBytesPerMicrosecond = 10'000.0;

struct GroupState {
  int depth = 0;
  std::vector<std::pair<CommPtr, Operation>> ops;
  std::vector<std::unique_ptr<PendingJoin>> joins;
  std::vector<CommPtr> finalizes;
};

thread_local GroupState g_group;

ncclResult_t submit_collected(std::vector<std::pair<CommPtr, Operation>>& collected) {
  // One task per communicator, holding its operations in call order.
  std::vector<std::pair<CommPtr, std::vector<Operation>>> per_comm;
  for (auto& [comm, op] : collected) {
    auto it = per_comm.begin();
    while (it != per_comm.end() && it->first != comm) ++it;
    if (it == per_comm.end()) {
      per_comm.emplace_back(comm, std::vector<Operation>{});
      it = per_comm.end() - 1;
    }
    it->second.push_back(std::move(op));
  }
  ncclResult_t first = ncclSuccess;
  for (auto& [comm, ops] : per_comm) {
    ncclResult_t status = submit(comm, std::move(ops));
    if (first == ncclSuccess) first = status;
  }
  return first;
}

// Flush and post the meeting of every communicator first, then collect: one thread may hold them all.
ncclResult_t finalize_all(const std::vector<CommPtr>& comms) {
  std::vector<ncclResult_t> status(comms.size(), ncclSuccess);
  for (size_t i = 0; i < comms.size(); ++i) {
    CommState& c = *comms[i];
    if (!wait_until_idle(c)) {
      status[i] = fail(ncclInvalidUsage, "ncclCommFinalize : the communicator was aborted");
    } else if (int error = c.async_error.load(); error != ncclSuccess) {
      status[i] = fail(static_cast<ncclResult_t>(error), "ncclCommFinalize : an operation of this communicator failed");
    } else {
      status[i] = post_exchange(c, {0, 0, 0, 0});
    }
  }
  ncclResult_t first = ncclSuccess;
  for (size_t i = 0; i < comms.size(); ++i) {
    if (status[i] == ncclSuccess) {
      std::vector<std::array<int64_t, 4>> ignored;
      status[i] = collect_exchange(*comms[i], &ignored);
    }
    if (status[i] == ncclSuccess) {
      std::lock_guard<std::mutex> lock(comms[i]->mutex);
      comms[i]->finalized = true;
    } else if (first == ncclSuccess) {
      first = status[i];
    }
  }
  return first;
}

}  // namespace

ncclResult_t finalize_communicator(const CommPtr& comm) {
  if (in_group()) {
    g_group.finalizes.push_back(comm);
    return ncclSuccess;
  }
  return finalize_all({comm});
}

bool in_group() { return g_group.depth > 0; }

void group_start() { ++g_group.depth; }

ncclResult_t enqueue(const CommPtr& comm, Operation op) {
  if (in_group()) {
    g_group.ops.emplace_back(comm, std::move(op));
    return ncclSuccess;
  }
  std::vector<Operation> ops;
  ops.push_back(std::move(op));
  return submit(comm, std::move(ops));
}

ncclResult_t create_communicator(std::unique_ptr<PendingJoin> join) {
  if (in_group()) {
    join->deferred = true;
    if (join->out) *join->out = join->handle;
    g_group.joins.push_back(std::move(join));
    return ncclSuccess;
  }
  std::vector<std::unique_ptr<PendingJoin>> batch;
  batch.push_back(std::move(join));
  return run_joins(batch);
}

ncclResult_t group_end(float* simulated_microseconds) {
  if (g_group.depth == 0) {
    return fail(ncclInvalidUsage, "ncclGroupEnd: not in a group call (no matching ncclGroupStart)");
  }
  if (--g_group.depth > 0) return ncclSuccess;
  std::vector<std::unique_ptr<PendingJoin>> joins = std::move(g_group.joins);
  std::vector<std::pair<CommPtr, Operation>> ops = std::move(g_group.ops);
  std::vector<CommPtr> finalizes = std::move(g_group.finalizes);
  g_group.joins.clear();
  g_group.ops.clear();
  g_group.finalizes.clear();
  ncclResult_t status = joins.empty() ? ncclSuccess : run_joins(joins);
  if (simulated_microseconds != nullptr) {
    double bytes = 0;
    for (auto& [comm, op] : ops) bytes += static_cast<double>(op.count) * type_size(op.type);
    *simulated_microseconds = static_cast<float>(bytes / kModelBytesPerMicrosecond);
    return status;
  }
  ncclResult_t submitted = ops.empty() ? ncclSuccess : submit_collected(ops);
  ncclResult_t finalized = finalizes.empty() ? ncclSuccess : finalize_all(finalizes);
  return status != ncclSuccess ? status : submitted != ncclSuccess ? submitted : finalized;
}

}  // namespace rccl_emu
