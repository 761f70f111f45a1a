#include "segment.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errors.hpp"
#include "shared_memory.hpp"
#include "waiting.hpp"

namespace rccl_emu {
namespace {

constexpr uint64_t kMagic = 0x31554d454c434352ULL;  // "RCCLEMU1"
constexpr uint32_t kLayoutVersion = 2;
constexpr size_t kHeaderBytes = 4096;
static_assert(sizeof(SegmentHeader) <= kHeaderBytes);

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }
size_t rank_area_bytes(int nranks) { return round_up(sizeof(RankSlot) * static_cast<size_t>(nranks), 4096); }
size_t waits_area_bytes(int nranks) { return round_up(static_cast<size_t>(nranks) * nranks, 4096); }

std::string errno_text() { return std::strerror(errno); }

void nap_ms(int ms) {
  timespec ts{0, ms * 1'000'000L};
  nanosleep(&ts, nullptr);
}

using emu_common::map_shared;

ncclResult_t create(const IdContent& id, const std::string& name, int nranks, JoinTicket* ticket) {
  size_t bytes = Segment::bytes_for(nranks);
  for (;;) {
    int fd = shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
      if (!emu_common::own_and_size(fd, bytes)) {
        std::string why = errno_text();
        close(fd);
        shm_unlink(name.c_str());
        return fail(ncclSystemError, "cannot size the communicator segment " + name + " to " +
                                         std::to_string(bytes) + " bytes: " + why);
      }
      void* base = map_shared(fd, bytes);
      close(fd);
      if (base == nullptr) {
        shm_unlink(name.c_str());
        return fail(ncclSystemError, "cannot map the communicator segment " + name + ": " + errno_text());
      }
      ticket->segment = std::make_shared<Segment>(base, bytes, nranks);
      SegmentHeader& h = ticket->segment->header();
      h.layout_version = kLayoutVersion;
      h.nranks = nranks;
      std::memcpy(h.secret, id.secret, sizeof h.secret);
      h.creator_pid = getpid();
      h.magic.store(kMagic, std::memory_order_release);
      return ncclSuccess;
    }
    if (errno != EEXIST) {
      return fail(ncclSystemError, "cannot create the communicator segment " + name + ": " + errno_text());
    }
    // The name exists: a leftover of a process that died while joining with this very id, or the
    // id is being used by a live communicator init. Remove the former, refuse the latter.
    int old = shm_open(name.c_str(), O_RDWR | O_CLOEXEC, 0);
    if (old < 0) continue;  // vanished meanwhile
    struct stat sb;
    int creator = 0;
    if (fstat(old, &sb) == 0 && static_cast<size_t>(sb.st_size) >= sizeof(SegmentHeader)) {
      if (void* p = map_shared(old, sizeof(SegmentHeader))) {
        creator = static_cast<SegmentHeader*>(p)->creator_pid;
        munmap(p, sizeof(SegmentHeader));
      }
    }
    close(old);
    if (creator != 0 && !process_is_gone(creator)) {
      return fail(ncclInvalidUsage, "this unique id is already being used by a communicator being created by pid " +
                                        std::to_string(creator) + "; call ncclGetUniqueId once per communicator");
    }
    shm_unlink(name.c_str());
  }
}

ncclResult_t attach(const IdContent& id, const std::string& name, int nranks, JoinTicket* ticket) {
  size_t bytes = Segment::bytes_for(nranks);
  for (;; nap_ms(1)) {
    if (monotonic_ns() > ticket->deadline_ns) {
      return fail(ncclSystemError, "rank " + std::to_string(ticket->rank) + " timed out after " +
                                       std::to_string(static_cast<int>(bootstrap_timeout_seconds())) +
                                       " s waiting for rank 0 to create the communicator (is rank 0 running "
                                       "ncclCommInitRank with the same unique id? ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT)");
    }
    int fd = shm_open(name.c_str(), O_RDWR | O_CLOEXEC, 0);
    if (fd < 0) continue;
    struct stat sb;
    if (fstat(fd, &sb) != 0 || static_cast<size_t>(sb.st_size) < sizeof(SegmentHeader)) {
      close(fd);
      continue;  // rank 0 has not sized it yet
    }
    size_t found = static_cast<size_t>(sb.st_size);
    void* base = map_shared(fd, found);
    close(fd);
    if (base == nullptr) continue;
    auto* h = static_cast<SegmentHeader*>(base);
    int64_t ready_deadline = monotonic_ns() + 1'000'000'000;
    while (h->magic.load(std::memory_order_acquire) != kMagic && monotonic_ns() < ready_deadline) nap_ms(1);
    if (h->magic.load(std::memory_order_acquire) != kMagic || process_is_gone(h->creator_pid)) {
      munmap(base, found);  // a leftover of a crashed run: rank 0 replaces it
      continue;
    }
    if (h->layout_version != kLayoutVersion || h->nranks != nranks || found != bytes) {
      int theirs = h->nranks;
      munmap(base, found);
      return fail(ncclInvalidUsage, "rank 0 created this communicator with nranks=" + std::to_string(theirs) +
                                        " but rank " + std::to_string(ticket->rank) + " passed nranks=" +
                                        std::to_string(nranks));
    }
    if (std::memcmp(h->secret, id.secret, sizeof id.secret) != 0) {
      munmap(base, found);
      return fail(ncclInvalidArgument, "the unique id's secret does not match the communicator found under " + name);
    }
    ticket->segment = std::make_shared<Segment>(base, found, nranks);
    return ncclSuccess;
  }
}

}  // namespace

Segment::~Segment() {
  munmap(base_, bytes_);
}

size_t Segment::bytes_for(int nranks) {
  return kHeaderBytes + rank_area_bytes(nranks) + waits_area_bytes(nranks) +
         sizeof(Channel) * 2 * static_cast<size_t>(nranks) * nranks;
}

RankSlot& Segment::rank(int r) {
  return reinterpret_cast<RankSlot*>(base_ + kHeaderBytes)[r];
}

Channel& Segment::channel(Lane lane, int from, int to) {
  auto* channels =
      reinterpret_cast<Channel*>(base_ + kHeaderBytes + rank_area_bytes(nranks_) + waits_area_bytes(nranks_));
  size_t pairs = static_cast<size_t>(nranks_) * nranks_;
  return channels[static_cast<size_t>(lane) * pairs + static_cast<size_t>(from) * nranks_ + to];
}

std::atomic<uint8_t>* Segment::waits(int r) {
  auto* rows = reinterpret_cast<std::atomic<uint8_t>*>(base_ + kHeaderBytes + rank_area_bytes(nranks_));
  return rows + static_cast<size_t>(r) * nranks_;
}

ncclResult_t begin_join(const IdContent& id, int nranks, int rank, int device, JoinTicket* ticket) {
  ticket->name = segment_name(id);
  ticket->rank = rank;
  ticket->nranks = nranks;
  ticket->deadline_ns = monotonic_ns() + static_cast<int64_t>(bootstrap_timeout_seconds() * 1e9);
  ncclResult_t status = rank == 0 ? create(id, ticket->name, nranks, ticket) : attach(id, ticket->name, nranks, ticket);
  if (status != ncclSuccess) return status;
  RankSlot& mine = ticket->segment->rank(rank);
  int32_t expected = kRankFree;
  if (!mine.state.compare_exchange_strong(expected, kRankActive)) {
    int holder = mine.pid.load();
    ticket->segment.reset();
    return fail(ncclInvalidUsage, "rank " + std::to_string(rank) + " joined this communicator twice (pid " +
                                      std::to_string(holder) + " holds it); every rank must be unique");
  }
  mine.device = device;
  mine.pid.store(getpid(), std::memory_order_release);
  // The rank completing the count knows everyone mapped the segment: the name can go.
  if (ticket->segment->header().joined.fetch_add(1, std::memory_order_acq_rel) + 1 == nranks) {
    shm_unlink(ticket->name.c_str());
  }
  return ncclSuccess;
}

ncclResult_t finish_join(JoinTicket& ticket, const std::atomic<bool>* aborted) {
  Segment& seg = *ticket.segment;
  Backoff backoff;
  while (seg.header().joined.load(std::memory_order_acquire) < ticket.nranks) {
    backoff.pause();
    if (!backoff.time_to_check()) continue;
    if (aborted != nullptr && aborted->load()) return fail(ncclInvalidUsage, "communicator aborted during init");
    for (int r = 0; r < ticket.nranks; ++r) {
      RankSlot& slot = seg.rank(r);
      int32_t state = slot.state.load(std::memory_order_acquire);
      int pid = slot.pid.load(std::memory_order_acquire);
      bool gone = state == kRankFailed || state == kRankAborted || (state == kRankActive && pid > 0 && process_is_gone(pid));
      if (gone && seg.header().joined.load(std::memory_order_acquire) < ticket.nranks) {
        return fail(ncclRemoteError, "rank " + std::to_string(r) + (state == kRankActive ? " (pid " + std::to_string(pid) + ") exited" : " gave up") +
                                         " while the communicator was being created");
      }
    }
    if (monotonic_ns() > ticket.deadline_ns) {
      std::string missing;
      for (int r = 0; r < ticket.nranks && missing.size() < 200; ++r) {
        if (seg.rank(r).state.load() == kRankFree) missing += (missing.empty() ? "" : ",") + std::to_string(r);
      }
      return fail(ncclSystemError, "rank " + std::to_string(ticket.rank) + " timed out after " +
                                       std::to_string(static_cast<int>(bootstrap_timeout_seconds())) +
                                       " s waiting for rank(s) " + missing +
                                       " to join the communicator (ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT)");
    }
  }
  return ncclSuccess;
}

void abandon_join(JoinTicket& ticket) {
  if (ticket.segment) {
    ticket.segment->rank(ticket.rank).state.store(kRankFailed, std::memory_order_release);
    ticket.segment.reset();
  }
  if (!ticket.name.empty()) shm_unlink(ticket.name.c_str());  // may already be gone
}

}  // namespace rccl_emu
