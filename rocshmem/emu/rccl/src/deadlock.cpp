#include "deadlock.hpp"

#include <algorithm>
#include <atomic>

#include "waiting.hpp"

namespace rccl_emu {
namespace {

constexpr size_t kMembersDescribed = 6;  // the message stays inside ncclGetLastError's 1024 characters
constexpr size_t kPeersListed = 8;

std::string rank_list(const std::vector<int>& ranks) {
  std::string out;
  for (size_t i = 0; i < ranks.size() && i < kPeersListed; ++i) out += (i ? "," : "") + std::to_string(ranks[i]);
  if (ranks.size() > kPeersListed) out += ",... (" + std::to_string(ranks.size()) + " ranks)";
  return out;
}

std::string peers_with(const std::vector<uint8_t>& row, uint8_t flag) {
  std::vector<int> peers;
  for (size_t p = 0; p < row.size(); ++p)
    if (row[p] & flag) peers.push_back(static_cast<int>(p));
  if (peers.empty()) return {};
  return (peers.size() == 1 ? "rank " : "ranks ") + rank_list(peers);
}

}  // namespace

void DeadlockWatch::publish(const std::vector<uint8_t>& row, Kind kind, int32_t root, uint64_t sequence) {
  RankSlot& mine = c_.segment->rank(c_.rank);
  std::atomic<uint8_t>* waits = c_.segment->waits(c_.rank);
  for (size_t p = 0; p < row.size(); ++p) waits[p].store(row[p], std::memory_order_relaxed);
  mine.stuck_kind = static_cast<uint32_t>(kind);
  mine.stuck_root = root;
  mine.stuck_sequence = sequence;
  mine.stuck_passes.store(0, std::memory_order_relaxed);
  epoch_ = static_cast<uint64_t>(monotonic_ns());  // never repeats, so a re-published entry looks new
  mine.stuck_epoch.store(epoch_, std::memory_order_seq_cst);
  previous_.clear();
}

void DeadlockWatch::withdraw_slow() {
  c_.segment->rank(c_.rank).stuck_epoch.store(0, std::memory_order_seq_cst);
  epoch_ = 0;
  previous_.clear();
}

void DeadlockWatch::passed() {
  if (epoch_ != 0) c_.segment->rank(c_.rank).stuck_passes.fetch_add(1, std::memory_order_seq_cst);
}

bool DeadlockWatch::read_closure(std::vector<Member>* members) {
  const int n = c_.nranks;
  std::vector<char> queued(n, 0);
  std::vector<int> todo{c_.rank};
  queued[c_.rank] = 1;
  while (!todo.empty()) {
    int r = todo.back();
    todo.pop_back();
    RankSlot& slot = c_.segment->rank(r);
    if (slot.state.load(std::memory_order_acquire) != kRankActive) return false;  // the departed-peer check's case
    Member m{r, slot.stuck_epoch.load(std::memory_order_seq_cst), 0, 0, -1, 0, std::vector<uint8_t>(n)};
    if (m.epoch == 0) return false;
    m.passes = slot.stuck_passes.load(std::memory_order_seq_cst);
    m.kind = slot.stuck_kind;
    m.root = slot.stuck_root;
    m.sequence = slot.stuck_sequence;
    std::atomic<uint8_t>* waits = c_.segment->waits(r);
    for (int p = 0; p < n; ++p) m.row[p] = waits[p].load(std::memory_order_relaxed);
    // Re-read: an entry that changed while it was copied is not a consistent picture.
    if (slot.stuck_epoch.load(std::memory_order_seq_cst) != m.epoch) return false;
    for (int p = 0; p < n; ++p) {
      if (m.row[p] != 0 && !queued[p]) {
        queued[p] = 1;
        todo.push_back(p);
      }
    }
    members->push_back(std::move(m));
  }
  return true;
}

std::string DeadlockWatch::deadlock() {
  if (epoch_ == 0) return {};
  std::vector<Member> now;
  if (!read_closure(&now)) {
    previous_.clear();
    return {};
  }
  bool confirmed = !previous_.empty() && previous_.size() == now.size();
  for (size_t i = 0; confirmed && i < now.size(); ++i) {
    // Same entries (no member moved and re-published), and each member looked at its channels
    // twice since: data that was in flight at the first look would have moved someone.
    confirmed = now[i].rank == previous_[i].rank && now[i].epoch == previous_[i].epoch &&
                now[i].passes >= previous_[i].passes + 2;
  }
  if (!confirmed) {
    bool same_entries = previous_.size() == now.size();
    for (size_t i = 0; same_entries && i < now.size(); ++i)
      same_entries = now[i].rank == previous_[i].rank && now[i].epoch == previous_[i].epoch;
    if (!same_entries) previous_ = std::move(now);  // else keep counting passes from the first look
    return {};
  }
  return describe(now);
}

std::string DeadlockWatch::describe(const std::vector<Member>& members) {
  std::vector<int> ranks;
  for (const Member& m : members) ranks.push_back(m.rank);
  std::vector<int> sorted = ranks;
  std::sort(sorted.begin(), sorted.end());
  std::string text = "rank " + std::to_string(c_.rank) + ": deadlock: " +
                     (members.size() == 1 ? "rank " : "ranks ") + rank_list(sorted) +
                     " wait only for each other and none can move (";
  for (size_t i = 0; i < members.size() && i < kMembersDescribed; ++i) {
    const Member& m = members[i];
    text += (i ? "; rank " : "rank ") + std::to_string(m.rank) + " in " + kind_name(static_cast<Kind>(m.kind));
    if (m.sequence != 0) text += " #" + std::to_string(m.sequence);
    if (m.root >= 0) text += " with root " + std::to_string(m.root);
    std::string receive = peers_with(m.row, kWaitsToReceive), send = peers_with(m.row, kWaitsToSend);
    if (!receive.empty()) text += " receives from " + receive;
    if (!send.empty()) text += std::string(receive.empty() ? "" : " and") + " sends to " + send;
  }
  if (members.size() > kMembersDescribed) text += "; ...";
  text += "): the ranks disagree on a root or on the peers of send/recv (the emulator checks this; NCCL and RCCL hang)";
  return text;
}

}  // namespace rccl_emu
