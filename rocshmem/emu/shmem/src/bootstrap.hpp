// Bootstrap: how the PEs of one job create, find and map each other's shared memory.
//
// Rank 0 creates the control segment under a name made of the job's key (from the unique id or
// the launch environment) and a random part; the other PEs find it by its key in the object
// directory (see shm_objects.hpp) and check that its owner, creator and contents fit. Each PE
// then creates its heap under a random name, publishes that name in its control slot, maps
// every other heap, and counts itself in `mapped`. The PE that completes the count unlinks every
// name, so nothing stays in the directory even if a PE crashes later. Every wait has the init
// deadline (ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT) and watches the PEs already seen; every failure
// unlinks what it knows and returns a one-sentence error.
#pragma once

#include <cstdint>
#include <string>

#include "random_bytes.hpp"

namespace rocshmem_emu {

struct JoinRequest {
  int rank = 0;
  int n_pes = 1;
  std::string job_key;      // public part of the control name: "u<uid namespace>" or "j<hash of the job key>"
  std::string job_source;   // where the key came from, for messages
  uint8_t secret[16] = {};  // must match the creator's (unique-id init); zero for env init
};

bool bootstrap_join(const JoinRequest& request, std::string* error);

// Unmaps every heap and the control segment (names are already unlinked).
void bootstrap_unmap_all();

using emu_common::random_bytes;

std::string hex(const uint8_t* bytes, size_t n);

}  // namespace rocshmem_emu
