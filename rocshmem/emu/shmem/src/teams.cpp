#include "teams.hpp"

#include <atomic>
#include <mutex>
#include <unistd.h>
#include <unordered_set>

#include "control.hpp"
#include "log.hpp"
#include "runtime.hpp"
#include "stats.hpp"

namespace rocshmem_emu {

namespace {
std::mutex g_teams_mutex;
std::unordered_set<Team*> g_live_teams;  // every handle this PE gave out and did not destroy
Team* g_world = nullptr;
Team* g_shared = nullptr;

// Cross-process lock around the slot table (held for microseconds; waits check liveness).
class SlotTableLock {
 public:
  SlotTableLock() {
    std::atomic<int32_t>& word = runtime().ctl->team_lock;
    const int32_t me = getpid();
    wait_for(
        [&] {
          int32_t expected = 0;
          return word.compare_exchange_weak(expected, me, std::memory_order_acquire);
        },
        "team creation (slot table lock)", all_pes(), PeerPolicy::point_to_point);
  }
  ~SlotTableLock() { runtime().ctl->team_lock.store(0, std::memory_order_release); }
};
}  // namespace

int index_in(PeSet m, int pe) {
  int delta = pe - m.start;
  if (m.size <= 0) return -1;
  if (m.stride == 0) return delta == 0 ? 0 : -1;
  if (delta % m.stride != 0) return -1;
  int i = delta / m.stride;
  return (i >= 0 && i < m.size) ? i : -1;
}

TeamSlot* slot_for(PeSet m) {
  ControlSegment* ctl = runtime().ctl;
  if (m.size == 1) m.stride = 1;  // normalise so equal memberships share one slot
  auto matches = [&](TeamSlot& s) {
    return s.ready.load(std::memory_order_acquire) && s.start == m.start && s.stride == m.stride && s.size == m.size;
  };
  for (TeamSlot& s : ctl->teams)
    if (matches(s)) return &s;
  SlotTableLock lock;
  for (TeamSlot& s : ctl->teams)
    if (matches(s)) return &s;
  for (TeamSlot& s : ctl->teams) {
    if (s.ready.load(std::memory_order_relaxed)) continue;
    s.start = m.start;
    s.stride = m.stride;
    s.size = m.size;
    s.barrier.arrived.store(0, std::memory_order_relaxed);
    s.barrier.generation.store(0, std::memory_order_relaxed);
    s.ready.store(1, std::memory_order_release);
    return &s;
  }
  return nullptr;
}

void slot_barrier(TeamSlot* slot, PeSet members, const char* op) {
  std::atomic_thread_fence(std::memory_order_seq_cst);  // quiet: earlier puts become visible
  BarrierState& b = slot->barrier;
  uint32_t gen = b.generation.load(std::memory_order_acquire);
  if (b.arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == static_cast<uint32_t>(members.size)) {
    b.arrived.store(0, std::memory_order_relaxed);
    b.generation.store(gen + 1, std::memory_order_release);
  } else {
    wait_for([&] { return b.generation.load(std::memory_order_acquire) != gen; }, op, members);
  }
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

Team* team_create(PeSet members, int num_contexts) {
  Runtime& rt = runtime();
  int me = index_in(members, rt.my_pe);
  if (me < 0) return nullptr;
  TeamSlot* slot = slot_for(members);
  if (!slot) {
    report_error("team table full (%d distinct team memberships); destroy-and-recreate reuses slots", kMaxTeamSlots);
    return nullptr;
  }
  Team* t = new Team{kTeamMagic, members, me, slot, num_contexts, false};
  std::lock_guard<std::mutex> lock(g_teams_mutex);
  g_live_teams.insert(t);
  return t;
}

void team_destroy(Team* t) {
  std::lock_guard<std::mutex> lock(g_teams_mutex);
  if (!g_live_teams.erase(t)) return;
  t->magic = 0;
  delete t;
}

void teams_init() {
  Runtime& rt = runtime();
  PeSet all{0, 1, rt.n_pes};
  g_world = team_create(all, 0);
  g_shared = team_create(all, 0);  // every PE shares this node
  g_world->predefined = g_shared->predefined = true;
}

void teams_finalize() {
  std::lock_guard<std::mutex> lock(g_teams_mutex);
  for (Team* t : g_live_teams) {
    t->magic = 0;
    delete t;
  }
  g_live_teams.clear();
  g_world = g_shared = nullptr;
}

Team* world_team() { return g_world; }
Team* shared_team() { return g_shared; }

Team* team_lookup(const void* handle) {
  if (!handle) return nullptr;
  std::lock_guard<std::mutex> lock(g_teams_mutex);
  auto it = g_live_teams.find(static_cast<Team*>(const_cast<void*>(handle)));
  return it == g_live_teams.end() ? nullptr : *it;
}

Team* team_from_handle(const void* handle, const char* fn) {
  if (!require_initialized(fn)) return nullptr;
  Team* t = team_lookup(handle);
  if (!t) {
    if (!handle)
      report_error("%s: team is ROCSHMEM_TEAM_INVALID; nothing done", fn);
    else
      report_error("%s: %p is not a live team handle of this PE; nothing done", fn, handle);
  }
  return t;
}

}  // namespace rocshmem_emu
