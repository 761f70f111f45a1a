#include "bootstrap.hpp"

#include <cstdint>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "heap_alloc.hpp"
#include "log.hpp"
#include "runtime.hpp"
#include "wait.hpp"

namespace rocshmem_emu {

namespace {

constexpr int64_t kPollNs = 1'000'000;  // 1 ms between polls for a segment that does not exist yet

void nap(int64_t ns) {
  timespec ts{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
  nanosleep(&ts, nullptr);
}

std::string errno_text(const std::string& what, const std::string& name) {
  return std::string(what) + " " + name + ": " + strerror(errno);
}

// Everything this PE created or mapped during a join attempt, released on failure.
struct JoinState {
  std::string control_name;
  bool created_control = false;
  std::string own_heap_name;
  ControlSegment* ctl = nullptr;
  size_t ctl_bytes = 0;
  std::vector<char*> heaps;
  size_t heap_size = 0;

  void unlink_everything_known() {
    if (!own_heap_name.empty()) shm_unlink(own_heap_name.c_str());
    if (ctl) {
      PeSlot* slots = pe_slots(ctl);
      for (int pe = 0; pe < ctl->n_pes; pe++)
        if (slots[pe].heap_name[0]) shm_unlink(slots[pe].heap_name);
    }
    if (ctl || created_control) shm_unlink(control_name.c_str());
  }
  void unmap() {
    for (char* h : heaps)
      if (h) munmap(h, heap_size);
    heaps.clear();
    if (ctl) munmap(ctl, ctl_bytes);
    ctl = nullptr;
  }
};

void* map_fd(int fd, size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  return p == MAP_FAILED ? nullptr : p;
}

// Heaps start on a kHeapBaseAlignment boundary, so an offset aligned to A <= that boundary is
// an address aligned to A on every PE (rocshmem_align returns the same offset everywhere).
// Reserve a larger window of address space, then map the object over its aligned part.
char* map_heap(int fd, size_t bytes) {
  const size_t align = kHeapBaseAlignment;
  void* window = mmap(nullptr, bytes + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (window == MAP_FAILED) return nullptr;
  uintptr_t start = reinterpret_cast<uintptr_t>(window);
  uintptr_t aligned = (start + align - 1) & ~(uintptr_t(align) - 1);
  void* p = mmap(reinterpret_cast<void*>(aligned), bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
  if (p == MAP_FAILED) {
    munmap(window, bytes + align);
    return nullptr;
  }
  if (aligned > start) munmap(window, aligned - start);
  size_t tail = (start + bytes + align) - (aligned + bytes);
  if (tail) munmap(reinterpret_cast<void*>(aligned + bytes), tail);
  return static_cast<char*>(p);
}

// Creates a new 0600 object of `bytes` bytes; fd or -1 with errno set.
int create_exclusive(const std::string& name, size_t bytes) {
  int fd = shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return -1;
  // The umask may have cleared bits but never adds any; fchmod pins the mode regardless.
  if (fchmod(fd, 0600) != 0 || ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    int saved = errno;
    close(fd);
    shm_unlink(name.c_str());
    errno = saved;
    return -1;
  }
  return fd;
}

bool create_control(const JoinRequest& req, JoinState& st, int64_t deadline, std::string* error) {
  Runtime& rt = runtime();
  st.ctl_bytes = control_segment_bytes(req.n_pes);
  for (;;) {
    int fd = create_exclusive(req.control_name, st.ctl_bytes);
    if (fd >= 0) {
      st.created_control = true;
      st.ctl = static_cast<ControlSegment*>(map_fd(fd, st.ctl_bytes));
      close(fd);
      if (!st.ctl) {
        *error = errno_text("cannot map control segment", req.control_name);
        return false;
      }
      ControlSegment* c = st.ctl;
      c->layout_version = kControlLayoutVersion;
      c->n_pes = req.n_pes;
      c->heap_size = rt.cfg.heap_size;
      memcpy(c->secret, req.secret, sizeof c->secret);
      c->creator_pid = getpid();
      c->teams[0].start = 0;  // slot 0 = every PE (TEAM_WORLD and TEAM_SHARED)
      c->teams[0].stride = 1;
      c->teams[0].size = req.n_pes;
      c->teams[0].ready.store(1, std::memory_order_relaxed);
      c->magic.store(kControlMagic, std::memory_order_release);
      return true;
    }
    if (errno != EEXIST) {
      *error = errno_text("cannot create control segment", req.control_name);
      return false;
    }
    // A segment with our name exists: a crashed earlier run with the same job key leaves one
    // only if it died inside init. Remove it when its creator is gone; otherwise refuse.
    int old = shm_open(req.control_name.c_str(), O_RDWR | O_CLOEXEC, 0);
    if (old >= 0) {
      struct stat sb;
      int creator = 0;
      ControlSegment* c = nullptr;
      size_t bytes = 0;
      if (fstat(old, &sb) == 0 && static_cast<size_t>(sb.st_size) >= sizeof(ControlSegment)) {
        bytes = static_cast<size_t>(sb.st_size);
        c = static_cast<ControlSegment*>(map_fd(old, bytes));
        if (c) creator = c->creator_pid;
      }
      close(old);
      if (creator == 0 || process_is_gone(creator)) {
        // Leftover of a job killed inside init: drop it and the heaps it lists.
        debug_log(1, "removing stale control segment %s (creator pid %d is gone)", req.control_name.c_str(), creator);
        if (c && c->magic.load() == kControlMagic && control_segment_bytes(c->n_pes) <= bytes) {
          for (int pe = 0; pe < c->n_pes; pe++) {
            PeSlot& slot = pe_slots(c)[pe];
            if (slot.heap_name[0] && memchr(slot.heap_name, 0, sizeof slot.heap_name)) shm_unlink(slot.heap_name);
          }
        }
        if (c) munmap(c, bytes);
        shm_unlink(req.control_name.c_str());
        continue;
      }
      if (c) munmap(c, bytes);
      if (monotonic_ns() > deadline) {
        *error = "control segment " + req.control_name + " is held by a running process (pid " +
                 std::to_string(creator) + "): another job uses the same ROCSHMEM_EMU_JOB_ID / job key";
        return false;
      }
    }
    nap(kPollNs * 10);
  }
}

bool attach_control(const JoinRequest& req, JoinState& st, int64_t deadline, std::string* error) {
  Runtime& rt = runtime();
  st.ctl_bytes = control_segment_bytes(req.n_pes);
  for (;; nap(kPollNs)) {
    if (monotonic_ns() > deadline) {
      *error = "timed out after " + std::to_string(rt.cfg.bootstrap_timeout_s) +
               " s waiting for PE 0 to create the job (is PE 0 running with the same job id? "
               "raise ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT if it starts slowly)";
      return false;
    }
    int fd = shm_open(req.control_name.c_str(), O_RDWR | O_CLOEXEC, 0);
    if (fd < 0) continue;
    struct stat sb;
    if (fstat(fd, &sb) != 0 || static_cast<size_t>(sb.st_size) < sizeof(ControlSegment)) {
      close(fd);
      continue;  // creator has not sized it yet
    }
    size_t bytes = static_cast<size_t>(sb.st_size);
    auto* c = static_cast<ControlSegment*>(map_fd(fd, bytes));
    close(fd);
    if (!c) continue;
    int64_t magic_deadline = monotonic_ns() + 1'000'000'000;
    while (c->magic.load(std::memory_order_acquire) != kControlMagic && monotonic_ns() < magic_deadline) nap(kPollNs);
    bool ready = c->magic.load(std::memory_order_acquire) == kControlMagic;
    if (!ready || process_is_gone(c->creator_pid)) {
      munmap(c, bytes);  // stale leftover of a crashed run; PE 0 will replace it
      continue;
    }
    if (c->layout_version != kControlLayoutVersion || c->n_pes != req.n_pes || bytes != st.ctl_bytes) {
      *error = "job mismatch: PE 0 started the job with " + std::to_string(c->n_pes) +
               " PEs, this PE expects " + std::to_string(req.n_pes) + " (check WORLD_SIZE / nranks)";
      munmap(c, bytes);
      return false;
    }
    if (memcmp(c->secret, req.secret, sizeof c->secret) != 0) {
      *error = "unique id secret does not match the job found under " + req.control_name;
      munmap(c, bytes);
      return false;
    }
    if (c->heap_size != rt.cfg.heap_size) {
      *error = "ROCSHMEM_HEAP_SIZE differs between PEs (PE 0: " + std::to_string(c->heap_size) +
               " bytes, this PE: " + std::to_string(rt.cfg.heap_size) + " bytes); it must be the same everywhere";
      munmap(c, bytes);
      return false;
    }
    st.ctl = c;
    return true;
  }
}

// Waits (bounded) until counter reaches n; watches the PEs that already announced themselves.
bool wait_count(std::atomic<int32_t>& counter, int n, const char* what, JoinState& st, int64_t deadline,
                std::string* error) {
  PeSlot* slots = pe_slots(st.ctl);
  Backoff backoff;
  while (counter.load(std::memory_order_acquire) < n) {
    backoff.pause();
    if (!backoff.time_to_check()) continue;
    for (int pe = 0; pe < n; pe++) {
      int pid = slots[pe].pid.load(std::memory_order_acquire);
      if (pid > 0 && process_is_gone(pid)) {
        *error = "peer PE " + std::to_string(pe) + " (pid " + std::to_string(pid) + ") died during init";
        return false;
      }
    }
    if (monotonic_ns() > deadline) {
      std::string missing;
      for (int pe = 0; pe < n && missing.size() < 200; pe++)
        if (slots[pe].pid.load() == 0) missing += (missing.empty() ? "" : ",") + std::to_string(pe);
      *error = "timed out after " + std::to_string(runtime().cfg.bootstrap_timeout_s) + " s waiting for " +
               std::to_string(n - counter.load()) + " PE(s) " + what +
               (missing.empty() ? std::string() : " (never seen: PE " + missing + ")") +
               "; raise ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT if PEs start slowly";
      return false;
    }
  }
  return true;
}

bool join(const JoinRequest& req, JoinState& st, std::string* error) {
  Runtime& rt = runtime();
  int64_t deadline = monotonic_ns() + static_cast<int64_t>(rt.cfg.bootstrap_timeout_s * 1e9);
  st.control_name = req.control_name;
  st.heap_size = rt.cfg.heap_size;
  if (req.rank == 0 ? !create_control(req, st, deadline, error) : !attach_control(req, st, deadline, error))
    return false;

  PeSlot* slots = pe_slots(st.ctl);
  PeSlot& mine = slots[req.rank];
  int32_t expected = 0;
  if (!mine.pid.compare_exchange_strong(expected, getpid())) {
    *error = "rank " + std::to_string(req.rank) + " joined twice (pid " + std::to_string(expected) +
             " already holds it): check RANK / rank arguments";
    return false;
  }

  // Own heap under a random name.
  uint8_t rnd[16];
  if (!random_bytes(rnd, sizeof rnd)) {
    *error = "getrandom failed";
    return false;
  }
  std::string heap_name = "/rocshmem-emu-h-" + hex(rnd, sizeof rnd);
  int fd = create_exclusive(heap_name, st.heap_size);
  if (fd < 0) {
    *error = errno_text("cannot create symmetric heap", heap_name);
    return false;
  }
  st.own_heap_name = heap_name;
  st.heaps.assign(req.n_pes, nullptr);
  st.heaps[req.rank] = map_heap(fd, st.heap_size);
  close(fd);
  if (!st.heaps[req.rank]) {
    *error = errno_text("cannot map symmetric heap", heap_name);
    return false;
  }
  snprintf(mine.heap_name, sizeof mine.heap_name, "%s", heap_name.c_str());
  mine.heap_size = st.heap_size;
  mine.state.store(kPeJoined, std::memory_order_release);
  st.ctl->joined.fetch_add(1, std::memory_order_acq_rel);

  if (!wait_count(st.ctl->joined, req.n_pes, "to join", st, deadline, error)) return false;

  for (int pe = 0; pe < req.n_pes; pe++) {
    if (pe == req.rank) continue;
    int pfd = shm_open(slots[pe].heap_name, O_RDWR | O_CLOEXEC, 0);
    if (pfd < 0) {
      *error = errno_text("cannot open heap of PE " + std::to_string(pe), slots[pe].heap_name);
      return false;
    }
    st.heaps[pe] = map_heap(pfd, st.heap_size);
    close(pfd);
    if (!st.heaps[pe]) {
      *error = errno_text("cannot map heap of PE " + std::to_string(pe), slots[pe].heap_name);
      return false;
    }
  }
  // The PE that completes the count knows every PE holds every mapping: drop all names now.
  if (st.ctl->mapped.fetch_add(1, std::memory_order_acq_rel) + 1 == req.n_pes) {
    for (int pe = 0; pe < req.n_pes; pe++) shm_unlink(slots[pe].heap_name);
    shm_unlink(req.control_name.c_str());
  }
  if (!wait_count(st.ctl->mapped, req.n_pes, "to map the heaps", st, deadline, error)) return false;
  shm_unlink(heap_name.c_str());  // normally already gone; harmless
  return true;
}

}  // namespace

bool random_bytes(void* buf, size_t n) {
  auto* p = static_cast<uint8_t*>(buf);
  while (n > 0) {
    ssize_t got = getrandom(p, n, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += got;
    n -= static_cast<size_t>(got);
  }
  return true;
}

std::string hex(const uint8_t* bytes, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; i++) {
    s += digits[bytes[i] >> 4];
    s += digits[bytes[i] & 15];
  }
  return s;
}

bool bootstrap_join(const JoinRequest& request, std::string* error) {
  Runtime& rt = runtime();
  JoinState st;
  if (!join(request, st, error)) {
    st.unlink_everything_known();
    if (st.ctl) pe_slots(st.ctl)[request.rank].state.store(kPeExited, std::memory_order_release);
    st.unmap();
    return false;
  }
  rt.ctl = st.ctl;
  rt.ctl_bytes = st.ctl_bytes;
  rt.pes = pe_slots(st.ctl);
  rt.n_pes = request.n_pes;
  rt.my_pe = request.rank;
  rt.heap_size = st.heap_size;
  rt.peer_base = st.heaps;
  rt.heap_base = st.heaps[request.rank];
  rt.pes[request.rank].state.store(kPeRunning, std::memory_order_release);
  return true;
}

void bootstrap_unmap_all() {
  Runtime& rt = runtime();
  for (char* h : rt.peer_base)
    if (h) munmap(h, rt.heap_size);
  rt.peer_base.clear();
  rt.heap_base = nullptr;
  if (rt.ctl) munmap(rt.ctl, rt.ctl_bytes);
  rt.ctl = nullptr;
  rt.pes = nullptr;
}

}  // namespace rocshmem_emu
