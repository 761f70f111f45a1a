// The CPU RCCL's cross-rank deadlock check. A rank whose transfers have moved nothing for a check
// period publishes, in the communicator segment, which peers it still needs (to receive from or to
// send to) and the operation it is in. If every rank it needs, and every rank those need in turn,
// is stuck too, and each of them has since made two more passes without moving anything, none of
// them can ever move: only a transfer with a rank of that closed set could unblock one, and those
// ranks are all waiting. Typical causes are ranks that disagree on a root where nobody sends (every
// rank thinks it is the root of a reduce) and send/recv pairs whose peers do not match.
//
// Legal programs are never reported: a rank that waits for a peer outside the engine (not yet
// called, busy elsewhere) keeps the set open, and a rank withdraws its entry before it moves data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "comm.hpp"
#include "operation.hpp"

namespace rccl_emu {

class DeadlockWatch {
 public:
  explicit DeadlockWatch(CommState& c) : c_(c) {}
  ~DeadlockWatch() { withdraw(); }
  DeadlockWatch(const DeadlockWatch&) = delete;
  DeadlockWatch& operator=(const DeadlockWatch&) = delete;

  bool published() const { return epoch_ != 0; }

  // row[p] holds kWaitsTo* flags for peer p; kind/root/sequence describe the first unfinished transfer.
  void publish(const std::vector<uint8_t>& row, Kind kind, int32_t root, uint64_t sequence);

  // Must run before this rank moves anything, so that no observer sees it stuck while it moves.
  void withdraw() {
    if (epoch_ != 0) withdraw_slow();
  }

  // One more pass that moved nothing.
  void passed();

  // A description of the deadlock if this rank is in a closed set of stuck ranks that has stayed
  // unchanged since the previous call; empty otherwise.
  std::string deadlock();

 private:
  struct Member {
    int rank;
    uint64_t epoch;
    uint64_t passes;
    uint32_t kind;
    int32_t root;
    uint64_t sequence;
    std::vector<uint8_t> row;
  };

  void withdraw_slow();
  // The closed set of stuck ranks reachable from this one, or false if some reachable rank is not stuck.
  bool read_closure(std::vector<Member>* members);
  std::string describe(const std::vector<Member>& members);

  CommState& c_;
  uint64_t epoch_ = 0;
  std::vector<Member> previous_;  // the closure seen by the last check, for the confirmation
};

}  // namespace rccl_emu
