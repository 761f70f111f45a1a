// ncclGroupStart/ncclGroupEnd: per host thread, nestable. Inside a group, operations and
// communicator creations are collected; the outermost ncclGroupEnd creates the communicators
// (all ranks' steps interleaved, see joins.hpp), queues one fused task per communicator, and then
// finalizes the communicators whose ncclCommFinalize was called in the group.
#pragma once

#include <memory>

#include "joins.hpp"
#include "operation.hpp"

namespace rccl_emu {

bool in_group();
void group_start();

// Queues `op` now, or, inside a group, at the outermost ncclGroupEnd.
ncclResult_t enqueue(const CommPtr& comm, Operation op);

// Runs `join` now, or defers it to the outermost ncclGroupEnd.
ncclResult_t create_communicator(std::unique_ptr<PendingJoin> join);

// ncclCommFinalize: flush, then meet every rank. Inside a group the meeting waits for ncclGroupEnd, so
// one thread can finalize all the ranks it drives (ncclCommInitAll).
ncclResult_t finalize_communicator(const CommPtr& comm);

// ncclGroupEnd; with `simulated_microseconds` set (ncclGroupSimulateEnd) the collected operations
// are only costed, not run.
ncclResult_t group_end(float* simulated_microseconds);

}  // namespace rccl_emu
