#include "teams.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <unistd.h>

#include "completion.hpp"
#include "rocshmem_emu_workitem.h"
#include "control.hpp"
#include "log.hpp"
#include "runtime.hpp"
#include "stats.hpp"

namespace rocshmem_emu {

namespace {
// Handles point into this pool and stay dereferenceable forever, so a stale or forged handle
// that happens to point here is recognised by its magic instead of crashing the process.
Team g_pool[kMaxLiveTeams];
std::mutex g_pool_mutex;  // creation and destruction only; lookups never take it
int g_next_free = 0;      // round-robin, so a destroyed handle is not handed out again at once
Team* g_world = nullptr;
Team* g_shared = nullptr;

// This PE's count of collectives per team slot: the "#n" of the matching messages.
std::atomic<uint32_t> g_slot_seq[kMaxTeamSlots];

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

int slot_index(const TeamSlot* slot) { return static_cast<int>(slot - runtime().ctl->teams); }

std::string describe_call(const char* name, uint32_t seq, const uint64_t* args, const char* const* labels) {
  std::string text = std::string(name) + " (#" + std::to_string(seq);
  for (int i = 0; i < 2; i++)
    if (labels[i]) text += std::string(", ") + labels[i] + " " + std::to_string(static_cast<int64_t>(args[i]));
  return text + ")";
}

std::string member_list(PeSet m) {
  std::string text = "{";
  for (int i = 0; i < m.size && i < 8; i++) text += (i ? "," : "") + std::to_string(m.world_pe(i));
  return text + (m.size > 8 ? ",... (" + std::to_string(m.size) + " PEs)}" : "}");
}

std::string describe_team(PeSet m) {
  const Runtime& rt = runtime();
  if (m.start == 0 && m.stride == 1 && m.size == rt.n_pes) return "";
  return " on the team of world PEs " + member_list(m);
}

uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

// This PE's name for a team identity: its own team with that id (every PE a collective waits
// for is a member, so it knows the team), else the raw id.
std::string team_name(uint64_t id, const char* fallback_label = nullptr) {
  if (fallback_label && *fallback_label) return fallback_label;
  for (const Team& t : g_pool)
    if (t.magic.load(std::memory_order_acquire) == kTeamMagic && t.id == id) return t.label;
  char text[40];
  snprintf(text, sizeof text, "team id %016llx", static_cast<unsigned long long>(id));
  return text;
}

// A free or finalize facing something else usually means that a PE is leaving early.
std::string leaving_early_hint(const char* mine, const char* other) {
  for (const char* name : {mine, other})
    if (strcmp(name, "rocshmem_free") == 0 || strcmp(name, "rocshmem_finalize") == 0)
      return " (a PE that frees or finalizes while the others are elsewhere is usually leaving early: an exception"
             " out of a try-with-resources block, an early return)";
  return "";
}

const char* const kNoArgLabels[2] = {nullptr, nullptr};

// NUL-terminated copy, truncated to the field. On the barrier's fast path: snprintf's format
// parsing cost more than the rest of an uncontended barrier.
template <size_t N>
void copy_name(char (&field)[N], const char* name) {
  size_t i = 0;
  for (; i + 1 < N && name[i] != '\0'; i++) field[i] = name[i];
  field[i] = '\0';
}

// Collective matching. The first PE of a barrier generation claims the slot's tag and publishes
// what it entered; every other PE compares before it arrives, so a PE that entered something
// else never arrives and nobody returns from the barrier. Cost: one CAS on a shared line.
void match_collective(TeamSlot* slot, PeSet members, uint32_t gen, const Collective& call) {
  const Runtime& rt = runtime();
  CollectiveTag& tag = slot->tag;
  uint32_t owner = 0;
  if (tag.owner.compare_exchange_strong(owner, uint32_t(rt.my_pe) + 1, std::memory_order_acq_rel,
                                        std::memory_order_acquire)) {
    tag.seq = call.seq;
    tag.team_id = call.team_id;
    tag.args[0] = call.args[0];
    tag.args[1] = call.args[1];
    copy_name(tag.name, call.name);
    tag.published.store(gen + 1, std::memory_order_release);
    return;
  }
  // The owner publishes right after its claim; waiting here still watches for its death.
  wait_for([&] { return tag.published.load(std::memory_order_acquire) == gen + 1; }, call.name, members);
  const bool same = tag.seq == call.seq && tag.args[0] == call.args[0] && tag.args[1] == call.args[1] &&
                    tag.team_id == call.team_id && strncmp(tag.name, call.name, sizeof tag.name - 1) == 0;
  if (same) return;
  if (tag.team_id != call.team_id) {
    // Same members, different teams (a split whose members equal its parent's, for example).
    abort_job_for_mismatch("collective mismatch: PE " + std::to_string(rt.my_pe) + " entered " +
                           describe_call(call.name, call.seq, call.args, call.arg_labels) + " on " +
                           call.team_label + " while PE " + std::to_string(int(owner) - 1) + " waits in " +
                           describe_call(tag.name, tag.seq, tag.args, kNoArgLabels) + " on " + team_name(tag.team_id) +
                           ", a different team with the same members; every PE of a team must call the same "
                           "collectives on the same team in the same order");
  }
  char other_name[kCollectiveNameLen];
  snprintf(other_name, sizeof other_name, "%s", tag.name);
  const uint64_t other_args[2] = {tag.args[0], tag.args[1]};
  // The owner's labels are ours when the names agree; otherwise its arguments are not shown.
  const char* const* other_labels = strcmp(other_name, call.name) == 0 ? call.arg_labels : kNoArgLabels;
  abort_job_for_mismatch("collective mismatch" + describe_team(members) + ": PE " + std::to_string(rt.my_pe) +
                         " entered " + describe_call(call.name, call.seq, call.args, call.arg_labels) +
                         " while PE " + std::to_string(int(owner) - 1) + " waits in " +
                         describe_call(other_name, tag.seq, other_args, other_labels) +
                         "; every PE of a team must call the same collectives in the same order" +
                         leaving_early_hint(call.name, other_name));
}
// Cross-team waits. A PE blocked in a collective publishes where (PeSlot::blocked). While
// waiting, a PE looks at the members its barrier still needs: one blocked in another team's
// collective that needs this PE (this PE is a member of that team and, being here, has not
// arrived there) waits for us while we wait for it, so neither collective can ever complete.
// Reported by whichever of the two looks first; the message orders the PEs by number.
void check_cross_team_waits(TeamSlot* slot, PeSet members, const Collective& call, const BarrierState& b,
                            uint32_t gen, const BlockedIn& mine_entry) {
  const Runtime& rt = runtime();
  // Only a PE that cannot arrive anywhere else proves a cross wait: with several blocked callers (work-groups,
  // host threads) or a kernel of several blocks, another caller of the same PE may still arrive there.
  if (!mine_entry.exclusive || rt.pes[rt.my_pe].blocked_count.load(std::memory_order_acquire) != 1) return;
  for (int i = 0; i < members.size; i++) {
    const int pe = members.world_pe(i);
    if (pe == rt.my_pe) continue;
    if (rt.pes[pe].blocked_count.load(std::memory_order_acquire) != 1) continue;
    for (const BlockedIn& other : rt.pes[pe].blocked) {
      const uint32_t other_slot = other.slot.load(std::memory_order_acquire);
      if (other_slot == 0 || int(other_slot) - 1 == slot_index(slot) || !other.exclusive) continue;
      TeamSlot& theirs = runtime().ctl->teams[other_slot - 1];
      const PeSet their_members{theirs.start, theirs.stride, theirs.size};
      if (index_in(their_members, rt.my_pe) < 0) continue;
      const uint32_t their_gen = other.generation;
      const uint32_t their_seq = other.seq;
      const uint64_t their_team = other.team_id;
      char their_name[kCollectiveNameLen];
      memcpy(their_name, other.name, sizeof their_name);
      their_name[sizeof their_name - 1] = '\0';
      // Still blocked there, and our own barrier still incomplete: B published after it left
      // any barrier we share, so a stale record cannot survive these two checks.
      if (other.slot.load(std::memory_order_acquire) != other_slot ||
          theirs.barrier.generation.load(std::memory_order_acquire) != their_gen ||
          b.generation.load(std::memory_order_acquire) != gen)
        continue;
      const std::string mine = "PE " + std::to_string(rt.my_pe) + " waits in " +
                               describe_call(call.name, call.seq, call.args, call.arg_labels) + " on " +
                               call.team_label + " (world PEs " + member_list(members) + ")";
      const std::string other_side = "PE " + std::to_string(pe) + " waits in " +
                                     describe_call(their_name, their_seq, call.args, kNoArgLabels) + " on " +
                                     team_name(their_team) + " (world PEs " + member_list(their_members) + ")";
      abort_job_for_mismatch("collective mismatch: " + (rt.my_pe < pe ? mine + " and " + other_side
                                                                        : other_side + " and " + mine) +
                             "; each needs the other to enter its collective, so neither can complete");
    }
  }
}

// Spins of a barrier wait before this PE publishes where it is blocked (BlockedIn): a barrier that
// completes within them (the common case) never claims or writes a record. Cross-team waits are looked
// for only every ~20 ms of waiting (Backoff::time_to_check), long after both sides published.
constexpr int kSpinsBeforeBlockedRecord = 64;

// This caller's entry among the PE's blocked collectives, or nullptr when all are taken (then the
// caller waits unpublished: no cross-wait report involves it).
BlockedIn* claim_blocked_entry() {
  PeSlot& me = runtime().pes[runtime().my_pe];
  for (BlockedIn& e : me.blocked) {
    uint32_t idle = 0;
    if (e.claimed.compare_exchange_strong(idle, 1, std::memory_order_acq_rel)) {
      me.blocked_count.fetch_add(1, std::memory_order_acq_rel);
      return &e;
    }
  }
  return nullptr;
}

void release_blocked_entry(BlockedIn* e) {
  e->slot.store(0, std::memory_order_release);
  runtime().pes[runtime().my_pe].blocked_count.fetch_sub(1, std::memory_order_acq_rel);
  e->claimed.store(0, std::memory_order_release);
}

bool caller_is_exclusive() {
  if (!rocshmem_emu_wi_in_kernel()) return true;
  unsigned thread[3], block[3], block_dim[3], grid_dim[3];
  rocshmem_emu_wi_ids(thread, block, block_dim, grid_dim);
  return uint64_t(grid_dim[0]) * grid_dim[1] * grid_dim[2] == 1;
}

void wait_for_generation(TeamSlot* slot, PeSet members, const Collective& call, BarrierState& b, uint32_t gen) {
  auto done = [&] { return b.generation.load(std::memory_order_acquire) != gen; };
  if (done()) return;
  // (slot_barrier delivered this PE's queued operations on entry.)
  BlockedIn* me = nullptr;  // this caller's published record, claimed after kSpinsBeforeBlockedRecord spins
  bool published = false;   // tried to claim one (me stays null when all are taken: it waits unpublished)
  int spins = 0;
  Backoff backoff;
  while (!done()) {
    backoff.pause();
    if (!published && ++spins > kSpinsBeforeBlockedRecord) {
      published = true;
      me = claim_blocked_entry();
      if (me) {
        me->generation = gen;
        me->seq = call.seq;
        me->team_id = call.team_id;
        me->exclusive = caller_is_exclusive() ? 1 : 0;
        copy_name(me->name, call.name);
        me->slot.store(uint32_t(slot_index(slot)) + 1, std::memory_order_release);
      }
    }
    if (done() || !backoff.time_to_check()) continue;
    if (call.completes) completion_progress();
    check_peers(call.name, members, PeerPolicy::collective, [](void* d) { return !(*static_cast<decltype(done)*>(d))(); },
                &done);
    if (!done() && me) check_cross_team_waits(slot, members, call, b, gen, *me);
  }
  if (me) release_blocked_entry(me);
}
}  // namespace

int index_in(PeSet m, int pe) {
  int delta = pe - m.start;
  if (m.size <= 0) return -1;
  if (m.stride == 0) return delta == 0 ? 0 : -1;
  if (delta % m.stride != 0) return -1;
  int i = delta / m.stride;
  return (i >= 0 && i < m.size) ? i : -1;
}

TeamSlot* slot_for(PeSet m, uint64_t id, bool pinned) {
  ControlSegment* ctl = runtime().ctl;
  if (m.size == 1) m.stride = 1;  // normalise so every member computes the same key
  auto matches = [&](TeamSlot& s) {
    return s.ready.load(std::memory_order_acquire) && s.team_id == id && s.start == m.start &&
           s.stride == m.stride && s.size == m.size;
  };
  SlotTableLock lock;
  for (TeamSlot& s : ctl->teams)
    if (matches(s)) {
      s.users++;
      return &s;
    }
  for (TeamSlot& s : ctl->teams) {
    if (s.ready.load(std::memory_order_relaxed)) continue;
    s.start = m.start;
    s.stride = m.stride;
    s.size = m.size;
    s.team_id = id;
    s.users = 1;
    s.pinned = pinned ? 1 : 0;
    s.barrier.arrived.store(0, std::memory_order_relaxed);
    s.barrier.generation.store(0, std::memory_order_relaxed);
    s.tag.owner.store(0, std::memory_order_relaxed);
    s.tag.published.store(0, std::memory_order_relaxed);
    s.ready.store(1, std::memory_order_release);
    return &s;
  }
  return nullptr;
}

void slot_release(TeamSlot* slot) {
  if (!slot || !runtime().ctl) return;
  SlotTableLock lock;
  if (--slot->users <= 0 && !slot->pinned) slot->ready.store(0, std::memory_order_release);
}

void exit_if_job_aborted(const char* op) {
  ControlSegment* ctl = runtime().ctl;
  if (ctl && ctl->exit_requested.load(std::memory_order_acquire)) leave_aborted_job(op);
}

void slot_barrier(TeamSlot* slot, PeSet members, Collective& call) {
  exit_if_job_aborted(call.name);
  if (call.completes) complete_all();  // quiet: this PE's earlier puts become visible
  if (call.seq == 0) call.seq = g_slot_seq[slot_index(slot)].fetch_add(1, std::memory_order_relaxed) + 1;
  BarrierState& b = slot->barrier;
  uint32_t gen = b.generation.load(std::memory_order_acquire);
  match_collective(slot, members, gen, call);
  if (b.arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == static_cast<uint32_t>(members.size)) {
    // Every member matched; the next generation starts with an unclaimed tag.
    slot->tag.owner.store(0, std::memory_order_relaxed);
    b.arrived.store(0, std::memory_order_relaxed);
    b.generation.store(gen + 1, std::memory_order_release);
  } else {
    wait_for_generation(slot, members, call, b, gen);
  }
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

uint64_t next_split_id(Team* parent, int axis, char* label, size_t label_size) {
  const uint32_t n = ++parent->splits;
  snprintf(label, label_size, "%s%u of %s", axis == 2 ? "y-axis split " : axis == 1 ? "x-axis split " : "split ", n,
           parent->label);
  return mix64(parent->id * 31 + n * 4 + uint64_t(axis) + 0x9e3779b97f4a7c15ULL);
}

void init_active_set_team(Team* t, PeSet members, int my_index, TeamSlot* slot) {
  t->members = members;
  t->my_index = my_index;
  t->slot = slot;
  t->num_contexts = 0;
  t->predefined = false;
  t->id = mix64((uint64_t(uint32_t(members.start)) << 40) ^ (uint64_t(uint32_t(members.stride)) << 20) ^
                uint64_t(uint32_t(members.size)) ^ 0xa5a5a5a5ULL);
  t->splits = 0;
  snprintf(t->label, sizeof t->label, "the active set of world PEs %s", member_list(members).c_str());
}

Team* team_create(PeSet members, int num_contexts, uint64_t id, const char* label) {
  Runtime& rt = runtime();
  int me = index_in(members, rt.my_pe);
  if (me < 0) return nullptr;
  std::lock_guard<std::mutex> lock(g_pool_mutex);
  // rocSHMEM counts the teams this PE belongs to against ROCSHMEM_MAX_NUM_TEAMS, WORLD and SHARED
  // included; past it a split returns -1 and INVALID.
  const size_t max_teams = rt.cfg.max_teams;
  size_t live = 0;
  for (const Team& t : g_pool) live += t.magic.load(std::memory_order_relaxed) == kTeamMagic ? 1 : 0;
  if (live >= max_teams) {
    report_error("team split: this PE already belongs to %zu teams, the most ROCSHMEM_MAX_NUM_TEAMS=%zu allows (%zu "
                 "user teams besides WORLD and SHARED); destroy teams or raise ROCSHMEM_MAX_NUM_TEAMS",
                 live, max_teams, max_teams - kReservedTeams);
    return nullptr;
  }
  TeamSlot* slot = slot_for(members, id, id == 1);
  if (!slot) {
    report_error("team table full (%d live teams in the job); destroy teams that are no longer needed", kMaxTeamSlots);
    return nullptr;
  }
  g_slot_seq[slot_index(slot)].store(0, std::memory_order_relaxed);  // a new team: its collectives count from #1
  for (int tried = 0; tried < kMaxLiveTeams; tried++) {
    Team& t = g_pool[(g_next_free + tried) % kMaxLiveTeams];
    if (t.magic.load(std::memory_order_relaxed) == kTeamMagic) continue;
    g_next_free = (g_next_free + tried + 1) % kMaxLiveTeams;
    t.members = members;
    t.my_index = me;
    t.slot = slot;
    t.num_contexts = num_contexts;
    t.predefined = false;
    t.id = id;
    t.splits = 0;
    snprintf(t.label, sizeof t.label, "%s", label);
    t.magic.store(kTeamMagic, std::memory_order_release);  // publishes the fields above
    return &t;
  }
  slot_release(slot);
  report_error("too many live teams on this PE (%d); destroy teams that are no longer needed", kMaxLiveTeams);
  return nullptr;
}

void team_destroy(Team* t) {
  std::lock_guard<std::mutex> lock(g_pool_mutex);
  t->magic.store(0, std::memory_order_release);
  slot_release(t->slot);
}

void teams_init() {
  Runtime& rt = runtime();
  for (auto& seq : g_slot_seq) seq.store(0, std::memory_order_relaxed);
  PeSet all{0, 1, rt.n_pes};
  // (split literals: these are handle names, not environment variables; DocumentedSettingsTest scans literals)
  g_world = team_create(all, 0, 1, "ROCSHMEM" "_TEAM_WORLD");
  // SHARED: the PEs of this PE's (simulated) node.
  const int node_start = rt.my_pe / rt.pes_per_node * rt.pes_per_node;
  const PeSet node{node_start, 1, std::min(rt.pes_per_node, rt.n_pes - node_start)};
  g_shared = team_create(node, 0, 2, "ROCSHMEM" "_TEAM_SHARED");
  g_world->predefined = g_shared->predefined = true;
}

void teams_finalize() {
  std::lock_guard<std::mutex> lock(g_pool_mutex);
  for (Team& t : g_pool)
    if (t.magic.exchange(0, std::memory_order_acq_rel) == kTeamMagic) slot_release(t.slot);
  g_world = g_shared = nullptr;
}

Team* world_team() { return g_world; }
Team* shared_team() { return g_shared; }

Team* team_lookup(const void* handle) {
  const auto p = reinterpret_cast<uintptr_t>(handle);
  const auto base = reinterpret_cast<uintptr_t>(g_pool);
  if (p < base || p >= base + sizeof g_pool || (p - base) % sizeof(Team) != 0) return nullptr;
  Team* t = reinterpret_cast<Team*>(p);
  return t->magic.load(std::memory_order_acquire) == kTeamMagic ? t : nullptr;
}

Team* team_from_handle(const void* handle, const char* fn) {
  if (!require_initialized(fn)) return nullptr;
  if (is_invalid_team(handle)) return nullptr;  // a legal no-op, not misuse
  Team* t = team_lookup(handle);
  if (!t) report_error("%s: %p is not a live team handle of this PE; nothing done", fn, handle);
  return t;
}

}  // namespace rocshmem_emu
