#include "joins.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "errors.hpp"

namespace rccl_emu {
namespace {

// Split: every parent rank learns all (color, key) pairs and derives its new rank and the new id.
void resolve_split(PendingJoin& j, const std::vector<std::array<int64_t, 4>>& all) {
  CommState& parent = *j.split_parent;
  std::vector<std::pair<int64_t, int>> members;  // (key, parent rank)
  for (int r = 0; r < parent.nranks; ++r) {
    if (all[r][0] == j.color) members.emplace_back(all[r][1], r);
  }
  std::sort(members.begin(), members.end());
  CommState& s = *j.state;
  s.nranks = static_cast<int>(members.size());
  for (size_t i = 0; i < members.size(); ++i) {
    if (members[i].second == parent.rank) s.rank = static_cast<int>(i);
  }
  s.device = parent.device;
  ncclUniqueId id = derive_unique_id(parent.id, j.split_sequence, j.color);
  parse_unique_id(id, &s.id);
}

}  // namespace

std::unique_ptr<PendingJoin> new_join(ncclComm_t* out) {
  auto j = std::make_unique<PendingJoin>();
  j->state = std::make_shared<CommState>();
  j->handle = new ncclComm{j->state};
  j->out = out;
  register_handle(j->handle);
  return j;
}

void delete_handle(ncclComm* handle) {
  unregister_handle(handle);
  delete handle;
}

ncclResult_t run_joins(std::vector<std::unique_ptr<PendingJoin>>& joins) {
  // 1-2. Splits: post (color, key) on the parent, then read everyone's.
  for (auto& j : joins) {
    if (j->split_parent) j->status = post_exchange(*j->split_parent, {j->color, j->key, 0, 0});
  }
  for (auto& j : joins) {
    if (!j->split_parent || j->status != ncclSuccess) continue;
    std::vector<std::array<int64_t, 4>> all;
    j->status = collect_exchange(*j->split_parent, &all);
    if (j->status == ncclSuccess && j->color != NCCL_SPLIT_NOCOLOR) resolve_split(*j, all);
  }
  auto member = [](const PendingJoin& j) { return !(j.split_parent && j.color == NCCL_SPLIT_NOCOLOR); };
  // 3. Rank 0 of each new communicator creates its segment before the others look for it.
  std::vector<PendingJoin*> order;
  for (auto& j : joins) order.push_back(j.get());
  std::stable_sort(order.begin(), order.end(), [](PendingJoin* a, PendingJoin* b) {
    return (a->state->rank == 0) > (b->state->rank == 0);
  });
  for (PendingJoin* j : order) {
    if (j->status != ncclSuccess || !member(*j)) continue;
    j->status = begin_join(j->state->id, j->state->nranks, j->state->rank, j->state->device, &j->ticket);
  }
  // 4. Wait for every rank of every new communicator.
  for (PendingJoin* j : order) {
    if (j->status != ncclSuccess || !member(*j)) continue;
    j->status = finish_join(j->ticket, &j->state->aborted);
    if (j->status != ncclSuccess) abandon_join(j->ticket);
  }
  ncclResult_t first = ncclSuccess;
  for (auto& j : joins) {
    if (j->status == ncclSuccess && member(*j)) {
      j->state->segment = j->ticket.segment;
      j->state->ready.store(true);
      if (j->out) *j->out = j->handle;
      continue;
    }
    if (j->status == ncclSuccess) {  // NCCL_SPLIT_NOCOLOR: took part, gets no communicator
      delete_handle(j->handle);
      if (j->out) *j->out = nullptr;
      continue;
    }
    if (first == ncclSuccess) first = j->status;
    if (j->ticket.segment) abandon_join(j->ticket);
    if (j->deferred) {
      j->state->async_error.store(j->status);
    } else {
      delete_handle(j->handle);
      if (j->out) *j->out = nullptr;
    }
  }
  return first;
}

}  // namespace rccl_emu
