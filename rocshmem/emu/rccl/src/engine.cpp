#include "engine.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "deadlock.hpp"
#include "errors.hpp"
#include "waiting.hpp"

namespace rccl_emu {

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::all_reduce: return "ncclAllReduce";
    case Kind::broadcast: return "ncclBroadcast";
    case Kind::reduce: return "ncclReduce";
    case Kind::all_gather: return "ncclAllGather";
    case Kind::reduce_scatter: return "ncclReduceScatter";
    case Kind::all_to_all: return "ncclAllToAll";
    case Kind::all_to_allv: return "ncclAllToAllv";
    case Kind::gather: return "ncclGather";
    case Kind::scatter: return "ncclScatter";
    case Kind::send: return "ncclSend/ncclRecv";
    case Kind::recv: return "ncclSend/ncclRecv";
    case Kind::all_reduce_with_bias: return "ncclAllReduceWithBias";
  }
  return "(unknown operation)";
}

namespace {

// What both ends of a message must agree on. NCCL itself checks none of it (a mismatch there is
// garbage or a hang); the emulator compares the operation, count, data type, reduction and root.
struct Signature {
  Kind kind;
  int32_t type;
  int32_t reduction;  // -1 for operations that do not reduce
  int32_t root;       // -1 for operations without a root
  uint64_t sequence;  // collective number on the communicator (equal on every rank); 0 for send/recv
};

bool reduces(Kind k) {
  return k == Kind::all_reduce || k == Kind::all_reduce_with_bias || k == Kind::reduce || k == Kind::reduce_scatter;
}
bool rooted(Kind k) { return k == Kind::broadcast || k == Kind::reduce || k == Kind::gather || k == Kind::scatter; }

int32_t encode_reduction(const Reduction& r) {
  return static_cast<int32_t>(r.base) | (r.premultiply ? 0x10 : 0) | (r.divide_after ? 0x20 : 0);
}

std::string describe_reduction(int32_t code) {
  if (code < 0) return "none";
  static const char* const kBase[] = {"sum", "prod", "max", "min"};
  std::string base = kBase[code & 3];
  if (code & 0x20) return "avg";
  if (code & 0x10) return base == "sum" ? "avg or PreMulSum" : base + " (premultiplied)";
  return base;
}

Signature signature_of(const Operation& op, uint64_t sequence) {
  return Signature{op.kind, static_cast<int32_t>(op.type), reduces(op.kind) ? encode_reduction(op.reduction) : -1,
                   rooted(op.kind) ? op.root : -1, sequence};
}

// One message on one channel, moved slot by slot.
struct Transfer {
  bool sending;
  Lane lane;
  int peer;
  const char* from;
  char* to;
  uint64_t bytes;
  Signature sig;
  uint64_t moved = 0;
  bool started = false;
  bool finished = false;
};

class Engine {
 public:
  explicit Engine(CommState& c) : c_(c), busy_(2 * 2 * static_cast<size_t>(c.nranks)), watch_(c) {}

  void send(Lane lane, int peer, const void* from, uint64_t bytes, const Signature& sig) {
    list(lane).push_back(Transfer{true, lane, peer, static_cast<const char*>(from), nullptr, bytes, sig});
  }
  void recv(Lane lane, int peer, void* to, uint64_t bytes, const Signature& sig) {
    list(lane).push_back(Transfer{false, lane, peer, nullptr, static_cast<char*>(to), bytes, sig});
  }

  // Moves the collective transfers queued so far (and, meanwhile, the send/recv ones) to completion.
  ncclResult_t run_phase() {
    ncclResult_t status = run_until([&] { return all_finished(phase_); });
    phase_.clear();
    return status;
  }

  ncclResult_t finish_point_to_point() {
    ncclResult_t status = run_until([&] { return all_finished(p2p_); });
    p2p_.clear();
    return status;
  }

 private:
  std::vector<Transfer>& list(Lane lane) { return lane == Lane::collective ? phase_ : p2p_; }

  static bool all_finished(const std::vector<Transfer>& transfers) {
    for (const Transfer& t : transfers)
      if (!t.finished) return false;
    return true;
  }

  template <class Done>
  ncclResult_t run_until(Done done) {
    ncclResult_t status = progress(done);
    watch_.withdraw();  // finished or failed: no longer waiting for anyone
    return status;
  }

  template <class Done>
  ncclResult_t progress(Done done) {
    Backoff backoff;
    for (;;) {
      bool moved = false;
      std::fill(busy_.begin(), busy_.end(), 0);
      ncclResult_t status = pass(phase_, &moved);
      if (status == ncclSuccess) status = pass(p2p_, &moved);
      if (status != ncclSuccess) return status;
      if (done()) return ncclSuccess;
      if (c_.aborted.load(std::memory_order_relaxed)) {
        return fail(ncclInvalidUsage, "rank " + std::to_string(c_.rank) + ": operation cancelled by ncclCommAbort");
      }
      if (moved) {
        backoff.reset();
        continue;
      }
      watch_.passed();
      backoff.pause();
      if (backoff.time_to_check()) {
        if (ncclResult_t s = unexpected_sender(); s != ncclSuccess) return s;
        std::string departed = departed_peer();
        if (departed.empty()) {
          if (ncclResult_t s = check_deadlock(); s != ncclSuccess) return s;
          continue;
        }
        // A peer that left may have delivered its last slots just before: only a pass that still
        // moves nothing proves the transfer stuck.
        bool moved_after = false;
        std::fill(busy_.begin(), busy_.end(), 0);
        ncclResult_t again = pass(phase_, &moved_after);
        if (again == ncclSuccess) again = pass(p2p_, &moved_after);
        if (again != ncclSuccess) return again;
        if (!moved_after && !done()) return fail(ncclRemoteError, departed);
      }
    }
  }

  // Nothing moved for a check period: publish what this rank waits for, or, once published, see
  // whether it is part of a set of ranks that can only wait for each other (deadlock.hpp).
  ncclResult_t check_deadlock() {
    if (!watch_.published()) {
      std::vector<uint8_t> row(c_.nranks, 0);
      const Transfer* first = nullptr;
      for (const std::vector<Transfer>* transfers : {&phase_, &p2p_}) {
        for (const Transfer& t : *transfers) {
          if (t.finished) continue;
          row[t.peer] |= t.sending ? kWaitsToSend : kWaitsToReceive;
          if (first == nullptr) first = &t;
        }
      }
      if (first != nullptr) watch_.publish(row, first->sig.kind, first->sig.root, first->sig.sequence);
      return ncclSuccess;
    }
    std::string deadlock = watch_.deadlock();
    if (deadlock.empty()) return ncclSuccess;
    deadlock += unread_data();
    SegmentHeader& h = c_.segment->header();
    int32_t none = 0;
    if (h.deadlock_reporter.compare_exchange_strong(none, -1)) {
      std::snprintf(h.deadlock_report, sizeof h.deadlock_report, "%s", deadlock.c_str());
      h.deadlock_reporter.store(c_.rank + 1, std::memory_order_release);
    }
    return fail(ncclInvalidUsage, deadlock);
  }

  // Data waiting for this rank from peers it runs no transfer with: the other half of a mismatch.
  std::string unread_data() {
    std::vector<char> expected(c_.nranks, 0);
    for (const std::vector<Transfer>* transfers : {&phase_, &p2p_})
      for (const Transfer& t : *transfers)
        if (!t.sending && !t.finished) expected[t.peer] = 1;
    std::string text;
    for (Lane lane : {Lane::collective, Lane::point_to_point}) {
      for (int p = 0; p < c_.nranks && text.size() < 160; ++p) {
        if (expected[p]) continue;
        Channel& ch = c_.segment->channel(lane, p, c_.rank);
        uint64_t tail = ch.tail.load(std::memory_order_relaxed);
        if (tail == ch.head.load(std::memory_order_acquire)) continue;
        const SlotHeader h = ch.slots[tail % kSlotsPerChannel].header;
        text += (text.empty() ? "; rank " + std::to_string(c_.rank) + " has unreceived " : ", ") +
                std::string(kind_name(static_cast<Kind>(h.tag))) + " data from rank " + std::to_string(p);
      }
    }
    return text;
  }

  // Progresses the first unfinished transfer of every channel (messages on a channel are FIFO).
  ncclResult_t pass(std::vector<Transfer>& transfers, bool* moved) {
    for (Transfer& t : transfers) {
      if (t.finished) continue;
      char& busy = busy_[(static_cast<size_t>(t.lane) * 2 + (t.sending ? 1 : 0)) * c_.nranks + t.peer];
      if (busy) continue;
      busy = 1;
      ncclResult_t status = t.sending ? push(t, moved) : pull(t, moved);
      if (status != ncclSuccess) return status;
    }
    return ncclSuccess;
  }

  ncclResult_t push(Transfer& t, bool* moved) {
    Channel& ch = c_.segment->channel(t.lane, c_.rank, t.peer);
    uint64_t head = ch.head.load(std::memory_order_relaxed);
    while (!t.finished) {
      if (head - ch.tail.load(std::memory_order_acquire) >= kSlotsPerChannel) break;
      Slot& slot = ch.slots[head % kSlotsPerChannel];
      uint32_t chunk = static_cast<uint32_t>(std::min<uint64_t>(kSlotBytes, t.bytes - t.moved));
      slot.header = SlotHeader{t.bytes, chunk, static_cast<uint32_t>(t.sig.kind), t.sig.type, t.sig.reduction,
                               t.sig.root, t.sig.sequence};
      if (chunk > 0) std::memcpy(slot.data, t.from + t.moved, chunk);
      t.moved += chunk;
      t.started = true;
      watch_.withdraw();
      ch.head.store(++head, std::memory_order_release);
      *moved = true;
      t.finished = t.moved == t.bytes;
    }
    return ncclSuccess;
  }

  ncclResult_t pull(Transfer& t, bool* moved) {
    Channel& ch = c_.segment->channel(t.lane, t.peer, c_.rank);
    uint64_t tail = ch.tail.load(std::memory_order_relaxed);
    while (!t.finished) {
      if (tail == ch.head.load(std::memory_order_acquire)) break;
      Slot& slot = ch.slots[tail % kSlotsPerChannel];
      SlotHeader h = slot.header;
      if (h.tag == static_cast<uint32_t>(t.sig.kind) && h.sequence == t.sig.sequence && h.root != t.sig.root) {
        // Checked before the sizes: with two ranks that both believe they are the root, what arrives
        // is the other root's data where this root expects an acknowledgement.
        return fail(ncclInvalidUsage, "rank " + std::to_string(c_.rank) + ": " + kind_name(t.sig.kind) + " with root " +
                                          std::to_string(t.sig.root) + " here but " + std::to_string(h.root) +
                                          " on rank " + std::to_string(t.peer) +
                                          ": every rank must pass the same root (the emulator checks this; NCCL and "
                                          "RCCL do not)");
      }
      if (h.tag != static_cast<uint32_t>(t.sig.kind) || h.message_bytes != t.bytes || h.chunk_bytes > t.bytes - t.moved) {
        return fail(ncclInvalidUsage,
                    "rank " + std::to_string(c_.rank) + " expected " + kind_name(t.sig.kind) + " data of " +
                        std::to_string(t.bytes) + " bytes from rank " + std::to_string(t.peer) + " but received " +
                        kind_name(static_cast<Kind>(h.tag)) + " data of " + std::to_string(h.message_bytes) +
                        " bytes: all ranks must call the same operations, with matching counts and types, in the "
                        "same order");
      }
      if (h.sequence != t.sig.sequence) {
        return fail(ncclInvalidUsage,
                    "rank " + std::to_string(c_.rank) + " expected data of its collective #" +
                        std::to_string(t.sig.sequence) + " (" + kind_name(t.sig.kind) + ") from rank " +
                        std::to_string(t.peer) + " but received its collective #" + std::to_string(h.sequence) +
                        ": the ranks disagree on the root or on which ranks take part (the emulator checks this; "
                        "NCCL and RCCL do not)");
      }
      if (h.type != t.sig.type || h.reduction != t.sig.reduction || h.root != t.sig.root) {
        std::string what;
        if (h.type != t.sig.type)
          what = std::string("data type ") + type_name(t.sig.type) + " here but " + type_name(h.type) + " on rank " +
                 std::to_string(t.peer);
        else if (h.reduction != t.sig.reduction)
          what = "reduction " + describe_reduction(t.sig.reduction) + " here but " + describe_reduction(h.reduction) +
                 " on rank " + std::to_string(t.peer);
        else
          what = "root " + std::to_string(t.sig.root) + " here but " + std::to_string(h.root) + " on rank " +
                 std::to_string(t.peer);
        return fail(ncclInvalidUsage, "rank " + std::to_string(c_.rank) + ": " + kind_name(t.sig.kind) + " with " +
                                          what + " (the emulator checks this; NCCL and RCCL do not)");
      }
      if (h.chunk_bytes > 0) std::memcpy(t.to + t.moved, slot.data, h.chunk_bytes);
      t.moved += h.chunk_bytes;
      t.started = true;
      watch_.withdraw();
      ch.tail.store(++tail, std::memory_order_release);
      *moved = true;
      t.finished = t.moved == t.bytes;
    }
    return ncclSuccess;
  }

  // Nothing moved for a while: a peer that sent this rank data of the collective it is running,
  // on a channel this rank does not read in it, disagrees about the root (or about who sends).
  ncclResult_t unexpected_sender() {
    const Transfer* waiting = nullptr;
    std::vector<char> expected(c_.nranks, 0);
    // Every peer this phase receives from counts as expected, finished or not: one that is ahead may already
    // have sent its data of the collective's next phase (all-reduce has two phases with the same number).
    for (const Transfer& t : phase_) {
      if (t.sending) continue;
      expected[t.peer] = 1;
      if (!t.finished) waiting = &t;
    }
    if (waiting == nullptr) return ncclSuccess;
    for (int p = 0; p < c_.nranks; ++p) {
      if (p == c_.rank || expected[p]) continue;
      Channel& ch = c_.segment->channel(Lane::collective, p, c_.rank);
      uint64_t tail = ch.tail.load(std::memory_order_relaxed);
      if (tail == ch.head.load(std::memory_order_acquire)) continue;
      const SlotHeader h = ch.slots[tail % kSlotsPerChannel].header;
      if (h.sequence != waiting->sig.sequence) continue;
      return fail(ncclInvalidUsage,
                  "rank " + std::to_string(c_.rank) + " waits for " + kind_name(waiting->sig.kind) +
                      " data from rank " + std::to_string(waiting->peer) + (waiting->sig.root >= 0 ? " (root " +
                      std::to_string(waiting->sig.root) + " here)" : std::string()) + " but rank " +
                      std::to_string(p) + " sent it data of the same collective" +
                      (h.root >= 0 ? " (root " + std::to_string(h.root) + " there)" : std::string()) +
                      ": the ranks disagree on the root (the emulator checks this; NCCL and RCCL do not)");
    }
    return ncclSuccess;
  }

  // Nothing moved for a while: describes an unfinished transfer whose peer is gone (empty if none).
  std::string departed_peer() {
    for (const std::vector<Transfer>* transfers : {&phase_, &p2p_}) {
      for (const Transfer& t : *transfers) {
        if (t.finished || t.peer == c_.rank) continue;
        RankSlot& peer = c_.segment->rank(t.peer);
        int32_t state = peer.state.load(std::memory_order_acquire);
        int pid = peer.pid.load(std::memory_order_acquire);
        const char* why = state == kRankLeft      ? "destroyed its communicator"
                          : state == kRankAborted ? "aborted its communicator or failed"
                          : process_is_gone(pid)  ? "exited"
                                                  : nullptr;
        // A peer that stopped because some rank found a deadlock: say so, the cause is there.
        SegmentHeader& h = c_.segment->header();
        int32_t reporter = h.deadlock_reporter.load(std::memory_order_acquire);
        if (state == kRankAborted && reporter > 0) {
          return "rank " + std::to_string(c_.rank) + ": stopped (peer rank " + std::to_string(t.peer) + " left while " +
                 kind_name(t.sig.kind) + (t.sending ? " was sending to it" : " was receiving from it") +
                 ")" + unread_data() + " after a deadlock was found; the first report: " + std::string(h.deadlock_report);
        }
        if (why != nullptr) {
          return "rank " + std::to_string(c_.rank) + ": peer rank " + std::to_string(t.peer) + " (pid " +
                 std::to_string(pid) + ") " + why + " while " + kind_name(t.sig.kind) +
                 (t.sending ? " was sending to it" : " was receiving from it");
        }
      }
    }
    return {};
  }

  CommState& c_;
  std::vector<Transfer> phase_;
  std::vector<Transfer> p2p_;
  std::vector<char> busy_;
  DeadlockWatch watch_;
};

// ---- collectives ------------------------------------------------------------------------------

struct Context {
  CommState& c;
  Engine& engine;
  const Operation& op;
  size_t element;  // bytes per element
  Signature sig;   // what every message of this collective carries
  int me() const { return c.rank; }
  int n() const { return c.nranks; }
};

// The data a rank contributes to a reduction: its input, premultiplied when the operator says so.
const char* contribution(const Context& x, const void* input, size_t count, std::vector<char>& scratch) {
  const Reduction& r = x.op.reduction;
  if (!r.premultiply) return static_cast<const char*>(input);
  unsigned char scalar[8];
  std::memcpy(scalar, r.scalar_on_device ? r.device_scalar : r.scalar, x.element);
  scratch.resize(count * x.element);
  multiply(x.op.type, scratch.data(), input, scalar, count);
  return scratch.data();
}

// out = contributions reduced in rank order (inputs[r] is rank r's), then divided for integer Avg.
void reduce_into(const Context& x, void* out, std::vector<const void*>& inputs, size_t count) {
  reduce(x.op.type, x.op.reduction.base, out, inputs.data(), static_cast<int>(inputs.size()), count);
  if (x.op.reduction.divide_after) divide(x.op.type, out, x.n(), count);
}

size_t segment_offset(size_t count, int n, int s) {
  size_t base = count / n, extra = count % n;
  return s * base + std::min<size_t>(s, extra);
}
size_t segment_length(size_t count, int n, int s) {
  return count / n + (static_cast<size_t>(s) < count % n ? 1 : 0);
}

ncclResult_t all_reduce(Context& x) {
  const Operation& op = x.op;
  const size_t E = x.element;
  char* out = static_cast<char*>(op.recv);
  std::vector<char> premultiplied;
  const char* in = contribution(x, op.send, op.count, premultiplied);
  const size_t my_off = segment_offset(op.count, x.n(), x.me()), my_len = segment_length(op.count, x.n(), x.me());

  std::vector<std::vector<char>> staging(x.n());
  for (int p = 0; p < x.n(); ++p) {
    if (p == x.me()) continue;
    staging[p].resize(my_len * E);
    x.engine.send(Lane::collective, p, in + segment_offset(op.count, x.n(), p) * E,
                  segment_length(op.count, x.n(), p) * E, x.sig);
    x.engine.recv(Lane::collective, p, staging[p].data(), my_len * E, x.sig);
  }
  if (ncclResult_t s = x.engine.run_phase(); s != ncclSuccess) return s;

  std::vector<const void*> inputs(x.n());
  for (int r = 0; r < x.n(); ++r) inputs[r] = r == x.me() ? static_cast<const void*>(in + my_off * E) : staging[r].data();
  reduce_into(x, out + my_off * E, inputs, my_len);

  for (int p = 0; p < x.n(); ++p) {
    if (p == x.me()) continue;
    x.engine.send(Lane::collective, p, out + my_off * E, my_len * E, x.sig);
    x.engine.recv(Lane::collective, p, out + segment_offset(op.count, x.n(), p) * E,
                  segment_length(op.count, x.n(), p) * E, x.sig);
  }
  if (ncclResult_t s = x.engine.run_phase(); s != ncclSuccess) return s;

  if (op.kind == Kind::all_reduce_with_bias && op.bias != nullptr) {
    // The local bias joins the result through the operator (the sum for Avg and PreMulSum).
    BaseOp combine = op.reduction.premultiply || op.reduction.divide_after ? BaseOp::sum : op.reduction.base;
    const void* pair[2] = {out, op.bias};
    reduce(op.type, combine, out, pair, 2, op.count);
  }
  return ncclSuccess;
}

ncclResult_t reduce_scatter(Context& x) {
  const Operation& op = x.op;
  const size_t block = op.count * x.element;
  std::vector<char> premultiplied;
  const char* in = contribution(x, op.send, op.count * x.n(), premultiplied);
  std::vector<std::vector<char>> staging(x.n());
  for (int p = 0; p < x.n(); ++p) {
    if (p == x.me()) continue;
    staging[p].resize(block);
    x.engine.send(Lane::collective, p, in + p * block, block, x.sig);
    x.engine.recv(Lane::collective, p, staging[p].data(), block, x.sig);
  }
  if (ncclResult_t s = x.engine.run_phase(); s != ncclSuccess) return s;
  std::vector<const void*> inputs(x.n());
  for (int r = 0; r < x.n(); ++r) inputs[r] = r == x.me() ? static_cast<const void*>(in + x.me() * block) : staging[r].data();
  reduce_into(x, op.recv, inputs, op.count);
  return ncclSuccess;
}

ncclResult_t reduce_to_root(Context& x) {
  const Operation& op = x.op;
  const size_t bytes = op.count * x.element;
  std::vector<char> premultiplied;
  const char* in = contribution(x, op.send, op.count, premultiplied);
  if (x.me() != op.root) {
    x.engine.send(Lane::collective, op.root, in, bytes, x.sig);
    return x.engine.run_phase();
  }
  std::vector<std::vector<char>> staging(x.n());
  for (int p = 0; p < x.n(); ++p) {
    if (p == x.me()) continue;
    staging[p].resize(bytes);
    x.engine.recv(Lane::collective, p, staging[p].data(), bytes, x.sig);
  }
  if (ncclResult_t s = x.engine.run_phase(); s != ncclSuccess) return s;
  std::vector<const void*> inputs(x.n());
  for (int r = 0; r < x.n(); ++r) inputs[r] = r == x.me() ? static_cast<const void*>(in) : staging[r].data();
  reduce_into(x, op.recv, inputs, op.count);
  return ncclSuccess;
}

// Rooted collectives in which only the root sends (broadcast, scatter) also carry an empty
// acknowledgement from every other rank to the root, so that two ranks that both believe they are
// the root (and would otherwise each complete after sending) receive each other's data and report
// the disagreement (pull() compares the roots first).
// A non-root acknowledges only after its data arrived, so a rank that fails on what it received (another
// collective's data) has sent nothing its root could misread.
ncclResult_t receive_then_acknowledge(Context& x) {
  if (ncclResult_t s = x.engine.run_phase(); s != ncclSuccess) return s;
  x.engine.send(Lane::collective, x.op.root, nullptr, 0, x.sig);
  return x.engine.run_phase();
}
void collect_acknowledgements(Context& x) {
  for (int p = 0; p < x.n(); ++p)
    if (p != x.me()) x.engine.recv(Lane::collective, p, nullptr, 0, x.sig);
}

ncclResult_t broadcast(Context& x) {
  const Operation& op = x.op;
  const size_t bytes = op.count * x.element;
  if (x.me() == op.root) {
    for (int p = 0; p < x.n(); ++p)
      if (p != x.me()) x.engine.send(Lane::collective, p, op.send, bytes, x.sig);
    collect_acknowledgements(x);
    ncclResult_t s = x.engine.run_phase();
    if (s == ncclSuccess && op.recv != op.send && bytes > 0) std::memmove(op.recv, op.send, bytes);
    return s;
  }
  x.engine.recv(Lane::collective, op.root, op.recv, bytes, x.sig);
  return receive_then_acknowledge(x);
}

ncclResult_t all_gather(Context& x) {
  const Operation& op = x.op;
  const size_t block = op.count * x.element;
  char* out = static_cast<char*>(op.recv);
  if (out + x.me() * block != op.send && block > 0) std::memmove(out + x.me() * block, op.send, block);
  for (int p = 0; p < x.n(); ++p) {
    if (p == x.me()) continue;
    x.engine.send(Lane::collective, p, out + x.me() * block, block, x.sig);
    x.engine.recv(Lane::collective, p, out + p * block, block, x.sig);
  }
  return x.engine.run_phase();
}

ncclResult_t gather(Context& x) {
  const Operation& op = x.op;
  const size_t block = op.count * x.element;
  if (x.me() != op.root) {
    x.engine.send(Lane::collective, op.root, op.send, block, x.sig);
    return x.engine.run_phase();
  }
  char* out = static_cast<char*>(op.recv);
  if (out + x.me() * block != op.send && block > 0) std::memmove(out + x.me() * block, op.send, block);
  for (int p = 0; p < x.n(); ++p)
    if (p != x.me()) x.engine.recv(Lane::collective, p, out + p * block, block, x.sig);
  return x.engine.run_phase();
}

ncclResult_t scatter(Context& x) {
  const Operation& op = x.op;
  const size_t block = op.count * x.element;
  if (x.me() != op.root) {
    x.engine.recv(Lane::collective, op.root, op.recv, block, x.sig);
    return receive_then_acknowledge(x);
  }
  const char* in = static_cast<const char*>(op.send);
  for (int p = 0; p < x.n(); ++p)
    if (p != x.me()) x.engine.send(Lane::collective, p, in + p * block, block, x.sig);
  collect_acknowledgements(x);
  ncclResult_t s = x.engine.run_phase();
  if (s == ncclSuccess && op.recv != in + x.me() * block && block > 0) std::memmove(op.recv, in + x.me() * block, block);
  return s;
}

ncclResult_t all_to_all(Context& x) {
  const Operation& op = x.op;
  const size_t block = op.count * x.element;
  const char* in = static_cast<const char*>(op.send);
  char* out = static_cast<char*>(op.recv);
  if (block > 0) std::memmove(out + x.me() * block, in + x.me() * block, block);
  for (int p = 0; p < x.n(); ++p) {
    if (p == x.me()) continue;
    x.engine.send(Lane::collective, p, in + p * block, block, x.sig);
    x.engine.recv(Lane::collective, p, out + p * block, block, x.sig);
  }
  return x.engine.run_phase();
}

ncclResult_t all_to_allv(Context& x) {
  const Operation& op = x.op;
  const size_t E = x.element;
  const char* in = static_cast<const char*>(op.send);
  char* out = static_cast<char*>(op.recv);
  std::vector<char> copy;
  if (op.send == op.recv) {
    // In place: what this rank sends must be read before anything arrives over it.
    size_t extent = 0;
    for (int p = 0; p < x.n(); ++p) extent = std::max(extent, (op.send_displs[p] + op.send_counts[p]) * E);
    copy.assign(in, in + extent);
    in = copy.data();
  }
  const int me = x.me();
  if (op.send_counts[me] > 0) std::memmove(out + op.recv_displs[me] * E, in + op.send_displs[me] * E, op.send_counts[me] * E);
  for (int p = 0; p < x.n(); ++p) {
    if (p == me) continue;
    x.engine.send(Lane::collective, p, in + op.send_displs[p] * E, op.send_counts[p] * E, x.sig);
    x.engine.recv(Lane::collective, p, out + op.recv_displs[p] * E, op.recv_counts[p] * E, x.sig);
  }
  return x.engine.run_phase();
}

ncclResult_t run_collective(Context& x) {
  switch (x.op.kind) {
    case Kind::all_reduce:
    case Kind::all_reduce_with_bias: return all_reduce(x);
    case Kind::reduce_scatter: return reduce_scatter(x);
    case Kind::reduce: return reduce_to_root(x);
    case Kind::broadcast: return broadcast(x);
    case Kind::all_gather: return all_gather(x);
    case Kind::gather: return gather(x);
    case Kind::scatter: return scatter(x);
    case Kind::all_to_all: return all_to_all(x);
    case Kind::all_to_allv: return all_to_allv(x);
    case Kind::send:
    case Kind::recv: break;
  }
  return ncclSuccess;
}

}  // namespace

ncclResult_t execute(CommState& c, std::vector<Operation>& ops) {
  Engine engine(c);
  // Send/recv all start at once and progress behind every collective of the task.
  for (const Operation& op : ops) {
    uint64_t bytes = op.count * type_size(op.type);
    // Both ends carry the send tag: a send matches a recv of the same count and type.
    const Signature p2p{Kind::send, static_cast<int32_t>(op.type), -1, -1, 0};
    if (op.kind == Kind::send) engine.send(Lane::point_to_point, op.peer, op.send, bytes, p2p);
    if (op.kind == Kind::recv) engine.recv(Lane::point_to_point, op.peer, op.recv, bytes, p2p);
  }
  ncclResult_t status = ncclSuccess;
  for (const Operation& op : ops) {
    if (op.is_point_to_point()) continue;
    Context x{c, engine, op, type_size(op.type), signature_of(op, ++c.collectives_run)};
    status = run_collective(x);
    if (status != ncclSuccess) break;
  }
  if (status == ncclSuccess) status = engine.finish_point_to_point();
  if (status != ncclSuccess && !c.aborted.load()) c.set_failed(status);
  return status;
}

}  // namespace rccl_emu
