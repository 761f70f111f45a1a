#include "bootstrap.hpp"

#include <cstdint>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "heap_alloc.hpp"
#include "log.hpp"
#include "runtime.hpp"
#include "shared_memory.hpp"
#include "shm_objects.hpp"
#include "wait.hpp"

namespace rocshmem_emu {

namespace {

constexpr int64_t kPollNs = 5'000'000;  // 5 ms between scans for the control segment

void nap(int64_t ns) {
  timespec ts{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
  nanosleep(&ts, nullptr);
}

std::string in_dir(const std::string& name) { return object_dir() + "/" + name; }

std::string errno_text(const std::string& what, const std::string& name) {
  return what + " " + in_dir(name) + ": " + strerror(errno);
}

std::string seconds_text(double s) {
  char buf[32];
  snprintf(buf, sizeof buf, "%g s", s);
  return buf;
}

std::string bytes_text(unsigned long long bytes) {
  static const char* const kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    unit++;
  }
  char buf[48];
  if (unit == 0)
    snprintf(buf, sizeof buf, "%llu bytes", bytes);
  else
    snprintf(buf, sizeof buf, "%.1f %s", value, kUnits[unit]);
  return buf;
}

std::string capacity_hint() {
  return "; lower ROCSHMEM_HEAP_SIZE, give the machine or container more shared memory (Docker: "
         "--shm-size), or point ROCSHMEM_EMU_SHM_DIR at a larger tmpfs";
}

// Everything this PE created or mapped during a join attempt, released on failure.
struct JoinState {
  std::string control_name;  // once created or found
  std::string own_heap_name;
  ControlSegment* ctl = nullptr;
  size_t ctl_bytes = 0;
  std::vector<char*> heaps;
  size_t heap_size = 0;

  void unlink_everything_known() {
    if (!own_heap_name.empty()) unlink_object(own_heap_name);
    if (ctl) {
      PeSlot* slots = pe_slots(ctl);
      for (int pe = 0; pe < ctl->n_pes; pe++)
        if (slots[pe].heap_name[0] && memchr(slots[pe].heap_name, 0, sizeof slots[pe].heap_name))
          unlink_object(slots[pe].heap_name);
    }
    if (!control_name.empty()) unlink_object(control_name);
  }
  void unmap() {
    for (char* h : heaps)
      if (h) munmap(h, heap_size);
    heaps.clear();
    if (ctl) munmap(ctl, ctl_bytes);
    ctl = nullptr;
  }
};

using emu_common::map_shared;

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

// ROCSHMEM_EMU_TEST_FAULT: misbehave at this phase if asked to (tests of death during init).
bool survive_fault_injection(const char* phase, const JoinRequest& req, std::string* error) {
  const InitFault& f = runtime().cfg.fault;
  if (f.rank != req.rank || f.phase != phase) return true;
  fflush(stdout);
  if (f.action == "kill") raise(SIGKILL);
  if (f.action == "exit") _exit(3);
  if (f.action == "term") raise(SIGTERM);  // returns in a JVM, whose handler starts System.exit
  if (f.action == "fail") {
    *error = std::string("injected failure at init phase '") + phase + "' (ROCSHMEM_EMU_TEST_FAULT)";
    return false;
  }
  return true;
}

// The job's heaps grow as they are touched: they must all fit, or a store into a page that
// the tmpfs cannot provide ends the process with SIGBUS. With ROCSHMEM_EMU_HEAP_RESERVE=1 each
// PE allocates its heap at init instead (exact, but the memory is taken at once).
bool check_capacity(const JoinRequest& req, size_t ctl_bytes, std::string* error) {
  const Runtime& rt = runtime();
  unsigned long long avail = 0;
  if (rt.cfg.reserve_heap || !free_bytes(&avail)) return true;
  const unsigned long long need = static_cast<unsigned long long>(rt.cfg.heap_size) * req.n_pes + ctl_bytes;
  if (avail >= need) return true;
  *error = "the symmetric heaps do not fit in " + object_dir() + ": " + std::to_string(req.n_pes) +
           " PE(s) x ROCSHMEM_HEAP_SIZE=" + std::to_string(rt.cfg.heap_size) + " (" + bytes_text(rt.cfg.heap_size) +
           ") need " + bytes_text(need) + ", but only " + bytes_text(avail) + " are free there" + capacity_hint();
  return false;
}

bool reserve_heap(int fd, size_t bytes, std::string* error) {
  int rc = posix_fallocate(fd, 0, static_cast<off_t>(bytes));
  if (rc == 0) return true;
  unsigned long long avail = 0;
  std::string free_text = free_bytes(&avail) ? bytes_text(avail) + " free" : "free space unknown";
  *error = "cannot reserve this PE's heap (ROCSHMEM_HEAP_SIZE=" + std::to_string(bytes) + ", " + bytes_text(bytes) +
           ") in " + object_dir() + " (" + free_text + "): " + strerror(rc) + capacity_hint();
  return false;
}

bool create_control(const JoinRequest& req, JoinState& st, std::string* error) {
  Runtime& rt = runtime();
  const std::string prefix = req.job_key + ".";
  // The other PEs find the control segment by its key: a running job of ours with the same key
  // would make the job ambiguous, so refuse instead of guessing. (Another user's object is no
  // clash: the other PEs never use it.)
  for (const ObjectName& o : list_objects()) {
    struct stat sb;
    if (o.role == 'c' && o.pidns == own_pid_namespace() && o.token.compare(0, prefix.size(), prefix) == 0 &&
        !process_is_gone(o.pid) && lstat(in_dir(o.name).c_str(), &sb) == 0 && sb.st_uid == geteuid()) {
      *error = "another job with the same " + req.job_source + " is starting (control segment " + in_dir(o.name) +
               " of pid " + std::to_string(o.pid) + "); every job needs its own job id";
      return false;
    }
  }
  uint8_t rnd[8];
  if (!random_bytes(rnd, sizeof rnd)) return *error = "getrandom failed", false;
  const std::string name = new_object_name('c', prefix + hex(rnd, sizeof rnd));
  int fd = create_object(name, st.ctl_bytes);
  if (fd < 0) {
    *error = errno_text("cannot create the control segment", name);
    return false;
  }
  st.control_name = name;
  st.ctl = static_cast<ControlSegment*>(map_shared(fd, st.ctl_bytes));
  close(fd);
  if (!st.ctl) {
    *error = errno_text("cannot map the control segment", name);
    return false;
  }
  ControlSegment* c = st.ctl;
  c->layout_version = kControlLayoutVersion;
  c->n_pes = req.n_pes;
  c->heap_size = rt.cfg.heap_size;
  memcpy(c->secret, req.secret, sizeof c->secret);
  c->creator_pid = getpid();
  c->delivery_seed = rt.cfg.delivery_seed;
  if (!rt.cfg.delivery_seed_set && !random_bytes(&c->delivery_seed, sizeof c->delivery_seed))
    c->delivery_seed = static_cast<uint64_t>(monotonic_ns()) ^ (uint64_t(getpid()) << 32);
  c->teams[0].start = 0;  // slot 0 = every PE (TEAM_WORLD and TEAM_SHARED)
  c->teams[0].stride = 1;
  c->teams[0].size = req.n_pes;
  c->teams[0].team_id = 1;  // ROCSHMEM_TEAM_WORLD (teams.cpp)
  c->teams[0].pinned = 1;
  c->teams[0].ready.store(1, std::memory_order_relaxed);
  c->magic.store(kControlMagic, std::memory_order_release);
  return true;
}

// One candidate control segment found by its key: mapped and checked, or skipped with a reason.
enum class Candidate { usable, skip, fatal };

Candidate try_candidate(const JoinRequest& req, const ObjectName& o, JoinState& st, ControlSegment** mapped,
                        std::string* why) {
  Runtime& rt = runtime();
  int fd = open_object(o.name);
  if (fd < 0) {
    *why = in_dir(o.name) + " cannot be opened (" + (errno == EPERM ? "it belongs to another user" : strerror(errno)) + ")";
    return Candidate::skip;
  }
  struct stat sb;
  if (fstat(fd, &sb) != 0 || static_cast<size_t>(sb.st_size) < sizeof(ControlSegment)) {
    close(fd);
    return Candidate::skip;  // its creator has not sized it yet
  }
  const size_t bytes = static_cast<size_t>(sb.st_size);
  auto* c = static_cast<ControlSegment*>(map_shared(fd, bytes));
  close(fd);
  if (!c) return Candidate::skip;
  const int64_t magic_deadline = monotonic_ns() + 1'000'000'000;
  while (c->magic.load(std::memory_order_acquire) != kControlMagic && monotonic_ns() < magic_deadline) nap(1'000'000);
  Candidate verdict = Candidate::usable;
  if (c->magic.load(std::memory_order_acquire) != kControlMagic || c->creator_pid != o.pid) {
    *why = in_dir(o.name) + " is not a control segment made by pid " + std::to_string(o.pid);
    verdict = Candidate::skip;
  } else if (c->layout_version != kControlLayoutVersion || c->n_pes != req.n_pes || bytes != st.ctl_bytes) {
    *why = "job mismatch: PE 0 started the job with " + std::to_string(c->n_pes) + " PEs, this PE expects " +
           std::to_string(req.n_pes) + " (check WORLD_SIZE / nranks)";
    verdict = Candidate::fatal;
  } else if (memcmp(c->secret, req.secret, sizeof c->secret) != 0) {
    *why = "unique id secret does not match the job found under " + in_dir(o.name);
    verdict = Candidate::fatal;
  } else if (c->heap_size != rt.cfg.heap_size) {
    *why = "ROCSHMEM_HEAP_SIZE differs between PEs (PE 0: " + std::to_string(c->heap_size) +
           " bytes, this PE: " + std::to_string(rt.cfg.heap_size) + " bytes); it must be the same everywhere";
    verdict = Candidate::fatal;
  }
  if (verdict == Candidate::usable)
    *mapped = c;
  else
    munmap(c, bytes);
  return verdict;
}

bool attach_control(const JoinRequest& req, JoinState& st, int64_t deadline, std::string* error) {
  const std::string prefix = req.job_key + ".";
  std::string unusable;  // the last reason a candidate was skipped, for the timeout message
  for (;; nap(kPollNs)) {
    if (monotonic_ns() > deadline) {
      *error = "timed out after " + seconds_text(runtime().cfg.bootstrap_timeout_s) +
               " waiting for PE 0 to create the job (" + req.job_source + "; is PE 0 running with the same job id?" +
               " raise ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT if it starts slowly)" +
               (unusable.empty() ? std::string() : "; found but could not use: " + unusable);
      return false;
    }
    for (const ObjectName& o : list_objects()) {
      if (o.role != 'c' || o.pidns != own_pid_namespace() || o.token.compare(0, prefix.size(), prefix) != 0) continue;
      if (process_is_gone(o.pid)) continue;  // left by a dead job; init sweeps such names
      ControlSegment* c = nullptr;
      std::string why;
      Candidate verdict = try_candidate(req, o, st, &c, &why);
      if (verdict == Candidate::fatal) return *error = why, false;
      if (verdict == Candidate::skip) {
        if (!why.empty()) unusable = why;
        continue;
      }
      if (st.ctl) {  // a second live job with our key
        munmap(c, st.ctl_bytes);
        *error = "two running jobs use the same " + req.job_source + " (control segments " + in_dir(st.control_name) +
                 " and " + in_dir(o.name) + "); every job needs its own job id";
        return false;
      }
      st.ctl = c;
      st.control_name = o.name;
    }
    if (st.ctl) return true;
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
      *error = "timed out after " + seconds_text(runtime().cfg.bootstrap_timeout_s) + " waiting for " +
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
  st.heap_size = rt.cfg.heap_size;
  st.ctl_bytes = control_segment_bytes(req.n_pes);
  if (!survive_fault_injection("start", req, error)) return false;
  sweep_dead_creators();
  if (!check_capacity(req, st.ctl_bytes, error)) return false;
  if (req.rank == 0 ? !create_control(req, st, error) : !attach_control(req, st, deadline, error)) return false;
  if (!survive_fault_injection("control", req, error)) return false;

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
  const std::string heap_name = new_object_name('h', hex(rnd, sizeof rnd));
  int fd = create_object(heap_name, st.heap_size);
  if (fd < 0) {
    *error = errno_text("cannot create the symmetric heap", heap_name);
    return false;
  }
  st.own_heap_name = heap_name;
  if (rt.cfg.reserve_heap && !reserve_heap(fd, st.heap_size, error)) {
    close(fd);
    return false;
  }
  st.heaps.assign(req.n_pes, nullptr);
  st.heaps[req.rank] = map_heap(fd, st.heap_size);
  close(fd);
  if (!st.heaps[req.rank]) {
    *error = errno_text("cannot map the symmetric heap", heap_name);
    return false;
  }
  if (!survive_fault_injection("heap", req, error)) return false;
  snprintf(mine.heap_name, sizeof mine.heap_name, "%s", heap_name.c_str());
  mine.heap_size = st.heap_size;
  mine.state.store(kPeJoined, std::memory_order_release);
  st.ctl->joined.fetch_add(1, std::memory_order_acq_rel);
  if (!survive_fault_injection("joined", req, error)) return false;

  if (!wait_count(st.ctl->joined, req.n_pes, "to join", st, deadline, error)) return false;

  for (int pe = 0; pe < req.n_pes; pe++) {
    if (pe == req.rank) continue;
    int pfd = open_object(slots[pe].heap_name);
    if (pfd < 0) {
      *error = errno_text("cannot open the heap of PE " + std::to_string(pe), slots[pe].heap_name);
      return false;
    }
    st.heaps[pe] = map_heap(pfd, st.heap_size);
    close(pfd);
    if (!st.heaps[pe]) {
      *error = errno_text("cannot map the heap of PE " + std::to_string(pe), slots[pe].heap_name);
      return false;
    }
  }
  if (!survive_fault_injection("mapped", req, error)) return false;
  // The PE that completes the count knows every PE holds every mapping: drop all names now.
  if (st.ctl->mapped.fetch_add(1, std::memory_order_acq_rel) + 1 == req.n_pes) {
    for (int pe = 0; pe < req.n_pes; pe++) unlink_object(slots[pe].heap_name);
    unlink_object(st.control_name);
  }
  if (!wait_count(st.ctl->mapped, req.n_pes, "to map the heaps", st, deadline, error)) return false;
  unlink_object(heap_name);  // normally already gone; harmless
  return true;
}

}  // namespace

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
  set_object_dir(rt.cfg.shm_dir);
  JoinState st;
  if (!join(request, st, error)) {
    st.unlink_everything_known();
    if (st.ctl) pe_slots(st.ctl)[request.rank].state.store(kPeExited, std::memory_order_release);
    st.unmap();
    sweep_dead_creators();  // a peer that died between creating its heap and publishing the name
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
