// The shared memory of one communicator: a header, one slot per rank (state, pid, device, a small
// mailbox for host-side exchanges) and, per ordered pair of ranks (from -> to), two channels: one
// for collectives and one for send/recv, so that the two kinds of traffic never queue behind each
// other. A channel is a single-producer/single-consumer ring of fixed-size slots.
//
// Joining: rank 0 creates the segment (O_EXCL, mode 0600) under the name derived from the unique
// id; every other rank opens it, checks the size and the id's secret, and claims its rank slot.
// The rank that completes the count unlinks the name, so nothing stays in /dev/shm even if a
// process dies later. Joining is split in two steps (begin/finish) so that one thread can join
// several ranks of the same communicator (ncclCommInitAll, ncclCommInitRank inside a group).
#pragma once

#include <rccl/rccl.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "unique_id.hpp"

namespace rccl_emu {

constexpr uint32_t kSlotsPerChannel = 8;
constexpr uint32_t kSlotBytes = 32 * 1024;

enum class Lane { collective = 0, point_to_point = 1 };

enum RankState : int32_t {
  kRankFree = 0,     // nobody claimed the rank yet
  kRankActive = 1,   // joined and usable
  kRankLeft = 2,     // ncclCommDestroy
  kRankAborted = 3,  // ncclCommAbort, or a failed operation
  kRankFailed = 4,   // gave up while joining
};

struct alignas(64) RankSlot {
  std::atomic<int32_t> state;
  std::atomic<int32_t> pid;
  int32_t device;
  // Host-side exchange (split, finalize): payload of generation `posted`; `taken` = the last
  // generation this rank finished reading from everyone.
  std::atomic<uint64_t> posted;
  std::atomic<uint64_t> taken;
  int64_t payload[4];
  // What this rank's engine waits for once it has moved nothing for a check period (engine.cpp's
  // deadlock check): `stuck_epoch` is 0 while it moves or is outside the engine, else the time it
  // published its waits (its row of Segment::waits) and the operation below; `stuck_passes` counts
  // the passes since, all of which moved nothing.
  std::atomic<uint64_t> stuck_epoch;
  std::atomic<uint64_t> stuck_passes;
  uint32_t stuck_kind;      // Kind of the first unfinished transfer
  int32_t stuck_root;       // its root, -1 if none
  uint64_t stuck_sequence;  // its collective number, 0 for send/recv
};

// Row entries of Segment::waits: what a stuck rank still needs from each peer.
constexpr uint8_t kWaitsToReceive = 1;
constexpr uint8_t kWaitsToSend = 2;

struct SlotHeader {
  uint64_t message_bytes;  // size of the whole message (checked against what the receiver expects)
  uint32_t chunk_bytes;    // bytes carried by this slot
  uint32_t tag;            // the sending operation's kind (checked too)
  int32_t type;            // ncclDataType_t of the sender (checked: more than NCCL does)
  int32_t reduction;       // the sender's reduction, encoded by engine.cpp; -1 = not a reduction
  int32_t root;            // the sender's root; -1 = not a rooted operation
  uint64_t sequence;       // the sender's collective number on this communicator; 0 for send/recv
};

struct Slot {
  SlotHeader header;
  char pad[64 - sizeof(SlotHeader)];
  char data[kSlotBytes];
};

struct Channel {
  alignas(64) std::atomic<uint64_t> head;  // slots published, written by the sender only
  alignas(64) std::atomic<uint64_t> tail;  // slots consumed, written by the receiver only
  alignas(64) Slot slots[kSlotsPerChannel];
};

struct SegmentHeader {
  std::atomic<uint64_t> magic;
  uint32_t layout_version;
  int32_t nranks;
  uint8_t secret[16];
  int32_t creator_pid;
  std::atomic<int32_t> joined;
  // The first rank that finds a deadlock (engine.cpp) claims it (-1 while it writes), writes its
  // description, then stores 1 + its rank: every stopped peer repeats the description.
  std::atomic<int32_t> deadlock_reporter;
  char deadlock_report[768];
};

class Segment {
 public:
  Segment(void* base, size_t bytes, int nranks) : base_(static_cast<char*>(base)), bytes_(bytes), nranks_(nranks) {}
  ~Segment();
  Segment(const Segment&) = delete;
  Segment& operator=(const Segment&) = delete;

  static size_t bytes_for(int nranks);
  int nranks() const { return nranks_; }
  SegmentHeader& header() { return *reinterpret_cast<SegmentHeader*>(base_); }
  RankSlot& rank(int r);
  Channel& channel(Lane lane, int from, int to);
  // Rank r's row of nranks wait flags (kWaitsTo*), meaningful while its stuck_epoch is non-zero.
  std::atomic<uint8_t>* waits(int r);

 private:
  char* base_;
  size_t bytes_;
  int nranks_;
};

struct JoinTicket {
  std::shared_ptr<Segment> segment;
  std::string name;
  int rank = -1;
  int nranks = 0;
  int64_t deadline_ns = 0;
};

// Creates (rank 0) or attaches to the segment of `id` and claims `rank`. Blocks only while rank 0
// has not created the segment yet.
ncclResult_t begin_join(const IdContent& id, int nranks, int rank, int device, JoinTicket* ticket);

// Waits until all ranks joined. `aborted` (may be null) ends the wait early.
ncclResult_t finish_join(JoinTicket& ticket, const std::atomic<bool>* aborted);

// Gives up a join: the rank is marked failed (peers stop waiting) and the name is unlinked.
void abandon_join(JoinTicket& ticket);

}  // namespace rccl_emu
