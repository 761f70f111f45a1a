// Teams: a team is an arithmetic progression of world PEs (every OpenSHMEM split of WORLD is
// one). Handles given to users are pointers to Team objects owned by this PE. Barrier state
// lives in the control segment, in the slot of the team's membership.
#pragma once

#include <cstdint>

#include "wait.hpp"

namespace rocshmem_emu {

struct TeamSlot;

struct Team {
  uint64_t magic;
  PeSet members;  // world PEs
  int my_index;   // this PE's index in the team
  TeamSlot* slot;
  int num_contexts;  // from rocshmem_team_config_t when the mask asks for it
  bool predefined;   // WORLD and SHARED: never destroyed by users
};

constexpr uint64_t kTeamMagic = 0x6d61657475;  // "uteam"

// Creates the predefined teams after bootstrap / deletes every team at finalize.
void teams_init();
void teams_finalize();

Team* world_team();
Team* shared_team();

// Validated view of a user handle; nullptr (after an error message naming fn) when the handle
// is INVALID, destroyed or garbage.
Team* team_from_handle(const void* handle, const char* fn);
// Like team_from_handle but silent (query functions return -1 for invalid teams).
Team* team_lookup(const void* handle);

// Membership slot for a PE set (find or create). nullptr when the table is full.
TeamSlot* slot_for(PeSet members);

// Creates a team object for members (this PE must be one); nullptr on failure.
Team* team_create(PeSet members, int num_contexts);
void team_destroy(Team* team);

// Index of world PE `pe` in members, or -1.
int index_in(PeSet members, int pe);

// Barrier over the slot's members: quiet first (OpenSHMEM barrier semantics), then wait.
void slot_barrier(TeamSlot* slot, PeSet members, const char* op);
inline void team_barrier(Team* t, const char* op) { slot_barrier(t->slot, t->members, op); }

}  // namespace rocshmem_emu
