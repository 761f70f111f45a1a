// Teams: a team is an arithmetic progression of world PEs (every OpenSHMEM split of WORLD is
// one). Handles given to users are pointers into a fixed pool of Team objects owned by this PE,
// so a handle is validated without a lock (hot paths look teams up on every call). Barrier
// state lives in the control segment, in the team's own slot (identity and members).
#pragma once

#include <atomic>
#include <cstdint>

#include "wait.hpp"

namespace rocshmem_emu {

struct TeamSlot;

struct Team {
  std::atomic<uint64_t> magic;  // kTeamMagic while the handle is live; written last on creation
  PeSet members;                // world PEs
  int my_index;                 // this PE's index in the team
  TeamSlot* slot;
  int num_contexts;  // from rocshmem_team_config_t when the mask asks for it
  bool predefined;   // WORLD and SHARED: never destroyed by users
  // Identity: every PE of a team computes the same id from its parent's id and the parent's
  // split count, so two teams with the same members are still different teams.
  uint64_t id;
  uint32_t splits;  // splits made from this team so far (every parent PE counts every split)
  char label[96];   // ROCSHMEM_TEAM_WORLD, split 2 of ROCSHMEM_TEAM_WORLD, ...
};

constexpr uint64_t kTeamMagic = 0x6d61657475;  // "uteam"
constexpr int kMaxLiveTeams = 4096;              // per PE; a full pool makes team creation fail

// Creates the predefined teams after bootstrap / deletes every team at finalize.
void teams_init();
void teams_finalize();

Team* world_team();
Team* shared_team();

// ROCSHMEM_TEAM_INVALID: collectives on it are legal no-ops (a PE outside a split calls them).
inline bool is_invalid_team(const void* handle) { return handle == nullptr; }

// Validated view of a user handle; nullptr when the handle is INVALID (silently: see
// is_invalid_team) or, after an error message naming fn, destroyed or garbage.
Team* team_from_handle(const void* handle, const char* fn);
// Like team_from_handle but silent (query functions return -1 for invalid teams). Lock-free.
Team* team_lookup(const void* handle);

// The slot of the team with this identity and these members (find and attach, or create), so teams
// with equal members keep their own barrier and matching state. Every member PE attaches once per
// team; slot_release detaches (the last PE frees an unpinned slot). nullptr when the table is full.
TeamSlot* slot_for(PeSet members, uint64_t id, bool pinned);
void slot_release(TeamSlot* slot);

// Identity of the next team split from parent (axis tells the two teams of split_2d apart).
// Every PE of the parent calls it once per split, members of the new team or not.
uint64_t next_split_id(Team* parent, int axis, char* label, size_t label_size);

// Creates a team object for members (this PE must be one); nullptr on failure.
Team* team_create(PeSet members, int num_contexts, uint64_t id, const char* label);

// Fills *t as a team-like value for an OpenSHMEM 1.4 active set (identity from its members).
void init_active_set_team(Team* t, PeSet members, int my_index, TeamSlot* slot);
void team_destroy(Team* team);

// Index of world PE `pe` in members, or -1.
int index_in(PeSet members, int pe);

// One collective call as the matching check sees it: every PE of the team must enter the same
// function, as the same (per-team) sequence number, with the same arguments. A collective that
// synchronises several times passes the same object to every barrier phase.
struct Collective {
  const char* name;                             // API function, e.g. "rocshmem_barrier_all"
  uint64_t args[2] = {0, 0};                    // values every PE must pass alike
  const char* arg_labels[2] = {nullptr, nullptr};  // how to print them; nullptr = unused
  uint32_t seq = 0;                             // set by the first barrier phase
  bool completes = true;  // quiet first (OpenSHMEM); host barrier_all/sync_all under ipc-uid do not
  uint64_t team_id = 0;                         // set by team_barrier
  const char* team_label = "";

  explicit Collective(const char* fn) : name(fn) {}
  Collective(const char* fn, const char* label0, uint64_t arg0) : name(fn) {
    args[0] = arg0;
    arg_labels[0] = label0;
  }
  Collective(const char* fn, const char* label0, uint64_t arg0, const char* label1, uint64_t arg1)
      : Collective(fn, label0, arg0) {
    args[1] = arg1;
    arg_labels[1] = label1;
  }
};

// Barrier over the slot's members: quiet first (OpenSHMEM barrier semantics), then wait. Ends
// the job on every PE when another member entered a different collective, or when the job was
// already aborted; returns only when every member entered this same collective.
void slot_barrier(TeamSlot* slot, PeSet members, Collective& call);
inline void team_barrier(const Team* t, Collective& call) {
  call.team_id = t->id;
  call.team_label = t->label;
  slot_barrier(t->slot, t->members, call);
}

// Ends this PE at once when the job was aborted (global_exit, collective mismatch). Called on
// entry to every collective so that no PE starts a collective after the job ended.
void exit_if_job_aborted(const char* op);

}  // namespace rocshmem_emu
