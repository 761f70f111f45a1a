// Bootstrap: how the PEs of one job create, find and map each other's shared memory.
//
// The creator (rank 0) makes the control segment under a name every PE can compute (from the
// job key or the unique id namespace). Each PE then creates its own heap under an unguessable
// random name, publishes that name in its control slot, maps every other heap, and counts
// itself in `mapped`. The PE that completes the count unlinks every name, so nothing stays in
// /dev/shm even if a PE crashes later. All objects are created O_EXCL with mode 0600.
// Every failure path unlinks what it knows and returns a one-sentence error.
#pragma once

#include <cstdint>
#include <string>

namespace rocshmem_emu {

struct JoinRequest {
  int rank = 0;
  int n_pes = 1;
  std::string control_name;  // "/rocshmem-emu-..." (POSIX shm name)
  uint8_t secret[16] = {};   // must match the creator's (unique-id init); zero for env init
};

bool bootstrap_join(const JoinRequest& request, std::string* error);

// Unmaps every heap and the control segment (names are already unlinked).
void bootstrap_unmap_all();

// Fills buf with cryptographically random bytes (getrandom); false if the kernel refuses.
bool random_bytes(void* buf, size_t n);

std::string hex(const uint8_t* bytes, size_t n);

}  // namespace rocshmem_emu
