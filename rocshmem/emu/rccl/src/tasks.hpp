// Stream tasks: every call (or group) becomes one host function on its HIP stream, via the public
// hipLaunchHostFunc, so it runs in stream order on the emulated device. When one communicator's
// operations in a group use several streams, the other streams wait for the task (and it waits for
// their earlier work), as RCCL joins the streams of a group. Tasks of one communicator run in the
// order they were enqueued (tickets), whatever streams they were queued on.
#pragma once

#include <vector>

#include "comm.hpp"
#include "operation.hpp"

namespace rccl_emu {

// Queues `ops` (all for `comm`) as one task.
ncclResult_t submit(const CommPtr& comm, std::vector<Operation> ops);

// Blocks until every queued task of `comm` finished (ncclCommFinalize, ncclCommDestroy); returns
// early with false when the communicator gets aborted.
bool wait_until_idle(CommState& comm);

// Cancels queued and running work: flags the communicator and waits for the running tasks to leave.
void abort_tasks(CommState& comm);

}  // namespace rccl_emu
