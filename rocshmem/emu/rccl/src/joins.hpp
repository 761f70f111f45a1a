// Creating communicators: ncclCommInitRank(Config/Scalable), ncclCommInitAll, ncclCommSplit and
// ncclCommShrink all end in "join the segment of this id as rank r of n". Joins are run in steps
// over a batch (split exchanges, then rank-0 creations, then the other attaches, then the waits),
// so one thread can create several ranks of one communicator (InitAll, or inits/splits in a group).
#pragma once

#include <memory>
#include <vector>

#include "comm.hpp"

namespace rccl_emu {

struct PendingJoin {
  ncclComm* handle = nullptr;  // registered at once; usable when `state->ready`
  ncclComm_t* out = nullptr;   // where the caller wants the handle (null when not a member)
  CommPtr state;               // rank, nranks, device, id: set before the join (after the exchange for splits)
  bool deferred = false;       // created inside a group: the caller already holds the handle
  // ncclCommSplit only: filled in from the parent's exchange.
  CommPtr split_parent;
  int color = 0;
  int key = 0;
  uint64_t split_sequence = 0;
  ncclResult_t status = ncclSuccess;
  JoinTicket ticket;
};

// A join for `out`, with the handle already allocated and registered (ready = false).
std::unique_ptr<PendingJoin> new_join(ncclComm_t* out);

// Runs every step for the batch. Members that fail are reported in their `status` (and the first
// failure is returned); a failed handle is unregistered and freed unless it was deferred, in which
// case it stays registered with its async error so the caller can see it and destroy it.
ncclResult_t run_joins(std::vector<std::unique_ptr<PendingJoin>>& joins);

// Frees a handle (unregistering it first).
void delete_handle(ncclComm* handle);

}  // namespace rccl_emu
