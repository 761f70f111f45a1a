// Runs the operations of one stream task (a single call, or everything one communicator got in a
// group) on the calling stream thread. Send/recv of the task progress in the background of every
// collective phase, so no pairing of sends and receives inside a group can deadlock.
//
// Algorithms (exact and identical on every rank; contributions reduced in rank order):
//   AllReduce      reduce-scatter to segment owners, then all-gather of the reduced segments
//   ReduceScatter  every rank sends block r to rank r, which reduces it
//   Reduce         everyone sends to the root, which reduces
//   Broadcast, Scatter, Gather, AllGather, AllToAll(v): direct transfers
#pragma once

#include <vector>

#include "comm.hpp"
#include "operation.hpp"

namespace rccl_emu {

// On failure the communicator is marked failed (async error) unless it was aborted.
ncclResult_t execute(CommState& c, std::vector<Operation>& ops);

}  // namespace rccl_emu
